"""Grading the course with nbgrader, one idea per module:

- ``course``    the course directory: lessons as assignments, nbgrader_config.py, nbgrader's commands;
- ``parallel``  grading a class and the report an instructor reads;
- ``feedback``  feedback pages that never show hidden tests;
- ``export``    grades to CSV;
- ``sandbox``   bubblewrap around every submission; ``runner`` is what runs inside it;
- ``judge``     the grade decided outside the student's kernel, in the steps of its own modules:
                ``submission`` (read, refused or normalised), ``plans`` (how each answer is judged, the runs'
                cells), ``runs`` (a run in the sandbox, read back), ``cells`` (what a cell defines and hides);
                ``answers``, ``reports``, ``models``, ``layer_classes`` and ``effects`` (``recording``,
                ``replaying``) are how answers travel;
- ``integrity`` the course directory as the instructor left it;
- ``timing``    measuring the lessons (the per-cell timeout) and the presenters' notes.

``paddlecourse course ...`` (cli.py) is the command line over these.

The names below are loaded when first used, not when the package is imported: the judge's cells
import ``paddlecourse.teach.grading.answers`` and ``.effects`` inside a student's kernel, where pulling in
nbgrader, nbconvert and SQLAlchemy (``course``, ``parallel``) took 16-29 s on a busy machine - more than
a cell's time limit.
"""
import importlib

_MODULE_OF = {
    "course": ("CELL_TIMEOUT", "CONFIG_TEMPLATE", "COURSE_ID", "REPO_ROOT", "Run", "assignment_id", "collect",
               "config_text", "create_course", "exchange_root", "generate_assignment", "lesson_notebooks",
               "lessons_by_assignment", "nbgrader", "release_assignment", "submit", "submitted_students",
               "sync_sources"),
    "export": ("export_grades",),
    "integrity": ("IntegrityError", "differences", "record", "verify"),
    "sandbox": ("Limits", "SandboxMissing"),
    "feedback": ("HideHiddenTests", "failing_line", "generate_feedback", "hidden_line_numbers"),
    "parallel": ("ClassReport", "Grade", "grade_class", "scores"),
    "timing": ("LessonProfile", "lesson_profile", "notes_markdown", "schedule_markdown", "time_cells",
               "timing_report", "write_presenter_notes"),
}
_WHERE = {name: module for module, names in _MODULE_OF.items() for name in names}
__all__ = sorted(_WHERE) + ["sandbox"]


def __getattr__(name):
    if name in _WHERE:
        value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    elif name == "sandbox":
        value = importlib.import_module(".sandbox", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # once loaded, an ordinary attribute
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
