"""`paddlecourse links`: one nbgitpuller link per lesson, and one friendly sentence for bad input."""
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from paddlecourse.author.deploy_links import LinkError, lesson_link, lesson_links, target_folder
from paddlecourse.lesson_index import lesson_paths

ROOT = Path(__file__).resolve().parents[2]
LESSONS = [p.name for p in lesson_paths(ROOT / "lessons")]


def cli(*args):
    return subprocess.run([sys.executable, "-m", "paddlecourse", "links", *args], capture_output=True, text=True,
                          cwd=ROOT)


def test_one_link_per_lesson_in_course_order():
    result = cli("--repo", "https://github.com/someone/paddlecourse", "--branch", "main", "--hub", "https://hub.example")
    assert result.returncode == 0, result.stderr
    links = result.stdout.split()
    assert len(links) == len(LESSONS) >= 9
    for lesson, link in zip(LESSONS, links):
        parts = urlsplit(link)
        assert (parts.scheme, parts.netloc, parts.path) == ("https", "hub.example", "/hub/user-redirect/git-pull")
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        assert query == {
            "repo": "https://github.com/someone/paddlecourse",
            "branch": "main",
            "targetpath": "paddlecourse",
            "urlpath": f"lab/tree/paddlecourse/lessons/{lesson}",
        }


def test_the_chinese_links_open_the_chinese_copies():
    result = cli("--repo", "https://github.com/someone/paddlecourse", "--hub", "https://hub.example", "--lang", "zh")
    assert result.returncode == 0, result.stderr
    paths = [parse_qs(urlsplit(link).query)["urlpath"][0] for link in result.stdout.split()]
    assert paths == [f"lab/tree/paddlecourse/lessons/zh/{lesson}" for lesson in LESSONS]
    assert all((ROOT / "lessons" / "zh" / lesson).is_file() for lesson in LESSONS)
    badge = cli("--binder", "--repo", "https://github.com/someone/paddlecourse", "--lang", "zh")
    assert "urlpath=lab/tree/lessons/zh/00_setup_and_first_run.ipynb" in badge.stdout, badge.stdout + badge.stderr


def test_the_clone_folder_drops_a_trailing_dot_git():
    assert target_folder("https://gitlab.example/a/course.git") == "course"
    assert target_folder("file:///srv/git/paddlecourse.git/") == "paddlecourse"
    link = lesson_link("https://hub.example/", "https://gitlab.example/a/course.git", "dev", "00_x.ipynb")
    assert "targetpath=course&urlpath=lab%2Ftree%2Fcourse%2Flessons%2F00_x.ipynb" in link
    assert link.startswith("https://hub.example/hub/")  # no doubled slash


def test_names_option_pairs_each_link_with_its_lesson():
    result = cli("--repo", "https://github.com/someone/paddlecourse", "--hub", "https://hub.example", "--names")
    first = result.stdout.splitlines()[0].split("\t")
    assert first[0] == LESSONS[0] and "branch=main" in first[1]


@pytest.mark.parametrize("args, words", [
    (["--repo", "https://github.com/a/b", "--hub", "hub.example"], "is not a web address"),
    (["--repo", "", "--hub", "https://hub.example"], "names no repository"),
    (["--repo", "https://github.com/a/b", "--hub", "https://hub.example", "--branch", ""], "--branch is empty"),
    (["--repo", "https://github.com/a/b", "--hub", "https://hub.example", "--lessons", "/nonexistent"], "no lessons found"),
])
def test_bad_input_gets_one_sentence_not_a_traceback(args, words):
    result = cli(*args)
    assert result.returncode == 2
    assert words in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_library_raises_link_error():
    with pytest.raises(LinkError):
        lesson_links("ftp://hub", "https://github.com/a/b")


@pytest.mark.parametrize("remote, expected", [
    ("https://github.com/someone/paddlecourse.git", "https://mybinder.org/v2/gh/someone/paddlecourse/main"),
    ("git@github.com:someone/paddlecourse.git", "https://mybinder.org/v2/gh/someone/paddlecourse/main"),
    ("https://gitlab.com/group/paddlecourse", "https://mybinder.org/v2/gl/group%2Fpaddlecourse/main"),
    ("https://git.example.org/c/paddlecourse.git", "https://mybinder.org/v2/git/https%3A%2F%2Fgit.example.org%2Fc%2Fpaddlecourse.git/main"),
])
def test_the_binder_badge_is_built_from_the_remote(remote, expected):
    from paddlecourse.author.deploy_links import binder_badge

    badge = binder_badge(remote, "main")
    assert badge.startswith("[![Binder](https://mybinder.org/badge_logo.svg)](")
    assert f"({expected}?urlpath=lab/tree/lessons/00_setup_and_first_run.ipynb)" in badge


def test_links_come_from_the_public_address_or_say_how_to_set_it(tmp_path):
    result = cli("--binder", "--repo", "https://github.com/someone/paddlecourse", "--branch", "HEAD")
    assert result.stdout.strip().endswith("/v2/gh/someone/paddlecourse/HEAD?urlpath=lab/tree/lessons/00_setup_and_first_run.ipynb)")
    from paddlecourse.author.deploy_links import public_repository

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert public_repository(tmp_path) is None
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n[project.urls]\n'
                                              'Repository = "https://github.com/someone/paddlecourse"\n')
    assert public_repository(tmp_path) == "https://github.com/someone/paddlecourse"
    if public_repository() is None:   # this checkout: no address yet, so the command says where to write one
        said = cli("--binder").stderr.strip()
        assert "Repository under [project.urls] in pyproject.toml" in said and "Traceback" not in said
    assert "needs --hub URL" in cli("--repo", "https://github.com/someone/paddlecourse", "--branch", "main").stderr


def test_colab_and_kaggle_open_a_lesson_from_github_and_nowhere_else():
    from paddlecourse.author.deploy_links import colab_url, install_spec, kaggle_url

    lesson = "lessons/zh/02_autograd_by_hand.ipynb"
    for remote in ("https://github.com/someone/paddlecourse", "git@github.com:someone/paddlecourse.git"):
        assert colab_url(remote, "main", lesson) == (
            "https://colab.research.google.com/github/someone/paddlecourse/blob/main/" + lesson)
        assert kaggle_url(remote, "main", lesson) == (
            "https://kaggle.com/kernels/welcome?src=https://github.com/someone/paddlecourse/blob/main/" + lesson)
    assert colab_url("https://gitlab.com/someone/paddlecourse") is None
    assert kaggle_url("https://git.example.org/c/paddlecourse.git") is None
    assert install_spec("git@github.com:someone/paddlecourse.git") == (
        "paddlecourse @ git+https://github.com/someone/paddlecourse.git")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_readmes_launch_paragraph_offers_binder_colab_and_kaggle_or_tells_the_reader_where_else(lang):
    from paddlecourse.author.readme_links import launch_paragraph

    github = launch_paragraph(lang, "https://github.com/someone/paddlecourse", "main")
    lesson = "lessons/00_setup_and_first_run.ipynb" if lang == "en" else "lessons/zh/00_setup_and_first_run.ipynb"
    assert f"https://colab.research.google.com/github/someone/paddlecourse/blob/main/{lesson})" in github
    assert f"https://kaggle.com/kernels/welcome?src=https://github.com/someone/paddlecourse/blob/main/{lesson})" in github
    assert "mybinder.org/v2/gh/someone/paddlecourse" in github
    assert '%pip install "paddlecourse @ git+https://github.com/someone/paddlecourse"' in github
    elsewhere = launch_paragraph(lang, "https://git.example.org/c/paddlecourse.git", "main")
    assert "mybinder.org" in elsewhere and "colab" not in elsewhere.lower() and "kaggle" not in elsewhere.lower()
    unset = launch_paragraph(lang, None)
    assert "](" not in unset, "no badge that leads nowhere"
    assert "pyproject" not in unset and "Colab" in unset, "it speaks to the reader, and says where else to go"
