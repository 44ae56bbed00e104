"""Grading the course with nbgrader, one idea per module:

- ``course``    the course directory: lessons as assignments, nbgrader_config.py, nbgrader's commands;
- ``parallel``  grading a class and the report an instructor reads;
- ``feedback``  feedback pages that never show hidden tests;
- ``export``    grades to CSV;
- ``sandbox``   bubblewrap around every submission; ``runner`` is what runs inside it;
- ``judge``     the grade decided outside the student's kernel; ``answers`` are the plain data it judges;
- ``integrity`` the course directory as the instructor left it;
- ``timing``    measuring the lessons (the per-cell timeout) and the presenters' notes.

``paddlecourse course ...`` (cli.py) is the command line over these.
"""
from .course import (  # noqa: F401
    CELL_TIMEOUT, CONFIG_TEMPLATE, COURSE_ID, REPO_ROOT, Run, assignment_id, collect, config_text, create_course,
    exchange_root, generate_assignment, lesson_notebooks, lessons_by_assignment, nbgrader, release_assignment,
    submit, submitted_students, sync_sources,
)
from . import sandbox  # noqa: F401
from .export import export_grades  # noqa: F401
from .integrity import IntegrityError, differences, record, verify  # noqa: F401
from .sandbox import Limits, SandboxMissing  # noqa: F401
from .feedback import HideHiddenTests, failing_line, generate_feedback, hidden_line_numbers  # noqa: F401
from .parallel import ClassReport, Grade, grade_class, scores  # noqa: F401
from .timing import (  # noqa: F401
    LessonProfile, lesson_profile, notes_markdown, schedule_markdown, time_cells, timing_report,
    write_presenter_notes,
)
