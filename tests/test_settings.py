"""Settings in one list: every PADDLECOURSE_* variable is read through paddlecourse/settings.py, is listed there
with its default and meaning, and instructors/settings.md shows that list as the build writes it."""
import re
from pathlib import Path

import pytest

from paddlecourse.author.settings_page import stale_pages
from paddlecourse.settings import SETTINGS, setting

ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(r"PADDLECOURSE_[A-Z0-9_]*[A-Z0-9]")
# a read of the environment that bypasses setting(): os.environ.get("PADDLECOURSE_X"), os.getenv(...),
# os.environ["PADDLECOURSE_X"] not followed by an assignment
OWN_READ = re.compile(r"""(?:environ\.get|getenv)\(\s*["']PADDLECOURSE_|environ\[\s*["']PADDLECOURSE_\w+["']\s*\](?!\s*=[^=])""")
# code that reads settings; tests set and restore them, and read their own through setting() too
READERS = ["paddlecourse", "deploy", "tools", "benchmarks", "binder"]
# names that are not settings: a secret the sandbox test plants in the grader's environment to prove that no
# submission sees it, and the prefix the hub's config and its tests speak of as a family
NOT_SETTINGS = {"PADDLECOURSE_GRADER_CANARY", "PADDLECOURSE_HUB"}


def sources(folders, suffixes=(".py", ".sh")):
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and (path.suffix in suffixes or path.name in ("postBuild", "start")) \
                    and "__pycache__" not in path.parts:
                yield path


def test_no_module_reads_a_setting_on_its_own():
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in sources(READERS) if path.name != "settings.py" or path.parent.name != "paddlecourse"
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if OWN_READ.search(line)]
    assert not found, "read these through paddlecourse.settings.setting():\n" + "\n".join(found)


def test_every_variable_the_course_speaks_of_is_listed():
    texts = [*sources(READERS + ["tests"]), ROOT / "conftest.py", ROOT / "Makefile", *ROOT.glob("*.md"),
             *(ROOT / "instructors").glob("*.md")]
    mentioned = {name for path in texts if path != Path(__file__).resolve()
                 for name in NAME.findall(path.read_text(encoding="utf-8"))}
    unknown = sorted(mentioned - set(SETTINGS) - NOT_SETTINGS)
    assert not unknown, f"add these to paddlecourse/settings.py (name, default, who, meaning): {unknown}"
    unused = sorted(set(SETTINGS) - mentioned)
    assert not unused, f"listed but read nowhere: {unused}"


def test_shell_scripts_fall_back_to_the_listed_defaults():
    for path in sources(["deploy", "binder", "tools"], suffixes=(".sh",)):
        for name, default in re.findall(r"\$\{(PADDLECOURSE_\w+):-([^}]*)\}", path.read_text(encoding="utf-8")):
            assert default == SETTINGS[name].default, f"{path.name}: {name} defaults to {default!r}, the list says " \
                                                      f"{SETTINGS[name].default!r}"


def test_an_empty_value_gives_the_default_back(monkeypatch):
    monkeypatch.setenv("PADDLECOURSE_CATCHUP", "")
    assert setting("PADDLECOURSE_CATCHUP") == "on"
    monkeypatch.setenv("PADDLECOURSE_CATCHUP", "off")
    assert setting("PADDLECOURSE_CATCHUP") == "off"
    with pytest.raises(KeyError):
        setting("PADDLECOURSE_NOT_A_SETTING")


def test_every_setting_says_who_sets_it_and_what_it_does_in_both_languages():
    for item in SETTINGS.values():
        assert item.who in {"learner", "instructor", "hub", "tests"}, item.name
        assert item.meaning.strip() and item.meaning_zh.strip(), item.name


def test_the_settings_pages_are_what_the_build_writes():
    assert not stale_pages(), "run `paddlecourse build`: instructors/settings.md is out of date"
