"""Every lesson's first code cell, written by `paddlecourse build`: it sets the kernel up, or says how to install
the course.

A learner's own ``python3`` kernel, or a fresh Colab or Kaggle runtime, may not have the course: there ``import
paddlecourse`` would end in a ``ModuleNotFoundError`` traceback. The cell shows one sentence instead (IPython
shows the lines an exception's ``_render_traceback_`` returns in place of its traceback), and the error still
stops Run All there. The sentence is made from the course's public address, ``Repository`` under
``[project.urls]`` in pyproject.toml (``deploy_links.public_repository``), the one package source there is: the
course is on no package index.

Only the cell's head is written; whatever follows the ``setup()`` line (the glossary draws its picture) stays.
"""
from .deploy_links import install_spec

SETUP_LINE = "paddle = paddlecourse.setup({args})"

WORDS = {
    "en": {
        "address": "paddlecourse is not installed in this kernel: run %pip install \"{spec}\" in a new cell (on "
                   "Kaggle, switch Internet on first in the notebook settings), then run this cell again.",
        "none": "paddlecourse is not installed in this kernel: run %pip install PATH in a new cell, PATH being the "
                "course folder or its wheel (paddlecourse-….whl), then run this cell again.",
        "missing": "a kernel without the course: say how to install it, not a traceback",
        "setup": "as the course kernel does: Paddle's C++ logs quiet, %catchup, progress",
    },
    "zh": {
        "address": "这个内核里没有安装 paddlecourse：请在一个新单元格中运行 %pip install \"{spec}\"（在 Kaggle 上，"
                   "先在 notebook 的设置里打开 Internet），然后重新运行这个单元格。",
        "none": "这个内核里没有安装 paddlecourse：请在一个新单元格中运行 %pip install 路径（课程的文件夹或它的 wheel，"
                "即 paddlecourse-….whl），然后重新运行这个单元格。",
        "missing": "内核里没有课程：告诉学习者怎么安装，而不是显示回溯",
        "setup": "与课程内核一样：Paddle 的 C++ 日志不再输出，注册 %catchup，记录进度",
    },
}
WIDTH = 100   # the sentence's literal is split to keep the cell's lines short


class NoSetupLine(ValueError):
    """A first code cell without ``paddlecourse.setup(...)``: the build cannot tell its head from its rest."""


def install_sentence(lang, repo):
    """The one sentence a kernel without the course shows, in ``lang``, for ``repo`` (None: no address set)."""
    words = WORDS[lang]
    return words["address"].format(spec=install_spec(repo)) if repo else words["none"]


def _literal(text, indent):
    """``text`` as adjacent string literals, one per line, each short enough for the cell."""
    pieces, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > WIDTH - indent - 4:
            pieces.append(line + " ")
            line = word
        else:
            line = f"{line} {word}" if line else word
    pieces.append(line)
    return ("\n" + " " * indent).join(repr(piece) for piece in pieces)


def first_cell_head(lang, repo):
    """The cell's lines up to and including ``paddle = paddlecourse.setup(...)``."""
    words = WORDS[lang]
    args = "" if lang == "en" else f'lang="{lang}"'
    return (
        "try:\n"
        "    import paddlecourse\n"
        f"except ModuleNotFoundError as missing:   # {words['missing']}\n"
        "    if missing.name == \"paddlecourse\":\n"
        "        missing._render_traceback_ = lambda: [\n"
        f"            {_literal(install_sentence(lang, repo), 12)}]\n"
        "    raise\n"
        f"{SETUP_LINE.format(args=args)}   # {words['setup']}"
    )


def rest_of(source):
    """What follows the ``paddlecourse.setup(...)`` line of a first cell (often nothing)."""
    lines = source.split("\n")
    for index, line in enumerate(lines):
        if "paddlecourse.setup(" in line:
            return "\n".join(lines[index + 1:]).strip("\n")
    raise NoSetupLine("the first code cell has no paddlecourse.setup(...) line: write one, the build completes the cell")


def first_cell(source, lang, repo):
    """The first code cell the build writes for ``lang``, in place of ``source`` (which keeps its rest)."""
    rest = rest_of(source)
    return first_cell_head(lang, repo) + ("\n\n" + rest if rest else "")


def write_first_cell(notebook, lang, repo):
    """Give ``notebook``'s first code cell the head the build writes; returns True if the source changed."""
    cell = next(c for c in notebook.cells if c.cell_type == "code")
    wanted = first_cell(cell.source, lang, repo)
    changed = cell.source != wanted
    cell.source = wanted
    return changed
