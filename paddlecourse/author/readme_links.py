"""The READMEs' launch paragraph: the Binder badge, made from the course's public address by `paddlecourse build`.

The address lives in one place, ``Repository`` under ``[project.urls]`` in pyproject.toml
(``deploy_links.public_repository``). While it is not set, the paragraph says how to set it instead of
showing a badge that leads nowhere; once it is set, the next build writes the badge.
"""
from pathlib import Path

from .deploy_links import REPO_ROOT, binder_badge, public_repository

START = "<!-- launch: written by `paddlecourse build` from Repository under [project.urls] in pyproject.toml -->"
END = "<!-- end of launch -->"
READMES = {"README.md": "en", "README.zh.md": "zh"}

WORDS = {
    "en": {
        "badge": "The badge opens lesson 00 in JupyterLab on mybinder.org, built from `binder/` (the same image a "
                 "class hub uses, see [instructors/hub.md](instructors/hub.md)).",
        "none": "**Binder**: this repository has no public address yet, so there is no Binder badge here; run the "
                "course on your own machine (below) or on a class hub. Once the repository is published, write its "
                "address as `Repository` under `[project.urls]` in `pyproject.toml` and run `paddlecourse build`: "
                "this paragraph becomes the badge, and the site's pages get their launch buttons.",
    },
    "zh": {
        "badge": "点击徽章，会在 mybinder.org 上用 JupyterLab 打开中文版第 00 课。环境由 `binder/` 构建，与课堂 "
                 "JupyterHub 使用的是同一个镜像（见 [instructors/hub.zh.md](instructors/hub.zh.md)）。",
        "none": "**Binder**：这个仓库还没有公开地址，所以这里没有 Binder 徽章；请在自己的电脑上（见下文）或在班级 "
                "JupyterHub 上运行本课程。仓库公开之后，把它的地址写进 `pyproject.toml` 的 `[project.urls]` 下的 "
                "`Repository`，再运行 `paddlecourse build`：这一段会变成徽章，网站的课程页也会出现启动按钮。",
    },
}


def launch_paragraph(lang, repo):
    """The paragraph between START and END in the README of ``lang``, for ``repo`` (None: not set)."""
    words = WORDS[lang]
    if not repo:
        return words["none"]
    return binder_badge(repo, "HEAD", lang) + "\n\n" + words["badge"]


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
    stale = stale_readmes(root)
    for path, text in stale.items():
        path.write_text(text, encoding="utf-8")
    return list(stale)
