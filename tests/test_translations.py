"""The Chinese edition is complete, consistent and made from the English one.

- every catalogue entry is translated, none fuzzy, and the catalogues are up to date with the
  English solutions and the library (``paddlecourse translations update`` would change nothing);
- a translation keeps what must not change: each {placeholder}, link target, HTML anchor and
  `code span` of its English;
- the glossary's terms are used: an English entry that says "dynamic graph" is translated with 动态图;
- solutions/zh/ are exactly what ``paddlecourse build`` makes of the English solutions and the
  catalogues, and their code cells are the English ones (only the first cell asks for Chinese);
- a changed English cell marks its translation fuzzy, with the old English kept beside it.
"""
import re
from pathlib import Path

import nbformat
import polib
import pytest

from paddlecourse.author import catalogues
from paddlecourse.author.sources import solution_paths
from paddlecourse.author.editions import edition_setup_source, translated_notebook
from paddlecourse.language import PLACEHOLDER

ROOT = Path(__file__).resolve().parent.parent
LANG = "zh"
ENGLISH = solution_paths(ROOT / "solutions", include_extras=True)
DOMAINS = [p.stem for p in ENGLISH] + [catalogues.LIBRARY_DOMAIN]
LINK_TARGET = re.compile(r"\]\(([^)\s]+)\)")
ANCHOR = re.compile(r'<a id="[^"]+"(?: name="[^"]+")?></a>')
CODE_SPAN = re.compile(r"``.+?``|`[^`\n]+`")   # ``with `inner` ticks`` or `plain`
CJK = re.compile(r"[\u3400-\u9fff]")


def catalogue(domain):
    return polib.pofile(str(catalogues.catalogue_path(LANG, domain)))


def live(domain):
    return [e for e in catalogue(domain) if not e.obsolete]


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_entry_is_translated_and_none_is_fuzzy(domain):
    entries = live(domain)
    assert entries, f"{domain}.po is empty"
    untranslated = [e.msgid[:70] for e in entries if not e.msgstr.strip()]
    fuzzy = [e.msgid[:70] for e in entries if "fuzzy" in e.flags]
    assert not untranslated, f"{domain}: {len(untranslated)} of {len(entries)} entries not translated, e.g. {untranslated[:3]}"
    assert not fuzzy, (f"{domain}: {len(fuzzy)} entries are fuzzy (their English changed): review them, then drop the "
                       f"flag; e.g. {fuzzy[:3]}")
    english_only = [e.msgid[:70] for e in entries if CJK.search(e.msgid) is None and CJK.search(e.msgstr) is None
                    and len(e.msgid.split()) >= 6 and e.msgctxt and e.msgctxt.startswith("markdown")]
    assert not english_only, f"{domain}: markdown left in English: {english_only[:3]}"


@pytest.mark.parametrize("path", ENGLISH, ids=[p.stem for p in ENGLISH])
def test_the_lesson_catalogues_are_up_to_date_with_the_english(path):
    wanted = {(m.context, m.text) for m in catalogues.notebook_messages(nbformat.read(path, as_version=4), path.name)}
    have = {(e.msgctxt, e.msgid) for e in live(path.stem)}
    assert wanted == have, ("run `paddlecourse translations update` (then translate what it marks): "
                            f"{len(wanted - have)} new or changed English texts, {len(have - wanted)} gone")


def test_the_library_catalogue_is_up_to_date_with_the_code():
    wanted = {m.text for m in catalogues.library_messages()}
    have = {e.msgid for e in live(catalogues.LIBRARY_DOMAIN)}
    assert wanted == have, (f"run `paddlecourse translations update`: {sorted(wanted - have)[:3]} new, "
                            f"{sorted(have - wanted)[:3]} gone")


@pytest.mark.parametrize("domain", DOMAINS)
def test_translations_keep_placeholders_links_anchors_and_code(domain):
    problems = []
    for entry in live(domain):
        if not entry.msgstr.strip():
            continue
        where = f"{entry.msgctxt or ''} {entry.msgid[:50]!r}"
        is_prose = (entry.msgctxt or "").startswith("markdown")   # a cell's {…} is LaTeX, not a placeholder
        if not is_prose and sorted(PLACEHOLDER.findall(entry.msgid)) != sorted(PLACEHOLDER.findall(entry.msgstr)):
            problems.append(f"{where}: placeholders {PLACEHOLDER.findall(entry.msgid)} became "
                            f"{PLACEHOLDER.findall(entry.msgstr)}")
        for pattern, what in ((LINK_TARGET, "link"), (ANCHOR, "anchor")):
            lost = set(pattern.findall(entry.msgid)) - set(pattern.findall(entry.msgstr))
            if lost:
                problems.append(f"{where}: {what} {sorted(lost)} lost")
        spans = set(CODE_SPAN.findall(entry.msgid)) - set(CODE_SPAN.findall(entry.msgstr))
        if spans:
            problems.append(f"{where}: code {sorted(spans)[:3]} lost or changed")
    assert not problems, f"{domain}: " + "\n  ".join(problems[:15])


def glossary_terms():
    """[(English term, {accepted Chinese renderings})] from the glossary's headings "### English · 中文"."""
    terms = []
    for cell in nbformat.read(ROOT / "solutions" / "glossary.ipynb", as_version=4).cells:
        for english, chinese in re.findall(r"^### (.+?) · (.+)$", cell.source, re.M):
            english = re.sub(r"\s*\([^)]+\)", "", english).strip()   # "Operator (op)" -> "Operator"; "backward()" stays
            main = re.split(r"[（(]", chinese)[0].strip()
            if not CJK.search(main):
                continue  # the Chinese docs keep the English word (Program, Block, ...): nothing to check
            accepted = {main} | set(re.findall(r"[（(]([A-Za-z][^）)]*)[）)]", chinese))
            if re.fullmatch(r"[\w.]+(\(\))?", english) and re.search(r"[_.()]|[a-z][A-Z]", english):
                accepted.add(english.rstrip("()"))  # an API name (full_graph, paddle.jit.save) may stay as it is
            terms.append((english, accepted))
    return terms


def test_the_glossary_gives_the_terms_the_catalogues_are_checked_against():
    english = {term for term, _ in glossary_terms()}
    assert {"Dynamic graph", "Static graph", "Dynamic-to-static conversion", "Gradient accumulation",
            "Optimizer", "Executor"} <= english, english


@pytest.mark.parametrize("domain", DOMAINS)
def test_translations_use_the_glossarys_terms(domain):
    problems = []
    for english, accepted in glossary_terms():
        word = re.compile(rf"(?<![\w-]){re.escape(english)}(?![\w-])", re.I)
        for entry in live(domain):
            prose = PLACEHOLDER.sub(" ", CODE_SPAN.sub(" ", entry.msgid))   # code and {names} are not the term
            if entry.msgstr.strip() and word.search(prose) and not any(a.lower() in entry.msgstr.lower() for a in accepted):
                problems.append(f"{english!r} -> {sorted(accepted)}: {entry.msgid[:60]!r}")
    assert not problems, f"{domain}: the glossary's term is not used:\n  " + "\n  ".join(problems[:15])


@pytest.mark.parametrize("path", ENGLISH, ids=[p.stem for p in ENGLISH])
def test_the_chinese_solution_is_the_english_one_translated(path):
    chinese_path = ROOT / "solutions" / LANG / path.name
    assert chinese_path.exists(), f"run `paddlecourse build`: {chinese_path} is missing"
    english = nbformat.read(path, as_version=4)
    chinese = nbformat.read(chinese_path, as_version=4)
    expected, _ = translated_notebook(english, path.stem, LANG, previous=chinese)
    assert [c.source for c in chinese.cells] == [c.source for c in expected.cells], \
        "solutions/zh drifted from the English solution and its catalogue: run `paddlecourse build`"
    assert [(c.id, c.cell_type, c.metadata) for c in chinese.cells] == \
        [(c.id, c.cell_type, c.metadata) for c in english.cells], "cell ids, kinds and nbgrader metadata are the English ones"
    codes = [(e.source, c.source) for e, c in zip(english.cells, chinese.cells) if e.cell_type == "code"]
    assert codes, "no code cells"
    first, *rest = codes
    assert first[1] == edition_setup_source(first[0], LANG) and 'lang="zh"' in first[1]
    assert all(e == c for e, c in rest), "a Chinese code cell differs from the English one"


def test_the_chinese_glossary_draws_its_pipeline_picture_in_chinese():
    import base64

    english = nbformat.read(ROOT / "solutions" / "glossary.ipynb", as_version=4)
    chinese = nbformat.read(ROOT / "solutions" / LANG / "glossary.ipynb", as_version=4)
    pictures = [(e.attachments["pipeline.png"]["image/png"], c.attachments["pipeline.png"]["image/png"])
                for e, c in zip(english.cells, chinese.cells) if "pipeline.png" in (e.get("attachments") or {})]
    assert len(pictures) == 1
    english_png, chinese_png = (base64.b64decode(p) for p in pictures[0])
    assert chinese_png.startswith(b"\x89PNG") and chinese_png != english_png


def test_a_changed_english_cell_marks_its_translation_fuzzy_and_keeps_the_old_english(tmp_path):
    po = catalogues.new_catalogue(LANG, "demo")
    first = [catalogues.Message("markdown abc", "Gradients add up.", "demo cell 0"),
             catalogues.Message("code def", "it returned {n} items", "demo cell 1")]
    catalogues.merge(po, first)
    po[0].msgstr, po[1].msgstr = "梯度会累加。", "它返回了 {n} 项"
    added, fuzzy, gone = catalogues.merge(po, [
        catalogues.Message("markdown abc", "Gradients add up until you clear them.", "demo cell 0"),
        catalogues.Message("code def", "it returned {n} items", "demo cell 1")])
    assert (added, fuzzy, gone) == (0, 1, 0)
    changed = next(e for e in po if e.msgctxt == "markdown abc")
    assert "fuzzy" in changed.flags and changed.msgstr == "梯度会累加。"
    assert changed.previous_msgid == "Gradients add up."
    assert "fuzzy" not in next(e for e in po if e.msgctxt == "code def").flags
    # what a translator opens: the flag and the old English, as gettext writes them
    path = tmp_path / "demo.po"
    po.save(str(path))
    assert '#, fuzzy' in path.read_text() and '#| msgid "Gradients add up."' in path.read_text()
    assert polib.pofile(str(path)).fuzzy_entries()[0].previous_msgid == "Gradients add up."
    # a cell that is gone leaves an obsolete entry, not a live one
    catalogues.merge(po, [catalogues.Message("code def", "it returned {n} items", "demo cell 1")])
    assert [e.msgctxt for e in po if not e.obsolete] == ["code def"]
    assert any(e.obsolete and e.msgctxt == "markdown abc" for e in po)
