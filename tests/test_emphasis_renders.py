"""Every `*emphasis*` in a lesson renders as emphasis, in both editions.

CommonMark closes `*...*` only where the closing `*` is right-flanking: after punctuation such as `）` it must be
followed by a space or punctuation, so `*（进阶）*选对` shows its asterisks to a learner (in JupyterLab and on the
website) while `*（进阶）* 选对` is emphasis. A stored output cannot show this; the parsed Markdown does.
"""
from pathlib import Path

import nbformat
import pytest
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "solutions").glob("*.ipynb")) + sorted((ROOT / "solutions" / "zh").glob("*.ipynb"))
MARKDOWN = MarkdownIt("commonmark").enable("table")


def stray_asterisks(source):
    """The text runs of `source` that still hold a `*` once parsed (code spans and blocks are not text)."""
    for block in MARKDOWN.parse(source):
        for token in block.children or []:
            if token.type == "text" and "*" in token.content:
                yield token.content.strip()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT / "solutions")) for p in NOTEBOOKS])
def test_no_asterisk_is_left_showing(path):
    cells = nbformat.read(path, as_version=4).cells
    shown = [(index, text[:80]) for index, cell in enumerate(cells) if cell.cell_type == "markdown"
             for text in stray_asterisks(cell.source)]
    assert not shown, f"{path.name}: emphasis that does not render (cell, text): {shown}"
