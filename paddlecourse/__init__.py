"""paddlecourse: the helper library behind the PaddlePaddle dynamic-vs-static course.

Lessons import only the names listed in ``__all__``.
"""
import os

# glog reads this once, when paddle is first imported: set it before anything
# below (or the learner) imports paddle, or Paddle's INFO lines flood the notebook.
os.environ.setdefault("GLOG_minloglevel", "2")

from .session import setup  # noqa: E402
from .modes import static_mode  # noqa: E402
from .checks import (  # noqa: E402
    CheckFailed,
    check_value,
    check_shape,
    check_dtype,
    check_grad,
    check_answer,
    check_true,
    check_parts,
    run_answer,
    last_failure,
    no_answer_yet,
)
from .errors import error_message, show_error  # noqa: E402
from .progress import progress  # noqa: E402
from .verify import verify  # noqa: E402
# Catch-up lives in paddlecourse.catchup (setup() also registers `%catchup l02-ex3`);
# the function is not re-exported here so the module name stays importable.
from .catchup import grading_in_progress  # noqa: E402
from .export import check_export  # noqa: E402

__all__ = [
    "setup",
    "static_mode",
    "CheckFailed",
    "check_value",
    "check_shape",
    "check_dtype",
    "check_grad",
    "check_answer",
    "check_true",
    "check_parts",
    "run_answer",
    "last_failure",
    "no_answer_yet",
    "error_message",
    "show_error",
    "progress",
    "verify",
    "grading_in_progress",
    "check_export",
]
