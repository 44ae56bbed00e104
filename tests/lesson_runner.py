"""Run a lesson in a real course kernel and try answers in it, as a learner would.

    from lesson_runner import LessonKernel

    with LessonKernel("solutions/01_two_ways_to_cook.ipynb") as lesson:
        lesson.run_until("l01-ex2-answer")          # every cell before that one, once
        r = lesson.try_answer("l01-ex2", "hidden_shape = [-1, 6]\\nscore_shape = [-1]")
        assert not r.passed and r.ename == "CheckFailed" and "hidden_shape" in r.message
        lesson.run_cell_of("l01-ex2-answer")         # the real solution again, before moving on

One kernel per `with` (starting one and importing Paddle takes seconds): try
all the wrong answers of a lesson in one block, exercise by exercise.
The kernel's working folder is the notebook's folder, as in Jupyter.
"""
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbclient import NotebookClient

KERNEL = "paddlecourse"
HIDDEN = "### BEGIN HIDDEN TESTS"


@dataclass
class CellResult:
    """What running one piece of code showed: printed text and the error, if any."""

    passed: bool
    ename: str = ""
    message: str = ""  # the error's value (for CheckFailed: the learner's sentence and hint)
    output: str = ""   # stdout/stderr text and text/plain results, in order
    answer_error: str = ""  # try_answer: an error raised by the answer code itself
    outputs: list = field(default_factory=list, repr=False)

    def __str__(self):
        state = "passed" if self.passed else f"{self.ename}: {self.message}"
        extra = f" (the answer code itself raised {self.answer_error})" if self.answer_error else ""
        return f"{state}{extra}\n--- output ---\n{self.output}"


def grade_id(cell):
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def visible_part(source):
    """The part of a test cell a learner runs (nbgrader strips the hidden tests from student copies)."""
    return source.split(HIDDEN, 1)[0].rstrip()


def _result(outputs):
    text, ename, message = [], "", ""
    for out in outputs:
        kind = out.get("output_type")
        if kind == "stream":
            text.append(out.get("text", ""))
        elif kind in ("execute_result", "display_data"):
            plain = out.get("data", {}).get("text/plain")
            if plain:
                text.append(plain if plain.endswith("\n") else plain + "\n")
        elif kind == "error":
            ename, message = out.get("ename", ""), out.get("evalue", "")
    return CellResult(passed=not ename, ename=ename, message=message, output="".join(text), outputs=list(outputs))


class LessonKernel:
    """A lesson notebook and one live course kernel to run its cells in."""

    def __init__(self, path, timeout=300, kernel_name=KERNEL):
        self.path = Path(path).resolve()
        self.notebook = nbformat.read(self.path, as_version=4)
        self.cells = self.notebook.cells
        self._next = 0  # index of the first cell run_until has not run yet
        self.client = NotebookClient(
            self.notebook, timeout=timeout, kernel_name=kernel_name, allow_errors=True,
            resources={"metadata": {"path": str(self.path.parent)}}, record_timing=False,
            store_widget_state=False,
        )

    # -- lifecycle
    def __enter__(self):
        self.client.km = self.client.create_kernel_manager()
        self.client.start_new_kernel()
        self.client.start_new_kernel_client()
        return self

    def __exit__(self, *exc):
        # nbclient's kernel manager is async; its own cleanup stops the channels and the kernel.
        self.client._cleanup_kernel()
        return False

    # -- finding cells
    def index_of(self, wanted):
        """Index of the cell whose nbgrader grade id is ``wanted``."""
        for index, cell in enumerate(self.cells):
            if grade_id(cell) == wanted:
                return index
        known = ", ".join(g for g in (grade_id(c) for c in self.cells) if g)
        raise KeyError(f"{self.path.name} has no cell with grade id {wanted!r} (it has: {known})")

    # -- running code
    def run_code(self, code, index=None):
        """Run ``code`` in the kernel; returns a CellResult. Never raises for an error in the code."""
        cell = nbformat.v4.new_code_cell(code)
        # nbclient files display updates under a cell index, and stores the executed cell at
        # that index: a scratch cell borrows one, and the lesson's own cell is put back after.
        index = min(self._next, len(self.cells) - 1) if index is None else index
        original = self.cells[index]
        try:
            self.client.execute_cell(cell, index)
        finally:
            self.cells[index] = original
        return _result(cell.outputs)

    def run_cell(self, index):
        cell = self.cells[index]
        if cell.cell_type != "code" or not cell.source.strip():
            return CellResult(passed=True)
        self.client.execute_cell(cell, index)
        return _result(cell.outputs)

    def run_until(self, wanted, allow_errors=False):
        """Run, once, every cell before the cell with grade id ``wanted`` (from where the last call stopped).

        An error in one of those cells fails loudly (the lesson itself is broken)
        unless ``allow_errors``.
        """
        stop = self.index_of(wanted)
        results = []
        while self._next < stop:
            index = self._next
            result = self.run_cell(index)
            self._next += 1
            if not result.passed and not allow_errors:
                raise AssertionError(
                    f"{self.path.name}, cell {index} (before {wanted}) raised {result.ename}: {result.message}")
            results.append((index, result))
        return results

    def run_all(self):
        """Run every remaining cell, continuing past errors; returns [(index, CellResult)]."""
        results = []
        while self._next < len(self.cells):
            index = self._next
            results.append((index, self.run_cell(index)))
            self._next += 1
        return results

    def run_cell_of(self, wanted):
        """Run the cell with grade id ``wanted`` as it is in the notebook (a solution: the real answer)."""
        return self.run_cell(self.index_of(wanted))

    def try_answer(self, exercise, code):
        """Run ``code`` in place of ``exercise``'s answer cell, then the visible part of its test cell.

        Returns the test cell's CellResult; an error raised by ``code`` itself is in ``answer_error``.
        """
        answer_index = self.index_of(f"{exercise}-answer")
        test_index = self.index_of(exercise)
        answer = self.run_code(code, answer_index)
        result = self.run_code(visible_part(self.cells[test_index].source), test_index)
        if not answer.passed:
            result.answer_error = f"{answer.ename}: {answer.message}"
        return result
