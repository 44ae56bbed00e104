"""The READMEs' launch paragraph: the Binder, Colab and Kaggle badges, made from the course's public address by
`paddlecourse build`.

The address lives in one place, ``Repository`` under ``[project.urls]`` in pyproject.toml
(``deploy_links.public_repository``). While it is not set, the paragraph tells the reader where else to run the
course instead of showing badges that lead nowhere; once it is set, the next build writes the badges (Colab and
Kaggle only for a repository on GitHub, the one host both open notebooks from).
"""
from pathlib import Path

from .deploy_links import (LESSON_00, REPO_ROOT, binder_badge, colab_url, install_spec, kaggle_url, lessons_folder,
                           public_repository)
from .generated_files import write_stale
from .site.links import default_branch

START = "<!-- launch: written by `paddlecourse build` from Repository under [project.urls] in pyproject.toml -->"
END = "<!-- end of launch -->"
READMES = {"README.md": "en", "README.zh.md": "zh"}

WORDS = {
    "en": {
        "badge": "Binder opens lesson 00 in JupyterLab on mybinder.org, built from `binder/` (the same image a class "
                 "hub uses, see [instructors/hub.md](instructors/hub.md)), with everything installed.",
        "colab": " Colab and Kaggle open it in their own notebooks: there, run `%pip install \"{spec}\"` in a cell "
                 "first, as the lesson's first cell says (more under *Where you already work*).",
        "none": "**Binder, Colab, Kaggle**: this copy of the course has no public address yet, so there are no "
                "launch buttons here. Run it on your own machine (the two commands below), in a Python and Jupyter "
                "you already have (*Where you already work*), or on a class hub.",
    },
    "zh": {
        "badge": "Binder 会在 mybinder.org 上用 JupyterLab 打开中文版第 00 课，环境由 `binder/` 构建、一切已装好（与课堂 "
                 "JupyterHub 使用的是同一个镜像，见 [instructors/hub.zh.md](instructors/hub.zh.md)）。",
        "colab": "Colab 和 Kaggle 会在它们自己的 notebook 里打开这一课：在那里先在一个单元格中运行 "
                 "`%pip install \"{spec}\"`，正如该课第一个单元格所说（详见下文“在你已经在用的地方学”）。",
        "none": "**Binder、Colab、Kaggle**：这份课程还没有公开地址，所以这里没有启动按钮。请在自己的电脑上运行（见下文的"
                "两条命令），或在你已有的 Python 和 Jupyter 中运行（见“在你已经在用的地方学”），或在班级 JupyterHub 上运行。",
    },
}


def badges(repo, lang, branch):
    """Binder's badge, and Colab's and Kaggle's where the repository is on GitHub, on one line."""
    lesson = f"{lessons_folder(lang)}/{Path(LESSON_00).name}"
    found = [binder_badge(repo, "HEAD", lang)]
    colab, kaggle = colab_url(repo, branch, lesson), kaggle_url(repo, branch, lesson)
    if colab:
        found.append(f"[![Open in Colab](https://colab.research.google.com/assets/colab-badge.svg)]({colab})")
    if kaggle:
        found.append(f"[![Open in Kaggle](https://kaggle.com/static/images/open-in-kaggle.svg)]({kaggle})")
    return " ".join(found)


def launch_paragraph(lang, repo, branch=None):
    """The paragraph between START and END in the README of ``lang``, for ``repo`` (None: not set)."""
    words = WORDS[lang]
    if not repo:
        return words["none"]
    branch = branch or default_branch()
    text = words["badge"] + (words["colab"].format(spec=install_spec(repo)) if colab_url(repo, branch) else "")
    return badges(repo, lang, branch) + "\n\n" + text


def _rewritten(text, paragraph):
    head, start, rest = text.partition(START)
    _, end, tail = rest.partition(END)
    if not start or not end:
        return None
    return f"{head}{START}\n{paragraph}\n{END}{tail}"


def stale_readmes(root=REPO_ROOT):
    """{README path: the text the build would write} for each README whose launch paragraph is out of date."""
    root, repo = Path(root), public_repository(root)
    stale = {}
    for name, lang in READMES.items():
        path = root / name
        text = path.read_text(encoding="utf-8")
        wanted = _rewritten(text, launch_paragraph(lang, repo))
        if wanted is None:
            raise ValueError(f"{name} has no launch paragraph: put {START} and {END} where the badge goes")
        if wanted != text:
            stale[path] = wanted
    return stale


def update_readmes(root=REPO_ROOT):
    """Rewrite the launch paragraph of each README that is out of date; returns the paths written."""
    return write_stale(stale_readmes(root))
