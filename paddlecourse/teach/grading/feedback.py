"""Feedback for students that never shows hidden tests."""
import re
from pathlib import Path

from nbgrader.preprocessors import ClearHiddenTests, NbGraderPreprocessor

from .course import nbgrader
from .integrity import verify


class FeedbackPages(list):
    """The feedback pages written; ``failed`` names the students whose notebook did not convert."""

    failed = ()


def generate_feedback(course_dir, assignment, release=True):
    """HTML feedback per student into ``feedback/`` (hidden tests hidden), and into the exchange.

    Feedback is per student: a notebook that does not convert is reported (``pages.failed``) and the
    rest of the class still gets theirs, released as usual."""
    verify(course_dir)
    course = Path(course_dir)
    nbgrader(course_dir, "generate_feedback", assignment, "--force", check=False)  # it goes on past one failure
    graded = sorted(p.parent.parent.name for p in course.glob(f"autograded/*/{assignment}/*.ipynb"))
    pages = FeedbackPages(sorted(course.glob(f"feedback/*/{assignment}/*.html")))
    pages.failed = sorted(set(graded) - {p.parent.parent.name for p in pages})
    if release and pages:
        nbgrader(course_dir, "release_feedback", assignment)
    return pages


_CELL_LINE = re.compile(r"(?:Cell In\s*\[\d*\]|Input In\s*\[\d*\]|<ipython-input-[^>]*>)\D*?line (\d+)")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def hidden_line_numbers(source, begin="BEGIN HIDDEN TESTS", end="END HIDDEN TESTS"):
    """1-based line numbers of a cell's hidden-test region (markers included)."""
    hidden, inside = set(), False
    for number, line in enumerate(source.split("\n"), start=1):
        if begin in line:
            inside = True
        if inside:
            hidden.add(number)
        if end in line:
            inside = False
    return hidden


def failing_line(traceback):
    """The line of the cell itself (outermost frame) that raised, from an IPython traceback."""
    for entry in traceback:
        found = _CELL_LINE.search(_ANSI.sub("", entry))
        if found:
            return int(found.group(1))
    return None


class HideHiddenTests(NbGraderPreprocessor):
    """Feedback preprocessor: remove hidden tests from grade cells and cut tracebacks to one line.

    - the hidden-test region of each grade cell is removed (nbgrader's ClearHiddenTests);
    - every error output in a grade cell keeps only ``Name: message`` (an IPython
      traceback prints the lines around the failing one, hidden ones included);
    - when the failing line was in the hidden region (or cannot be told, unless it
      is a check's CheckFailed), the message is replaced too, since an assert's
      text can quote hidden values. Hidden tests are therefore plain asserts,
      never check functions.
    """

    message = "A hidden test did not pass. (Hidden tests are not shown; check your answer against the exercise text.)"

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code" or not cell.get("metadata", {}).get("nbgrader", {}).get("grade"):
            return cell, resources
        hidden = hidden_line_numbers(cell.source)
        if hidden:
            ClearHiddenTests(enforce_metadata=False)._remove_hidden_test_region(cell)
        for output in cell.get("outputs", []):
            if output.get("output_type") != "error":
                continue
            line = failing_line(output.get("traceback", []))
            # setup() prints a failed check as one line, without the cell's line number;
            # checks belong to the visible part (hidden tests are plain asserts).
            visible_check = line is None and output.get("ename") == "CheckFailed"
            if hidden and not visible_check and (line is None or line in hidden):
                output.ename, output.evalue = "HiddenTestFailed", self.message
            output.traceback = [f"{output.ename}: {output.evalue}"]
        return cell, resources

