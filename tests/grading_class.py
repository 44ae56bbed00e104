"""What every end-to-end grading test shares: a course directory with one lesson released, a class of
made-up students who hand in through nbgrader's exchange, and the checks around them (the sandbox is
there; nothing outside it changed; no process outlived it).

Used by test_nbgrader_e2e.py (lesson 00), test_grading_l02.py, _l06.py, _l08.py and _editions.py.
"""
import hashlib
import os
from pathlib import Path

import nbformat
import pytest

from paddlecourse.teach import grading
from paddlecourse.settings import setting

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
# how many submissions each class test grades at once: 2 in `make test`; PADDLECOURSE_GRADING_JOBS=1 runs the
# same classes one at a time (every honest submission must earn the same score at either, quiet or loaded)
JOBS = int(setting("PADDLECOURSE_GRADING_JOBS"))


def sandbox_or_skip():
    from paddlecourse.teach.grading import sandbox

    if not sandbox.available():
        reason = "SYSTEM PART MISSING: bubblewrap (`bwrap`) cannot sandbox here. Install it: apt-get install bubblewrap"
        if os.environ.get("CI") == "true":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)


def fill(student_copy, answers, delete=(), replace=None, tags=None, duplicate=None, extra=(), **_):
    """A submission: the student version with answer cells filled, cells deleted, edited, tagged
    or copy-pasted (``duplicate``: grade id -> source of an earlier copy, None for the same), and
    scratch cells added at the end (``extra``: code as text, or whole cells as dicts)."""
    notebook = nbformat.from_dict(student_copy)
    replace, tags, duplicate = replace or {}, tags or {}, duplicate or {}
    kept = []
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in delete:
            continue
        if grade_id in answers:
            cell.source = answers[grade_id]
        if grade_id in replace:
            cell.source = replace[grade_id]
        if grade_id in tags:
            cell.metadata["tags"] = list(tags[grade_id])
        if grade_id in duplicate:
            copy = nbformat.from_dict(cell)
            copy.id = cell.id + "c"
            if duplicate[grade_id] is not None:
                copy.source = duplicate[grade_id]
            kept.append(copy)
        kept.append(cell)
    kept += [nbformat.from_dict(cell) if isinstance(cell, dict) else nbformat.v4.new_code_cell(cell) for cell in extra]
    notebook.cells = kept
    return notebook


def released(base, assignment, notebook):
    """A course directory under ``base`` (its integrity record too) with ``assignment`` generated and
    released; returns (course, the student copy as the exchange holds it)."""
    os.environ["PADDLECOURSE_STATE_DIR"] = str(base / "state")   # the integrity record, outside the course
    course = base / "course"
    grading.create_course(course, generate=False)   # only this lesson is generated, to save time
    grading.generate_assignment(course, assignment)
    grading.release_assignment(course, assignment)
    path = course / "exchange" / grading.COURSE_ID / "outbound" / assignment / notebook
    assert "BEGIN HIDDEN TESTS" not in path.read_text()
    return course, nbformat.read(path, as_version=4)


def hand_in(base, course, assignment, notebook, student_copy, specs, after_submit=None):
    """Each student of ``specs`` ({student: fill() arguments, or {"raw": bytes}}) submits with nbgrader's
    ExchangeSubmit (what `nbgrader submit` runs); ``after_submit(student, spec)`` may then tamper with the
    exchange; the instructor collects."""
    for student, spec in specs.items():
        home = base / "students" / student
        (home / assignment).mkdir(parents=True)
        if "raw" in spec:
            (home / assignment / notebook).write_bytes(spec["raw"])
        else:
            nbformat.write(fill(student_copy, **spec), home / assignment / notebook)
        grading.submit(home, assignment, student, course / "exchange", cache=base / "cache")
        if after_submit:
            after_submit(student, spec)
    grading.collect(course, assignment)
    assert grading.submitted_students(course, assignment) == sorted(specs)


def digests(paths):
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths if p.is_file()}


def live_processes(marker):
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if marker.encode() in (proc / "cmdline").read_bytes():
                found.append(proc.name)
        except OSError:
            pass
    return found
