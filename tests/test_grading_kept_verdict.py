"""Lesson 06's two answers that cannot travel as data are judged where they were made, in the answer run:
ex4 (`class FixedScorer(Scorer)`, a Layer whose forward is the answer) and ex1 (`reloaded`, a model loaded
from the files the answer cell wrote; its solution cell says so in its metadata). Only pass or fail comes
back, and pass needs the test cell's last line reached and the kernel's reply "ok". A class that installs
hooks swallowing every error (and an execute_result before every cell, faked check functions, a print of
every cell) gets no point there; an ex1 answer that names the right spec but never saves scores nothing.
"""
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from paddlecourse.grading import judge

sys.path.insert(0, str(Path(__file__).parent))
from submissions import attacks  # noqa: E402
from test_nbgrader_e2e import sandbox_or_skip  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "solutions" / "06_export.ipynb"
pytestmark = pytest.mark.timeout(600)

RIGHT = '''class FixedScorer(Scorer):
    def forward(self, x):
        h = F.relu(self.hidden(x))
        h = F.dropout(h, p=0.2, training=self.training)
        return self.out(h)'''
# no dropout at all (the test's "dropout still acts in train() mode" fails), behind hooks that swallow every error
HOSTILE = "\n".join([attacks.HOOKS, attacks.PATCHES, "print('\\n'.join(In))", '''class FixedScorer(Scorer):
    def forward(self, x):
        return self.out(F.relu(self.hidden(x)))'''])


# the right InputSpec, but nothing saved: the files the test reads are not there (the instructor's are never seen)
SPEC_NOT_SAVED = """remove_export(ex1_prefix)
ex1_spec = [InputSpec([None, 784], "float32", "x")]
reloaded = model"""


def submission(tmp_path, name, answer, ex1=None):
    """The solution notebook as a student would hand it in: hidden tests out, solution regions kept as code."""
    notebook = nbformat.read(SOURCE, as_version=4)
    for cell in notebook.cells:
        cell.source = re.sub(r"^[ \t]*#+ *(BEGIN|END) SOLUTION.*\n?", "", judge.without_hidden_tests(cell.source),
                             flags=re.M)
        if judge._grader(cell).get("grade_id") == "l06-ex4-answer":
            cell.source = answer
        if ex1 is not None and judge._grader(cell).get("grade_id") == "l06-ex1-answer":
            cell.source = ex1
    path = tmp_path / name / SOURCE.name
    path.parent.mkdir()
    nbformat.write(notebook, path)
    return path


def test_the_kept_verdict_is_pass_or_fail_and_hooks_do_not_pass_it(tmp_path):
    sandbox_or_skip()
    paths = [submission(tmp_path, "right", RIGHT), submission(tmp_path, "hostile", HOSTILE, ex1=SPEC_NOT_SAVED),
             # the right class, but the kernel exits in ex1: the answer run never reaches ex4's test
             submission(tmp_path, "exits_first", RIGHT, ex1="import os\nos._exit(0)")]
    with ThreadPoolExecutor(max_workers=2) as pool:
        right, hostile, exits_first = pool.map(lambda p: judge.judge_notebook(p, SOURCE), paths)
    # a kept test the answer run did not reach is not judged (the judge's run would pass the solution's class)
    assert exits_first.passed["l06-ex4"] is False and exits_first.needs_look
    assert right.passed == dict.fromkeys(["l06-ex1", "l06-ex2", "l06-ex3", "l06-ex4"], True), (right.passed,
                                                                                              right.needs_look)
    assert not right.needs_look, right.needs_look
    assert hostile.passed["l06-ex4"] is False
    assert hostile.passed["l06-ex1"] is False   # the judge's run holds the solution's files: never asked
    shown = next(c for c in hostile.cells if judge._grader(c).get("grade_id") == "l06-ex4")["outputs"]
    assert [o["evalue"] for o in shown] == [judge.KEPT_FAILED]
    assert any("l06-ex1, l06-ex4 was decided in the sandboxed run where your answer ran" in note for note in right.notes)
    for judgement in (right, hostile):   # (the sources keep their hidden tests: nbgrader's feedback removes them)
        shown = str([c.get("outputs", []) for c in judgement.cells])
        assert "BEGIN HIDDEN TESTS" not in shown and "dropout must still act in train() mode" not in shown
