"""An instructor's mistakes with `paddlecourse course`: each gets one sentence that says what to run, a non-zero
exit, no traceback, and nothing written (no exchange folder made elsewhere, nbgrader never started)."""
import subprocess
import sys

import pytest

from paddlecourse.teach.grading.preflight import id_range

COMMAND = [sys.executable, "-m", "paddlecourse", "course"]


def course(*args, cwd):
    done = subprocess.run([*COMMAND, *args], capture_output=True, text=True, cwd=cwd, timeout=300)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def one_sentence(done):
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1, (done.returncode, done.stdout, done.stderr)
    return lines[0]


@pytest.fixture(scope="module")
def new_course(tmp_path_factory):
    """A course directory as `create --no-generate` leaves it: sources, config, no student versions yet."""
    folder = tmp_path_factory.mktemp("grading") / "course"
    done = course("create", str(folder), "--no-generate", cwd=folder.parent)
    assert done.returncode == 0, done.stderr
    assert "next: cd " in done.stdout and "paddlecourse course generate ASSIGNMENT, then release" in done.stdout
    return folder


@pytest.mark.parametrize("args", [["release", "l00"], ["grade", "l00"], ["collect", "l00"], ["feedback", "l00"],
                                  ["export"], ["trust"], ["sync"], ["generate", "l00"]])
def test_outside_a_course_directory_every_step_says_where_to_run_it(tmp_path, args):
    said = one_sentence(course(*args, cwd=tmp_path))
    assert f"{tmp_path} is not a course directory" in said and "paddlecourse course create DIR" in said
    assert list(tmp_path.iterdir()) == [], "nothing may be written where no course is"


@pytest.mark.parametrize("action", ["release", "grade", "collect", "feedback", "generate"])
def test_an_unknown_assignment_is_named_with_the_ones_there_are(new_course, action):
    said = one_sentence(course(action, "l99", "--dir", str(new_course), cwd=new_course.parent))
    assert said == "l99 is not an assignment: l00–l08."


def test_a_step_without_its_assignment_lists_them(new_course):
    assert one_sentence(course("grade", cwd=new_course)) == "paddlecourse course grade needs an assignment id: l00–l08."


@pytest.mark.parametrize("action, said", [
    ("release", "l00 has no student version yet: run `paddlecourse course generate l00` first."),
    ("grade", "no submission of l00 has been collected yet: run `paddlecourse course collect l00` first"),
    ("feedback", "no submission of l00 has been graded yet: run `paddlecourse course grade l00` first."),
    ("collect", "l00 has not been released yet: run `paddlecourse course release l00` first."),
])
def test_a_step_before_its_time_names_the_step_to_run_first(new_course, action, said):
    assert one_sentence(course(action, "l00", cwd=new_course)).startswith(said)


def test_collecting_when_nobody_has_submitted_says_so(new_course):
    for step in ("generate", "release"):
        assert course(step, "l01", cwd=new_course).returncode == 0
    done = course("collect", "l01", cwd=new_course)
    assert done.returncode == 0, done.stderr
    assert "nobody has submitted l01 yet" in done.stdout


def test_ids_are_shown_as_a_range_when_they_run_on():
    assert id_range(["l00", "l01", "l02"]) == "l00–l02"
    assert id_range(["l00", "l02", "l03"]) == "l00, l02, l03"
