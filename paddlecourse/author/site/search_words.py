"""The Chinese pages' search knows the course's own words: 静态图 is one word to it, not 静态 and 图.

Sphinx splits Chinese text into words with jieba, whose dictionary has 静态 but not 静态图, 动转静 or 执行器的
Program: a search for the course's key terms found nothing. The terms come from the glossary's headings
("### Static graph · 静态图"), the one list the lessons link to, and go to jieba as a user dictionary
(site/conf.py hands it to Sphinx's html_search_options), so a new glossary entry is searchable with no list to
keep by hand.
"""
import re

import nbformat

from ..deploy_links import REPO_ROOT

GLOSSARY = REPO_ROOT / "lessons" / "zh" / "glossary.ipynb"
HEADING = re.compile(r"^#{2,4}\s+(?P<english>.+?)\s+·\s+(?P<chinese>.+?)\s*$", re.M)
CJK = re.compile(r"[\u4e00-\u9fff]+")
# jieba keeps a user word whole when its frequency beats the pieces' (their own dictionary's are in the
# thousands to millions)
FREQUENCY = 10_000_000


def glossary_terms(glossary=GLOSSARY):
    """[(English term, Chinese term)] of every glossary entry, as its heading writes them."""
    found = []
    for cell in nbformat.read(glossary, as_version=4).cells:
        if cell.cell_type == "markdown" and "<a id=" in cell.source:
            for match in HEADING.finditer(cell.source):
                found.append((match["english"], match["chinese"]))
    return found


def chinese_words(glossary=GLOSSARY):
    """Every run of two or more Chinese characters in the glossary's Chinese terms ("张量 (Tensor)" -> 张量;
    "feed / fetch（喂入数据 / 取回结果）" -> 喂入数据, 取回结果), each once. Sphinx's Chinese search indexes no
    one-character word (块, 值), however it is split, so those are left to the English term beside them."""
    words = []
    for _, chinese in glossary_terms(glossary):
        words += [run for run in CJK.findall(chinese) if len(run) > 1 and run not in words]
    return words


def write_user_dictionary(path, glossary=GLOSSARY):
    """jieba's user dictionary format: one "word frequency" per line."""
    path.write_text("".join(f"{word} {FREQUENCY}\n" for word in chinese_words(glossary)), encoding="utf-8")
    return path
