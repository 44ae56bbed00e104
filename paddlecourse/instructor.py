"""Kept for course directories created before the grading code moved to ``paddlecourse.grading``
(their nbgrader_config.py names ``paddlecourse.instructor.HideHiddenTests``) and for old imports.
"""
from .grading import *  # noqa: F401,F403
from .grading import __dict__ as _names

__all__ = [name for name in _names if not name.startswith("_")]
