"""Lesson 02 graded end to end in the sandbox, with the grade decided outside the student's kernel:
honest submissions in several forms get every point, hostile ones (IPython hooks, patched numpy,
paddle and builtins, lying objects, redefined lesson globals, skip-execution tags, forged reports,
reaching for the course directory, another student, the exchange, the network, a detached child)
get none of the points they did not earn and change nothing outside their sandbox.
"""
import sys
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest

from paddlecourse.teach import grading

sys.path.insert(0, str(Path(__file__).parent))
from submissions import l02  # noqa: E402
from submissions.attacks import DETACHED_MARKER  # noqa: E402
from grading_class import ARTIFACTS, JOBS, digests, hand_in, live_processes, released, sandbox_or_skip  # noqa: E402

ASSIGNMENT, NOTEBOOK = "l02", "02_autograd_by_hand.ipynb"
pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    sandbox_or_skip()
    base = tmp_path_factory.mktemp("l02")
    course, student_copy = released(base, ASSIGNMENT, NOTEBOOK)
    canary = base / "canary"
    specs, expected = l02.hostile(course, course / "exchange", canary)
    hand_in(base, course, ASSIGNMENT, NOTEBOOK, student_copy, specs)
    guarded = [course / "nbgrader_config.py", *sorted((course / "source").rglob("*")),
               *sorted((course / "submitted").rglob("*.ipynb"))]
    before = digests(guarded)
    report = grading.grade_class(course, ASSIGNMENT, jobs=JOBS)
    print(report)
    return course, report, expected, before, guarded, canary


def test_scores(graded):
    _, report, expected, *_ = graded
    assert {g.student: g.score for g in report.grades} == {s: float(v) for s, v in expected.items()}, str(report)
    assert all(g.max_score == l02.MAX_SCORE for g in report.grades)


def test_honest_students_are_not_sent_to_a_hand_check(graded):
    _, report, *_ = graded
    grades = {g.student: g for g in report.grades}
    for student in ["correct", "other_form", "honest_noise_and_copies", "wrong"]:
        assert grades[student].status == "graded", (student, grades[student].status)
    assert any("the last copy was graded" in note for note in grades["honest_noise_and_copies"].notes)


def test_a_cpu_hog_graded_beside_them_changes_no_honest_grade(graded):
    """Each sandbox has a cpu cgroup of one core: a submission whose children spin on every core cannot
    starve the honest submission graded beside it (issue 22: both neighbours once scored 0 of 9)."""
    _, report, *_ = graded
    grades = {g.student: g for g in report.grades}
    students = [g.student for g in report.grades]
    assert students.index("a_cpu_hog") == 0 and students.index("correct") == 1   # graded side by side, first
    assert grades["correct"].score == 9 and grades["correct"].status == "graded", grades["correct"].status
    assert live_processes("while True: pass") == []   # its children ended with its sandbox


def test_answers_that_could_not_be_read_are_listed_for_a_look_not_just_scored(graded):
    _, report, *_ = graded
    stdout = {g.student: g for g in report.grades}["replaces_stdout"]
    assert stdout.needs_look and "could not be read" in stdout.status, stdout.status


def test_nothing_outside_the_sandbox_changed(graded):
    import time

    course, report, _, before, guarded, canary = graded
    after = digests(guarded)
    assert after == before
    assert grading.differences(course) == []
    time.sleep(10)
    assert not canary.exists() and not Path(str(canary) + ".late").exists()
    assert not (course / "exchange" / grading.COURSE_ID / "feedback" / "planted.html").exists()
    assert live_processes(DETACHED_MARKER) == []


def test_manual_scores_nobody_recorded_stop_export_until_the_instructor_trusts_them(graded):
    import sqlite3

    course, *_ = graded
    db = sqlite3.connect(course / "gradebook.db")
    db.execute("UPDATE grade SET manual_score = 3 WHERE id = (SELECT MIN(id) FROM grade)")
    db.commit()
    db.close()
    with pytest.raises(grading.IntegrityError, match="manual score"):
        grading.export_grades(course)
    (course / "nbgrader_config.py").write_text((course / "nbgrader_config.py").read_text() + "\n# edited\n")
    with pytest.raises(grading.IntegrityError, match="nbgrader_config.py changed"):
        grading.generate_feedback(course, ASSIGNMENT, release=False)
    grading.record(course)  # `paddlecourse course trust`: the instructor says these are theirs
    assert grading.export_grades(course).exists()


def test_feedback_shows_no_hidden_test(graded):
    course, *_ = graded
    grading.record(course)
    pages = grading.generate_feedback(course, ASSIGNMENT, release=False)
    assert pages
    for page in pages:
        html = page.read_text(encoding="utf-8")
        for bit in ["BEGIN HIDDEN TESTS", "_reference", "_quiz", "Recomputed without the check functions"]:
            assert bit not in html, (page, bit)


class _ActiveParts(HTMLParser):
    """What a browser would run in a page: script bodies, event-handler attributes and javascript: links."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.active, self._script = [], False

    def handle_starttag(self, tag, attrs):
        self._script = tag == "script"
        for name, value in attrs:
            if name.lower().startswith("on") or (value or "").strip().lower().startswith("javascript:"):
                self.active.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = False

    def handle_data(self, data):
        if self._script:
            self.active.append(f"<script>{data[:200]}")


def test_markup_script_and_escapes_a_submission_carries_are_never_active(graded):
    """The autograded notebook (what formgrader shows) and the feedback page hold none of the injected
    script, handlers or JavaScript outputs active; the instructor's table shows no raw escape byte; an
    honestly pasted picture survives and every student gets feedback."""
    course, report, *_ = graded
    assert "\x1b" not in str(report), "terminal escape bytes reach the instructor's table"
    autograded = nbformat.read(course / "autograded" / "injects_markup" / ASSIGNMENT / NOTEBOOK, as_version=4)
    for cell in autograded.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            assert "application/javascript" not in data, output
            assert "<script" not in str(data.get("text/html", "")).lower(), output
        if cell.cell_type == "markdown":
            parser = _ActiveParts()
            parser.feed(markdown_html(cell.source, cell.get("attachments")))
            assert not parser.active, (cell.source, parser.active)
    pictures = [c for c in autograded.cells if c.cell_type == "markdown" and "attachment:sketch.png" in c.source]
    assert pictures and "sketch.png" in pictures[0].get("attachments", {}), "the pasted picture was dropped"
    grading.record(course)
    pages = grading.generate_feedback(course, ASSIGNMENT, release=False)
    assert not pages.failed, f"no feedback for {pages.failed}"
    assert {p.parent.parent.name for p in pages} >= {"injects_markup", "correct"}
    page = next(p for p in pages if p.parent.parent.name == "injects_markup")
    parser = _ActiveParts()
    parser.feed(page.read_text(encoding="utf-8"))
    injected = [part for part in parser.active if "pc-injected" in part]
    assert not injected, injected


def test_formgrader_shows_the_injecting_submission_with_nothing_active(graded, browser):
    """The instructor's view of the submission, as formgrader serves it (nbgrader's own server extension
    and template, in Debian's Chromium): no injected script runs (each would open an alert), no element
    carries an injected handler, and the honest answers' checks are there."""
    import secrets
    import socket
    import subprocess
    import time
    import urllib.request

    from nbgrader.api import Gradebook


    course, *_ = graded
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id=grading.COURSE_ID) as gradebook:
        submission = gradebook.find_submission_notebook(Path(NOTEBOOK).stem, ASSIGNMENT, "injects_markup").id
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token = secrets.token_hex(16)
    server = subprocess.Popen([sys.executable, "-m", "jupyter", "server", f"--ServerApp.root_dir={course}",
                               "--ip=127.0.0.1", f"--port={port}", "--port-retries=0", "--no-browser",
                               f"--IdentityProvider.token={token}", "--allow-root"],
                              cwd=course, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    context = browser.new_context(viewport={"width": 1366, "height": 850})
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(240):
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        page = context.new_page()
        alerts = []
        page.on("dialog", lambda dialog: (alerts.append(dialog.message), dialog.dismiss()))
        page.goto(f"{base}/formgrader/submissions/{submission}/?token={token}", wait_until="load", timeout=120_000)
        page.wait_for_timeout(2000)   # any script or handler that could run has run
        html, text = page.content(), page.inner_text("body")
        (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
        try:   # the first screen (Chromium cannot capture the whole 30 000 px page); a failed picture hides nothing
            page.screenshot(path=str(ARTIFACTS / "screenshots" / "formgrader-injects-markup.png"), timeout=15_000)
        except Exception as error:
            print(f"screenshot failed: {error}")
    finally:
        context.close()
        server.terminate()
        server.wait(timeout=30)
    # (formgrader hides the student's name; the injected markup shows as text, inert)
    assert 'tracked = {"b", "d", "e"}' in text and "pc-injected-5" in text, "formgrader did not show the submission"
    assert alerts == [], alerts
    parser = _ActiveParts()
    parser.feed(html)
    assert not [part for part in parser.active if "pc-injected" in part], parser.active


def markdown_html(source, attachments=None):
    """A markdown cell as nbconvert renders it (mistune): raw HTML in markdown passes through."""
    from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

    renderer = IPythonRenderer(escape=False, attachments=attachments or {})
    return MarkdownWithMath(renderer=renderer).render(source)
