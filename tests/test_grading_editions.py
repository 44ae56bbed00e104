"""A course made from the Chinese edition grades a class that mixes both editions.

`paddlecourse course create DIR --lang zh` takes its sources from solutions/zh/: the same assignments
and grade ids, the Chinese text and checks. One student hands in the Chinese student copy, another
the English one (right answers in both): both get every point, judged by the course's Chinese copy,
and the feedback speaks Chinese.
"""
import json
import sys
from pathlib import Path

import nbformat
import pytest

from paddlecourse.teach import grading
from paddlecourse.teach.grading.course import lesson_notebooks

sys.path.insert(0, str(Path(__file__).parent))
from submissions import l00  # noqa: E402
from grading_class import JOBS, fill, sandbox_or_skip  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ASSIGNMENT, NOTEBOOK = "l00", "00_setup_and_first_run.ipynb"
pytestmark = pytest.mark.timeout(900)


def test_the_editions_have_the_same_assignments_and_grade_ids():
    english, chinese = lesson_notebooks(ROOT, "en"), lesson_notebooks(ROOT, "zh")
    assert [p.name for p in english] == [p.name for p in chinese] and len(english) == 9
    for e, c in zip(english, chinese):
        ids = [[cell.metadata.get("nbgrader", {}).get("grade_id") for cell in nbformat.read(p, as_version=4).cells]
               for p in (e, c)]
        assert ids[0] == ids[1], e.name
    with pytest.raises(ValueError, match="not 'fr'"):
        lesson_notebooks(ROOT, "fr")


def test_a_chinese_course_grades_chinese_and_english_submissions_alike(tmp_path, monkeypatch):
    sandbox_or_skip()
    monkeypatch.setenv("PADDLECOURSE_STATE_DIR", str(tmp_path / "state"))
    course = tmp_path / "course"
    grading.create_course(course, generate=False, lang="zh")
    source = nbformat.read(course / "source" / ASSIGNMENT / NOTEBOOK, as_version=4)
    assert 'paddlecourse.setup(lang="zh")' in next(c.source for c in source.cells if c.cell_type == "code")
    assert json.loads((course / "paddlecourse-course.json").read_text()) == {"lang": "zh"}
    grading.generate_assignment(course, ASSIGNMENT)
    grading.release_assignment(course, ASSIGNMENT)
    chinese_copy = nbformat.read(course / "exchange" / grading.COURSE_ID / "outbound" / ASSIGNMENT / NOTEBOOK,
                                 as_version=4)
    english_copy = nbformat.read(ROOT / "lessons" / NOTEBOOK, as_version=4)
    for student, copy in (("zh-student", chinese_copy), ("en-student", english_copy)):
        home = tmp_path / "students" / student
        (home / ASSIGNMENT).mkdir(parents=True)
        nbformat.write(fill(copy, answers=l00.RIGHT), home / ASSIGNMENT / NOTEBOOK)
        grading.submit(home, ASSIGNMENT, student, course / "exchange", cache=tmp_path / "cache")
    grading.collect(course, ASSIGNMENT)
    report = grading.grade_class(course, ASSIGNMENT, jobs=JOBS)
    print(report)
    assert {g.student: (g.score, g.max_score) for g in report.grades} == {
        "zh-student": (l00.MAX_SCORE, l00.MAX_SCORE), "en-student": (l00.MAX_SCORE, l00.MAX_SCORE)}, str(report)
    graded = nbformat.read(course / "autograded" / "en-student" / ASSIGNMENT / NOTEBOOK, as_version=4)
    shown = "".join(o.get("text", "") for c in graded.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "✓" in shown and any("\u4e00" <= ch <= "\u9fff" for ch in shown), "the judge's checks spoke Chinese"
