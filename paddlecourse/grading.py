"""The old name of ``paddlecourse.teach.grading``, for course directories created before the library was split into rooms per reader.

Their ``nbgrader_config.py`` (recorded by the integrity check, so editing it stops ``grade`` until
``paddlecourse course trust``) names ``paddlecourse.grading.judge.ApplyJudgement`` and
``paddlecourse.grading.feedback.HideHiddenTests``, and nbgrader imports those names. Only nbgrader loads
this module; nothing in the course imports it. ``paddlecourse course create DIR --overwrite-config`` writes
a course directory's config with the new names.
"""
import sys

from .teach.grading import feedback, judge

# the same modules under the old names (not a second copy): the import system finds them here first
sys.modules[f"{__name__}.judge"] = judge
sys.modules[f"{__name__}.feedback"] = feedback
