"""`paddlecourse lessons DIR`: the student copies out of the installed package, never over a learner's work."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from paddlecourse.lesson_copies import PLAIN_KERNEL, LessonCopyError, edition, write_lessons

ROOT = Path(__file__).resolve().parents[1]
COMMAND = [sys.executable, "-m", "paddlecourse", "lessons"]


def run(*args, cwd):
    done = subprocess.run([*COMMAND, *args], capture_output=True, text=True, cwd=cwd)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


@pytest.mark.parametrize("lang, folder", [("en", ROOT / "lessons"), ("zh", ROOT / "lessons" / "zh")])
def test_each_edition_is_every_student_copy_of_that_language(lang, folder):
    assert [p.name for p in edition(lang)] == sorted(p.name for p in folder.glob("*.ipynb"))


def test_the_lessons_are_written_once_and_say_how_to_open_them(tmp_path):
    done = run(str(tmp_path / "course"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    names = sorted(p.name for p in (tmp_path / "course").iterdir())
    assert names == sorted(p.name for p in (ROOT / "lessons").glob("*.ipynb"))
    assert f"Wrote {len(names)} lessons to" in done.stdout
    assert "jupyter lab" in done.stdout and "00_setup_and_first_run.ipynb" in done.stdout
    written = json.loads((tmp_path / "course" / "02_autograd_by_hand.ipynb").read_text())
    source = json.loads((ROOT / "lessons" / "02_autograd_by_hand.ipynb").read_text())
    assert written["cells"] == source["cells"], "the student copy travels as it is, cells and outputs"
    again = run(str(tmp_path / "course"), cwd=tmp_path)
    assert again.returncode == 0 and f"{len(names)} lessons were there already, unchanged." in again.stdout


def test_a_learners_edited_lesson_is_kept_byte_for_byte(tmp_path):
    course = tmp_path / "course"
    run(str(course), cwd=tmp_path)
    mine = course / "03_dynamic_training_loop.ipynb"
    mine.write_text(mine.read_text().replace("NotImplementedError", "my answer"), encoding="utf-8")
    before = mine.read_bytes()
    (course / "01_two_ways_to_cook.ipynb").unlink()   # one lesson lost: it comes back
    done = run(str(course), cwd=tmp_path)
    assert mine.read_bytes() == before
    assert (course / "01_two_ways_to_cook.ipynb").exists()
    assert done.returncode == 1
    assert "Kept your own 03_dynamic_training_loop.ipynb: it differs from the course's copy" in done.stdout
    assert "Wrote 1 lesson to" in done.stdout


def test_the_chinese_edition(tmp_path):
    done = run(str(tmp_path / "zh"), "--lang", "zh", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    first = json.loads((tmp_path / "zh" / "00_setup_and_first_run.ipynb").read_text())
    assert first["cells"] == json.loads((ROOT / "lessons" / "zh" / "00_setup_and_first_run.ipynb").read_text())["cells"]


@pytest.mark.parametrize("args, said", [
    (["--lang", "fr"], "The course has no 'fr' edition: use --lang en or --lang zh."),
    (["afile"], "afile is a file, not a folder: name a folder for the lessons."),
    (["/sys/paddlecourse-lessons"], "paddlecourse cannot write in /sys/paddlecourse-lessons (permission denied)"),
], ids=["unknown language", "a file", "no write permission"])
def test_bad_input_gets_one_sentence_and_writes_nothing(tmp_path, args, said):
    (tmp_path / "afile").write_text("mine")
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"] and (tmp_path / "afile").read_text() == "mine"


def test_without_the_course_kernel_the_copies_open_on_the_plain_python3_kernel(tmp_path):
    write_lessons(tmp_path, kernelspec=PLAIN_KERNEL)
    spec = json.loads((tmp_path / "05_dual_mode_mlp.ipynb").read_text())["metadata"]["kernelspec"]
    assert spec["name"] == "python3"


def test_an_unknown_language_raises_the_courses_error():
    with pytest.raises(LessonCopyError, match="no 'de' edition"):
        edition("de")
