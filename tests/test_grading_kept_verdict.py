"""Lesson 06 ex4 (`class FixedScorer(Scorer)`, a Layer whose forward is the answer) is the one test whose
verdict comes from the answer run, where the student's class ran: only pass or fail comes back, and pass
needs the test cell's last line reached. A class that installs hooks swallowing every error (and an
execute_result before every cell, faked check functions, a print of every cell) gets no point there.
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


def submission(tmp_path, name, answer):
    """The solution notebook as a student would hand it in: hidden tests out, solution regions kept as code."""
    notebook = nbformat.read(SOURCE, as_version=4)
    for cell in notebook.cells:
        cell.source = re.sub(r"^[ \t]*#+ *(BEGIN|END) SOLUTION.*\n?", "", judge.without_hidden_tests(cell.source),
                             flags=re.M)
        if judge._grader(cell).get("grade_id") == "l06-ex4-answer":
            cell.source = answer
    path = tmp_path / name / SOURCE.name
    path.parent.mkdir()
    nbformat.write(notebook, path)
    return path


def test_the_kept_verdict_is_pass_or_fail_and_hooks_do_not_pass_it(tmp_path):
    sandbox_or_skip()
    paths = [submission(tmp_path, "right", RIGHT), submission(tmp_path, "hostile", HOSTILE)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        right, hostile = pool.map(lambda p: judge.judge_notebook(p, SOURCE), paths)
    assert right.passed["l06-ex4"] is True, right.cells
    assert hostile.passed["l06-ex4"] is False
    shown = next(c for c in hostile.cells if judge._grader(c).get("grade_id") == "l06-ex4")["outputs"]
    assert [o["evalue"] for o in shown] == [judge.KEPT_FAILED]
    assert any("decided in the sandboxed run where your class ran" in note for note in right.notes)
    for judgement in (right, hostile):   # (the sources keep their hidden tests: nbgrader's feedback removes them)
        shown = str([c.get("outputs", []) for c in judgement.cells])
        assert "BEGIN HIDDEN TESTS" not in shown and "dropout must still act in train() mode" not in shown
