"""Every lesson's first code cell is the one the build writes (paddlecourse/author/first_cell.py): on a kernel
without the course it says in one sentence how to install it, and Run All stops there.

- solutions/, solutions/zh/, lessons/ and lessons/zh/: each first code cell is exactly what the build writes
  for that language and the course's public address;
- the sentence, with a Repository (the git+ line) and without one (a folder or wheel), in both languages;
- a real kernel whose Python has Jupyter but not the course runs a student copy: the first cell's one output is
  an error whose traceback is just the sentence, and nothing after it runs.
"""
import subprocess
import sys
import sysconfig
from pathlib import Path

import nbformat
import pytest

from paddlecourse.author.deploy_links import public_repository
from paddlecourse.author.first_cell import first_cell, install_sentence, rest_of
from paddlecourse.author.sources import solution_paths

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = solution_paths(ROOT / "solutions", include_extras=True)
COPIES = [(folder, lang) for folder, lang in (("solutions", "en"), ("solutions/zh", "zh"), ("lessons", "en"),
                                               ("lessons/zh", "zh"))]
ADDRESS = "https://github.com/you/paddlecourse"


def first_code(path):
    return next(c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")


@pytest.mark.parametrize("folder,lang", COPIES, ids=[folder for folder, _ in COPIES])
def test_every_first_code_cell_is_what_the_build_writes(folder, lang):
    repo, stale = public_repository(), []
    for english in ENGLISH:
        wanted = first_cell(first_code(english).source, lang, repo)
        if first_code(ROOT / folder / english.name).source != wanted:
            stale.append(english.name)
    assert not stale, f"{folder}: the first code cell is not what the build writes: run `paddlecourse build`: {stale}"


def test_the_glossary_keeps_what_follows_its_setup_line():
    assert "pipeline_picture()" in rest_of(first_code(ROOT / "solutions" / "glossary.ipynb").source)
    assert rest_of("import paddlecourse\npaddle = paddlecourse.setup()") == ""


def test_the_sentence_names_the_git_line_with_an_address_and_a_folder_or_wheel_without():
    english, chinese = install_sentence("en", ADDRESS), install_sentence("zh", ADDRESS)
    for sentence in (english, chinese):
        assert f'%pip install "paddlecourse @ git+{ADDRESS}"' in sentence and "Kaggle" in sentence
    assert "run this cell again" in english and "重新运行这个单元格" in chinese
    english, chinese = install_sentence("en", None), install_sentence("zh", None)
    assert "%pip install PATH" in english and "folder or its wheel" in english
    assert "%pip install 路径" in chinese and "wheel" in chinese
    for sentence in (english, chinese, install_sentence("en", ADDRESS), install_sentence("zh", ADDRESS)):
        assert "pip install paddlecourse" not in sentence, "the course is on no package index"
        assert sentence.count(". ") == 0 and sentence.count("。") <= 1, "one sentence"


def test_the_cell_shows_the_sentence_in_place_of_the_traceback(monkeypatch):
    """IPython shows what an exception's _render_traceback_ returns instead of its traceback."""
    head = first_cell("import paddlecourse\npaddle = paddlecourse.setup()", "en", ADDRESS)
    assert max(len(line) for line in head.splitlines()) <= 110
    import paddlecourse

    monkeypatch.setitem(sys.modules, "paddlecourse", None)   # `import paddlecourse` fails as if not installed
    with pytest.raises(ModuleNotFoundError) as missing:
        exec(head, {})
    assert missing.value._render_traceback_() == [install_sentence("en", ADDRESS)]
    monkeypatch.setitem(sys.modules, "paddlecourse", paddlecourse)
    with pytest.raises(ModuleNotFoundError) as other:   # another missing module keeps its traceback
        exec(head.replace("import paddlecourse", "import paddlecourse, no_such_module_here", 1), {})
    assert not hasattr(other.value, "_render_traceback_")


@pytest.fixture(scope="module")
def kernel_without_the_course(tmp_path_factory):
    """A venv of this Python that sees the course venv's Jupyter packages (a .pth line) but not the course: its
    editable install is itself a .pth there, which a path named in another .pth does not run."""
    folder = tmp_path_factory.mktemp("no-course")
    venv = folder / "venv"
    subprocess.run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", "--without-pip", str(venv)],
                   check=True)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "jupyter_from_the_course_venv.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    found = subprocess.run([str(python), "-c", "import ipykernel\ntry:\n import paddlecourse\nexcept "
                            "ModuleNotFoundError as e:\n print(e.name)"], capture_output=True, text=True, cwd=folder)
    assert found.stdout.strip() == "paddlecourse", found.stderr[-2000:]
    spec = folder / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        '{"argv": ["%s", "-m", "ipykernel_launcher", "-f", "{connection_file}"], "display_name": "Python 3", '
        '"language": "python"}' % python)
    return folder


@pytest.mark.parametrize("lesson", ["lessons/00_setup_and_first_run.ipynb", "lessons/zh/glossary.ipynb"])
def test_a_kernel_without_the_course_says_how_to_install_it_and_run_all_stops(lesson, kernel_without_the_course,
                                                                                monkeypatch):
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    monkeypatch.setenv("JUPYTER_PATH", str(kernel_without_the_course / "jupyter"))
    monkeypatch.delenv("PYTHONPATH", raising=False)
    notebook = nbformat.read(ROOT / lesson, as_version=4)
    client = NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(kernel_without_the_course)}})
    with pytest.raises(CellExecutionError):
        client.execute()
    codes = [c for c in notebook.cells if c.cell_type == "code"]
    lang = "zh" if "/zh/" in lesson else "en"
    [shown] = codes[0].outputs
    assert shown.output_type == "error" and shown.ename == "ModuleNotFoundError"
    assert shown.traceback == [install_sentence(lang, public_repository())], "the sentence alone, no frames"
    assert all(not c.outputs and c.execution_count is None for c in codes[1:]), "a cell after it ran"
