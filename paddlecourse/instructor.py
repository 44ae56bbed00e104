"""Kept for course directories created before the grading code moved to ``paddlecourse.grading``
(their nbgrader_config.py names ``paddlecourse.instructor.HideHiddenTests``) and for old imports.
"""
from . import grading as _grading
from .grading import *  # noqa: F401,F403

__all__ = list(_grading.__all__)
