"""instructors/settings.md (and its Chinese edition): the table of every PADDLECOURSE_* variable, written by
`paddlecourse build` from paddlecourse/settings.py, so the page and the code cannot disagree."""
from pathlib import Path

from ..settings import SETTINGS
from .deploy_links import REPO_ROOT
from .generated_files import write_stale

PAGES = {"en": "instructors/settings.md", "zh": "instructors/settings.zh.md"}
WORDS = {
    "en": {
        "title": "# Settings: every `PADDLECOURSE_*` environment variable",
        "switch": "English · [中文](settings.zh.md)",
        "intro": "Written by `paddlecourse build` from `paddlecourse/settings.py`, the one place the course reads "
                 "them; edit that file, not this page. An empty value counts as unset.",
        "head": "| variable | default | set by | what it does |",
        "none": "(none)",
        "who": {"learner": "learner", "instructor": "instructor", "hub": "hub", "tests": "tests"},
    },
    "zh": {
        "title": "# 设置：所有 `PADDLECOURSE_*` 环境变量",
        "switch": "[English](settings.md) · 中文",
        "intro": "本页由 `paddlecourse build` 根据 `paddlecourse/settings.py` 生成，课程只在那里读取这些变量；"
                 "请修改那个文件，而不是本页。空值等同于未设置。",
        "head": "| 变量 | 默认值 | 由谁设置 | 作用 |",
        "none": "（无）",
        "who": {"learner": "学员", "instructor": "教师", "hub": "Hub", "tests": "测试"},
    },
}


def settings_page(lang):
    words = WORDS[lang]
    rows = [f"| `{s.name}` | {f'`{s.default}`' if s.default else words['none']} | {words['who'][s.who]} | "
            f"{s.meaning if lang == 'en' else s.meaning_zh} |" for s in SETTINGS.values()]
    return "\n".join([words["title"], "", words["switch"], "", words["intro"], "", words["head"], "|---|---|---|---|",
                      *rows]) + "\n"


def stale_pages(root=REPO_ROOT):
    """{path: the text the build would write} for each settings page that is missing or out of date."""
    stale = {}
    for lang, name in PAGES.items():
        path = Path(root) / name
        wanted = settings_page(lang)
        if not path.exists() or path.read_text(encoding="utf-8") != wanted:
            stale[path] = wanted
    return stale


def update_pages(root=REPO_ROOT):
    """Rewrite each settings page that is missing or out of date; returns the paths written."""
    return write_stale(stale_pages(root))
