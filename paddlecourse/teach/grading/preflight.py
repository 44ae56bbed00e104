"""Before a `paddlecourse course` step runs: is this a course directory, is the id an assignment, has the step
before it happened? Each mistake is one sentence that says what to run, checked before nbgrader starts, so an
instructor never meets a traceback, nbgrader's own words, or an exchange folder made somewhere system-wide.
"""
import re
from pathlib import Path

from .course import COURSE_ID, course_language, exchange_root, lessons_by_assignment

# the steps that need a course directory, and those that need an assignment id besides
IN_A_COURSE = {"sync", "generate", "release", "collect", "grade", "export", "feedback", "trust"}
WITH_AN_ASSIGNMENT = {"generate", "release", "collect", "grade", "feedback"}
# what must be there before a step, and the step that puts it there
BEFORE = {
    "release": ("release", "{aid} has no student version yet: run `paddlecourse course generate {aid}` first."),
    "collect": ("outbound", "{aid} has not been released yet: run `paddlecourse course release {aid}` first."),
    "grade": ("submitted", "no submission of {aid} has been collected yet: run `paddlecourse course collect {aid}` "
                           "first (students hand in with `nbgrader submit {aid}`)."),
    "feedback": ("autograded", "no submission of {aid} has been graded yet: run `paddlecourse course grade {aid}` "
                               "first."),
}


class CourseMistake(ValueError):
    """A step asked for in the wrong place or order; the message is the one sentence to show."""


def is_course_directory(folder):
    """True for a folder `paddlecourse course create` made: its nbgrader_config.py names this course."""
    config = Path(folder) / "nbgrader_config.py"
    return config.is_file() and re.search(
        rf"^c\.CourseDirectory\.course_id\s*=\s*['\"]{COURSE_ID}['\"]", config.read_text(encoding="utf-8"), re.M)


def id_range(ids):
    """'l00–l08' for a run of consecutive lessons, else the ids one by one."""
    numbers = [int(i[1:]) for i in ids if re.fullmatch(r"l\d+", i)]
    if len(numbers) == len(ids) > 2 and numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        return f"{ids[0]}–{ids[-1]}"
    return ", ".join(ids)


def check(action, course_dir, assignment=None):
    """Raise CourseMistake if `action` cannot run in ``course_dir`` (for ``assignment``) as things stand."""
    folder = Path(course_dir).resolve()
    if action not in IN_A_COURSE:
        return
    if not is_course_directory(folder):
        raise CourseMistake(f"{folder} is not a course directory: run this in the folder "
                            "`paddlecourse course create DIR` made, or pass --dir DIR.")
    if action not in WITH_AN_ASSIGNMENT:
        return
    ids = list(lessons_by_assignment(lang=course_language(folder)))
    if not assignment:
        raise CourseMistake(f"paddlecourse course {action} needs an assignment id: {id_range(ids)}.")
    if assignment not in ids:
        raise CourseMistake(f"{assignment} is not an assignment: {id_range(ids)}.")
    if action in BEFORE:
        where, sentence = BEFORE[action]
        if where == "release":
            present = (folder / where / assignment).is_dir()
        elif where == "outbound":   # in the exchange, where release put it
            present = (Path(exchange_root(folder)) / COURSE_ID / "outbound" / assignment).is_dir()
        else:
            present = any(p.is_dir() for p in (folder / where).glob(f"*/{assignment}"))
        if not present:
            raise CourseMistake(sentence.format(aid=assignment))
