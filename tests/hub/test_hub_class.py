"""A class of three on a real JupyterHub, end to end, in Debian's Chromium.

deploy/jupyterhub_config.py runs on 127.0.0.1 with configurable-http-proxy (from npm),
PAM logins for real Unix accounts, LocalProcessSpawner and the idle culler. One instructor
and three students log in through the hub's login page (a wrong password is refused
first). Each student opens lesson 00 through an nbgitpuller link (cloned from a local bare
copy of this checkout: no network) in the course kernel, the first runs it all, each fetches l00 from the
Assignments list, answers (right, wrong, blank) and submits. The instructor collects,
grades with `paddlecourse course grade` and releases feedback; each student fetches
feedback from the Assignments list. Asserted: the scores; that Formgrader is there for the
instructor only; that students cannot read each other's homes, submissions or feedback, nor
the instructor's source/ and gradebook.

Needs root (accounts, and a hub that starts servers as them). Everything it makes -
accounts, homes, processes, the hub and its proxy, the temporary folder - it removes,
so a second run starts clean. Takes about 3-5 minutes on 2 busy cores.
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # system_parts, submissions
sys.path.insert(0, str(HERE.parent / "browser"))  # lab.py: the notebook-driving helpers
import hubctl  # noqa: E402
from lab import (IDLE, PANEL, SCREENSHOTS, cell_outputs_text, error_outputs, open_in_running_lab,  # noqa: E402
                 run_all_cells)
from submissions import l00  # noqa: E402
from system_parts import require_system_part  # noqa: E402

pytestmark = [pytest.mark.timeout(1500), pytest.mark.hub]

REPO = hubctl.REPO
PYTHON = None  # the course environment's python, set by the `site` fixture
INSTRUCTOR = "pchub-teacher"
OUTSIDER = "pchub-outsider"  # a Unix account in neither course group
ANSWERS = {"pchub-ana": l00.RIGHT, "pchub-ben": l00.WRONG, "pchub-cleo": {}}
EXPECTED = {"pchub-ana": l00.EXPECTED["correct"], "pchub-ben": l00.EXPECTED["wrong"], "pchub-cleo": l00.EXPECTED["blank"]}
STUDENTS = list(ANSWERS)
LESSON = "00_setup_and_first_run.ipynb"
PROSE_MENTIONS = sum(cell.source.count("NotImplementedError")
                     for cell in nbformat.read(REPO / "lessons" / LESSON, as_version=4).cells if cell.cell_type == "markdown")
KERNEL = "Python 3 (paddlecourse)"
SPAWN_TIMEOUT = 150_000  # ms: login, then a server that imports JupyterLab, on a busy machine
KERNEL_TIMEOUT = 120_000  # ms: a kernel that imports Paddle, next to two other learners


def screenshot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    try:
        page.screenshot(path=str(SCREENSHOTS / f"hub-{name}.png"), full_page=True, timeout=15_000)
    except Exception as error:  # a failed picture must not hide the test's own result
        print(f"screenshot {name} failed: {error}")


def as_user(user, *command, check=True):
    assert PYTHON, "the course environment is made by the site fixture"
    """Run a command as `user`, importing this checkout's paddlecourse."""
    return hubctl.run(*command, user=user, check=check, env=[
        f"PYTHONPATH={REPO}", "GLOG_minloglevel=2", f"LD_LIBRARY_PATH={hubctl.library_path(Path(PYTHON).parent.parent)}",
        f"PATH={Path(PYTHON).parent}:/usr/local/bin:/usr/bin:/bin"])


def course(*args):
    """`paddlecourse course ...` run by the instructor, in their course directory."""
    return as_user(INSTRUCTOR, PYTHON, "-m", "paddlecourse", "course", *args,
                   "--dir", f"/home/{INSTRUCTOR}/paddle-grading").stdout


PROBE = r"""
import json, os, sys
out = {}
for path in sys.argv[1:]:
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            open(path, "rb").read(1)
        out[path] = "read"
    except OSError as error:
        out[path] = type(error).__name__
print(json.dumps(out))
"""


def can_read(user, paths):
    """{path: "read" or the error} for `user` trying to list or read each path."""
    return json.loads(hubctl.run("/usr/bin/python3", "-c", PROBE, *map(str, paths), user=user).stdout)


def log_in(page, hub, user, password):
    page.goto(f"{hub.url}/hub/login")
    page.fill("input#username_input", user)
    page.fill("input#password_input", password)
    page.click("#login_submit")


def wait_for_lab(page, user):
    page.wait_for_url(re.compile(rf"/user/{user}/lab"), timeout=SPAWN_TIMEOUT)
    page.locator("#jp-main-dock-panel").wait_for(timeout=SPAWN_TIMEOUT)


def wait_for_notebook(page):
    """The visible notebook's kernel is the course kernel and idle."""
    panel = page.locator(PANEL)
    kernel = page.locator(".jp-KernelName").get_by_text(KERNEL, exact=True)
    panel.locator(".jp-NotebookPanel-toolbar").filter(has=page.locator(IDLE)).filter(has=kernel).wait_for(
        timeout=KERNEL_TIMEOUT)


def open_assignment_list(page):
    page.get_by_role("menubar").get_by_role("menuitem", name="Nbgrader", exact=True).click()
    page.locator(".lm-Menu").get_by_role("menuitem", name="Assignment List", exact=True).click()
    page.locator("#released_assignments_list").wait_for(timeout=30_000)


def has_command(page, command):
    return page.evaluate("c => window.jupyterapp.commands.hasCommand(c)", command)


FILL_AND_SAVE = """async answers => {
  const panel = [...window.jupyterapp.shell.widgets('main')].find(w => w.isVisible && w.content?.model);
  for (const cell of panel.content.model.cells) {
    const id = cell.getMetadata('nbgrader')?.grade_id;
    if (id in answers) cell.sharedModel.setSource(answers[id]);
  }
  await window.jupyterapp.commands.execute('docmanager:save');
  return panel.context.path;
}"""


@pytest.fixture(scope="module")
def site():
    """Accounts, a bare clone of this checkout, an exchange, and the hub running on loopback."""
    if os.geteuid() != 0:
        message = "the hub test needs root: it creates Unix accounts and starts servers as them"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    proxy = require_system_part("configurable-http-proxy", "configurable-http-proxy",
                                "bash tools/system-parts.sh (npm install -g configurable-http-proxy)")
    started = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="pchub-"))
    tmp.chmod(0o755)
    names = [INSTRUCTOR, *STUDENTS, OUTSIDER]
    hub = None
    try:
        passwords = hubctl.create_accounts([INSTRUCTOR], STUDENTS)
        hubctl.run("useradd", "--create-home", OUTSIDER)
        passwords[OUTSIDER] = "outsider-" + passwords[STUDENTS[0]]
        subprocess.run(["chpasswd"], input=f"{OUTSIDER}:{passwords[OUTSIDER]}\n", text=True, check=True)
        global PYTHON
        PYTHON = str(hubctl.course_environment(tmp / "env"))
        # the course repository learners pull from: this checkout's HEAD, as branch `course`
        bare = tmp / "paddlecourse.git"
        subprocess.run(["git", "clone", "--quiet", "--bare", str(REPO), str(bare)], check=True)
        head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        subprocess.run(["git", "-C", str(bare), "update-ref", "refs/heads/course", head], check=True)
        gitconfig = tmp / "gitconfig"
        gitconfig.write_text(f"[safe]\n\tdirectory = {bare}\n")
        gitconfig.chmod(0o644)
        # the shared exchange, as deploy/install.sh makes it: anyone may write, the sticky bit
        # keeps each one's entries their own; nbgrader sets the course folders' modes itself
        exchange = tmp / "exchange"
        exchange.mkdir()
        exchange.chmod(0o1777)

        as_user(INSTRUCTOR, PYTHON, "-m", "paddlecourse", "course", "create", f"/home/{INSTRUCTOR}/paddle-grading",
                "--exchange", str(exchange), "--no-generate")
        course("generate", "l00")
        course("release", "l00")

        hub = hubctl.Hub(tmp / "state", exchange, prefix=tmp / "env", server_args=[
            "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ], extra_env={
            "PYTHONPATH": str(REPO),  # this checkout's paddlecourse, for the course kernel
            "LD_LIBRARY_PATH": hubctl.library_path(tmp / "env"),
            # the bare clone is root's: git serves another owner's repository only when its
            # system or global config says safe.directory (command-line config does not reach
            # upload-pack), so this run's system config says it for that one path
            "GIT_CONFIG_SYSTEM": str(gitconfig),
        })
        hub.env["PATH"] = f"{Path(proxy).parent}:{hub.env['PATH']}"
        hub.start()
        yield {"hub": hub, "passwords": passwords, "bare": bare, "exchange": exchange, "tmp": tmp,
               "started": started}
    finally:
        if hub:
            hub.stop()
            print(hub.log_text()[-3000:])
        hubctl.remove_accounts(names)
        shutil.rmtree(tmp, ignore_errors=True)
        print(f"hub class test: {time.monotonic() - started:.0f} s from accounts to clean-up")


@pytest.fixture(scope="module")
def class_run(site, browser):
    """The whole class, in order; every outcome the tests assert is recorded here."""
    hub, passwords = site["hub"], site["passwords"]
    seen = {"wrong_password": None, "lesson": {}, "opened": {}, "formgrader": {}, "feedback": {}, "timings": {}}
    pages = {}
    link = subprocess.run(
        [sys.executable, "-m", "paddlecourse", "links", "--repo", f"file://{site['bare']}", "--branch", "course",
         "--hub", hub.url], capture_output=True, text=True, check=True, env=dict(os.environ, PYTHONPATH=str(REPO)),
    ).stdout.split()[0]
    assert LESSON in link

    # a wrong password is refused, on the real login page
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    log_in(page, hub, STUDENTS[0], passwords[STUDENTS[0]] + "-not")
    page.get_by_text("Invalid username or password").wait_for(timeout=30_000)
    seen["wrong_password"] = (page.url, page.locator("#login-main").inner_text())
    screenshot(page, "wrong-password")
    # and so is a real account with its right password, when it is in neither course group
    log_in(page, hub, OUTSIDER, passwords[OUTSIDER])
    page.get_by_text("Invalid username or password").wait_for(timeout=30_000)
    seen["outsider"] = page.url
    context.close()

    for student in STUDENTS:
        began = time.monotonic()
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = pages[student] = context.new_page()
        log_in(page, hub, student, passwords[student])
        # logged in and their server up; the link is followed at once, without drawing Lab twice
        page.wait_for_url(re.compile(rf"/user/{student}/lab"), timeout=SPAWN_TIMEOUT)
        # the lesson through its nbgitpuller link: cloned into ~/paddlecourse, opened in Lab
        page.goto(link)
        page.wait_for_url(re.compile(rf"/user/{student}/lab/tree/paddlecourse/lessons/{LESSON}"), timeout=120_000)
        wait_for_notebook(page)
        seen["formgrader"][student] = has_command(page, "nbgrader:open-formgrader")
        if student == STUDENTS[0]:   # one run of the lesson proves the pulled copy works in the course kernel;
            run_all_cells(page)      # three cost a minute more and prove nothing the grading below does not
            seen["lesson"][student] = (error_outputs(page), "\n".join(cell_outputs_text(page)))
        seen["opened"][student] = page.evaluate(  # cells in the open notebook's model (Lab may not draw them all)
            "() => [...window.jupyterapp.shell.widgets('main')].find(w => w.isVisible && w.content?.model)"
            ".content.model.cells.length")
        screenshot(page, f"{student}-lesson00")

        # fetch l00 from the Assignments list, answer, submit
        open_assignment_list(page)
        released = page.locator("#released_assignments_list")
        released.get_by_role("button", name="Fetch").click()
        fetched = page.locator("#fetched_assignments_list")
        fetched.get_by_role("button", name="Submit").wait_for(timeout=60_000)
        # opened in the running Lab, as a learner double-clicks it (a fresh page load of Lab costs its
        # browser about 5 s of CPU, and the lesson's tab may stay open beside it)
        open_in_running_lab(page, f"l00/{LESSON}", timeout=60_000)
        wait_for_notebook(page)
        # the answers are run where they are judged, by `course grade` below, in the same course environment
        # (a second Run All here cost the browser lane about 25 s and proved what the scores prove)
        saved = page.evaluate(FILL_AND_SAVE, ANSWERS[student])
        assert saved == f"l00/{LESSON}"
        open_assignment_list(page)
        page.locator("#fetched_assignments_list").get_by_role("button", name="Submit").click()
        page.locator("#submitted_assignments_list").get_by_text("l00").first.wait_for(timeout=60_000)
        screenshot(page, f"{student}-submitted")
        seen["timings"][student] = round(time.monotonic() - began, 1)

    # the instructor: Formgrader is theirs; they collect, grade and release feedback from a shell
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = pages[INSTRUCTOR] = context.new_page()
    log_in(page, hub, INSTRUCTOR, passwords[INSTRUCTOR])
    wait_for_lab(page, INSTRUCTOR)
    seen["formgrader"][INSTRUCTOR] = has_command(page, "nbgrader:open-formgrader")
    screenshot(page, "instructor-lab")

    # what a student can see while the submissions wait in the exchange
    inbound = site["exchange"] / "paddlecourse" / "inbound"
    submissions = {s: next(inbound.glob(f"{s}+l00+*")) for s in STUDENTS}
    seen["inbound_names"] = {s: p.name for s, p in submissions.items()}
    seen["probe_waiting"] = can_read(STUDENTS[0], [inbound, f"/home/{STUDENTS[1]}",
                                                   f"/home/{STUDENTS[1]}/l00/{LESSON}"])

    seen["collect"] = course("collect", "l00")
    seen["grade"] = course("grade", "l00")
    seen["export"] = course("export", "--to", f"/home/{INSTRUCTOR}/paddle-grading/grades.csv")
    with open(f"/home/{INSTRUCTOR}/paddle-grading/grades.csv") as table:
        seen["scores"] = {row["student_id"]: float(row["score"]) for row in csv.DictReader(table)
                          if row["assignment"] == "l00"}
    seen["feedback_cli"] = course("feedback", "l00")

    for student in STUDENTS:
        page = pages[student]
        open_assignment_list(page)
        page.locator("#submitted_assignments_list").get_by_role("button", name="Fetch Feedback").first.click()
        deadline = time.monotonic() + 60
        home = Path(f"/home/{student}")
        while not list(home.glob("l00/feedback/*/*.html")) and time.monotonic() < deadline:
            time.sleep(1)
        seen["feedback"][student] = {p.relative_to(home).as_posix(): p.read_text() for p in
                                     home.glob("l00/feedback/*/*.html")}
        screenshot(page, f"{student}-feedback")

    feedback = site["exchange"] / "paddlecourse" / "feedback"
    ana, ben = STUDENTS[0], STUDENTS[1]
    seen["probe_after"] = can_read(ana, [
        f"/home/{ben}", f"/home/{ben}/l00/feedback", inbound, feedback,
        f"/home/{INSTRUCTOR}/paddle-grading/source", f"/home/{INSTRUCTOR}/paddle-grading/gradebook.db",
        f"/home/{INSTRUCTOR}/paddle-grading/submitted", f"/home/{INSTRUCTOR}",
    ])
    seen["feedback_files"] = sorted(p.name for p in feedback.iterdir())
    seen["modes"] = {name: oct((site["exchange"] / "paddlecourse" / name).stat().st_mode & 0o7777)
                     for name in ("inbound", "outbound", "feedback")}
    for page in pages.values():
        page.context.close()
    print(json.dumps(seen["timings"]), seen["grade"])
    return seen


def test_a_wrong_password_is_refused(class_run):
    url, text = class_run["wrong_password"]
    assert "/hub/login" in url and "/user/" not in url, url
    assert "Invalid username or password" in text


def test_an_account_outside_the_course_groups_is_refused(class_run):
    assert "/hub/login" in class_run["outsider"] and "/user/" not in class_run["outsider"]


def test_each_student_opened_lesson_00_from_its_nbgitpuller_link_and_the_first_ran_it(class_run):
    cells = len(nbformat.read(REPO / "lessons" / LESSON, as_version=4).cells)
    assert class_run["opened"] == {s: cells for s in STUDENTS}, class_run["opened"]
    assert list(class_run["lesson"]) == [STUDENTS[0]]
    for student, (errors, text) in class_run["lesson"].items():
        assert "All five checks passed." in text, student
        # Run All stops at the first exercise, still blank in the student copy: that is its only error
        assert len(errors) == 1 and "NotImplementedError" in errors[0], (student, errors)


def test_formgrader_is_the_instructors_only(class_run):
    assert class_run["formgrader"] == {INSTRUCTOR: True, **{s: False for s in STUDENTS}}


def test_the_class_is_graded_with_the_points_each_earned(class_run):
    assert class_run["scores"] == {s: float(EXPECTED[s]) for s in STUDENTS}, class_run["grade"]
    for student in STUDENTS:
        assert student in class_run["grade"]


def test_each_student_fetched_only_their_own_feedback(class_run):
    for student, pages in class_run["feedback"].items():
        assert len(pages) == 1, (student, list(pages))
        html = next(iter(pages.values()))
        assert f"(Score: {float(EXPECTED[student])} / {float(l00.MAX_SCORE)})" in html, student
        assert "BEGIN HIDDEN TESTS" not in html
        # the blank copy's answer cells still raise NotImplementedError; the answered ones do not
        # (the lesson's prose names it too, so count only what goes beyond the prose)
        assert (html.count("NotImplementedError") > PROSE_MENTIONS) == (student == "pchub-cleo"), student
    assert len(class_run["feedback_files"]) == len(STUDENTS)


def test_students_cannot_read_each_other_nor_the_instructors_files(class_run):
    waiting, after = class_run["probe_waiting"], class_run["probe_after"]
    assert all(result != "read" for result in waiting.values()), waiting
    assert all(result != "read" for result in after.values()), after
    # a submission's folder name ends in a random part, so it cannot be guessed either
    for student, name in class_run["inbound_names"].items():
        assert re.fullmatch(rf"{student}\+l00\+[^+]+\+[\w=-]{{12}}", name), name


def test_the_exchange_folders_have_nbgraders_modes(class_run):
    # inbound and feedback: writable/enterable, not listable, by students
    assert class_run["modes"]["inbound"].endswith("733"), class_run["modes"]
    assert class_run["modes"]["feedback"].endswith("711"), class_run["modes"]
