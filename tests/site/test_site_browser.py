"""Every page of the course website in a real browser (issue 16): Debian's Chromium through Playwright
(the session's `browser` fixture), the built site served from 127.0.0.1 by Python's http.server.

Each page, at 1366 px and at 390 px (loaded once, then the window narrowed: see visit): a screenshot (test-artifacts/screenshots/site/en/ and zh/; its first screen,
or the whole page with PADDLECOURSE_FULL_SCREENSHOTS=1), no
horizontal overflow (wide tables and code scroll in their own box), no console error, no failed or
outside request, every picture loaded and its smallest text at least 9 px as drawn (issue 25: on a phone a
picture scrolls sideways in its card rather than shrink below that), and axe-core (tests/browser/node_modules, as test_pictures.py
loads it) with no serious or critical violation (every rule at 1366 px; at 390 px the layout's rules, touch targets
included: see _AXE_RUN), and a lesson
in the dark theme too.
"""
import functools
import http.server
import json
import os
import sys
import threading

import pytest
from site_helpers import LANG_FOLDERS, ROOT

sys.path.insert(0, str(ROOT / "tests" / "browser"))
from lab import SCREENSHOTS  # noqa: E402

from paddlecourse.author.sources import solution_paths  # noqa: E402
from paddlecourse.settings import setting  # noqa: E402

AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = (1366, 390)
HEIGHT = 900
SHOTS = SCREENSHOTS / "site"
# A whole lesson page is 30-40 thousand pixels tall: a full-page picture of each of the 50 views cost about
# 3 minutes of the suite. The tests read the page itself (overflow, pictures, axe); the screenshot is for a
# person to look at, so by default it is the first screen, and the whole page with PADDLECOURSE_FULL_SCREENSHOTS=1.
FULL_PAGES = setting("PADDLECOURSE_FULL_SCREENSHOTS") == "1"
RECORDS = ROOT / "test-artifacts" / "site"  # per page: its screenshots and axe's findings of every impact
NAMES = [p.stem for p in solution_paths(ROOT / "solutions", include_extras=True)] + ["index", "search", "genindex"]
PAGES = [f"{LANG_FOLDERS[lang]}/{name}.html".lstrip("/") for lang in LANG_FOLDERS for name in NAMES]

# Runs in the page: how wide the document is, and which elements stick out of the window (for the message).
_OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const scrolls = el => { for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p); if (['auto', 'scroll', 'hidden'].includes(s.overflowX)) return true; }
    return false; };
  const wide = [...document.body.querySelectorAll('*')].filter(el => {
      const r = el.getBoundingClientRect(); return r.width && r.right > width + 1 && !scrolls(el); })
    .slice(0, 5).map(el => el.tagName.toLowerCase() + '.' + [...el.classList].slice(0, 2).join('.') +
                     ' right=' + Math.round(el.getBoundingClientRect().right));
  return {scroll: document.documentElement.scrollWidth, client: width, wide};
}"""
_PICTURES = """() => [...document.images].filter(img => !(img.complete && img.naturalWidth > 0))
  .map(img => (img.getAttribute('src') || '').slice(0, 80))"""
# The course's pictures (img[data-font-px]: its smallest text at natural size) and that text's size as drawn.
_PICTURE_TEXT = """() => [...document.querySelectorAll('img[data-font-px]')].filter(img => img.naturalWidth > 0)
  .map(img => ({alt: (img.getAttribute('alt') || '').slice(0, 60), width: Math.round(img.getBoundingClientRect().width),
                text_px: +(parseFloat(img.dataset.fontPx) * img.getBoundingClientRect().width / img.naturalWidth).toFixed(1),
                enlarge: !!(img.pcEnlarge && !img.pcEnlarge.hidden && img.pcEnlarge.getBoundingClientRect().height)}))"""
# pc-enlarge.js has placed its buttons for this width (it says so once its resize handler has run)
_ENLARGE_DONE = "() => document.documentElement.dataset.pcEnlargeWidth === String(window.innerWidth)"
READABLE_PX = 12  # under it, a picture must offer its visible "Full size" button (site/_static/pc-enlarge.js)
MIN_FONT_PX = 9  # = paddlecourse.widgets.figures.MIN_FONT_PX: narrower than that, a picture scrolls in its card
_MATH_DONE = "() => !window.MathJax || (window.MathJax.startup && window.MathJax.startup.promise)"
# At 390 px the page is the same HTML with the same colours (the theme's CSS changes layout, not markup or colour,
# with the width), so axe's full run, colour contrast included, is at 1366 px, where every part is visible; at 390 px
# only the rules that read the layout run: which regions scroll sideways (they must be reachable by keyboard), and
# touch targets (WCAG 2.2's 24 px, off by default in axe). Half of the site's axe time went on repeating the rest.
_AXE_RUN = """async (wide) => {
  const options = wide ? {resultTypes: ['violations']}
                       : {resultTypes: ['violations'], runOnly: ['scrollable-region-focusable', 'target-size']};
  const result = await axe.run(document, options);
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length,
                                      where: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: ' + n.html.slice(0, 120))}));
}"""


# The theme marks which code boxes scroll (tabindex 0, for the keyboard) 300 ms after the last resize event: this
# promise settles 400 ms after that event, its timer set after the theme's, so it fires after it on any machine.
_AFTER_RESIZE = """() => { window.__pcResized = new Promise(done =>
  window.addEventListener('resize', () => setTimeout(done, 400), {once: true})); }"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def served_site(built_site):
    """The built site on http://127.0.0.1:PORT/, stopped when this module's tests are done."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(built_site.out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


def _require_axe():
    if AXE.is_file():
        return
    reason = f"SYSTEM PART MISSING: axe-core ({AXE}). Install it with: bash tools/system-parts.sh (npm ci in tests/browser)"
    if os.environ.get("CI") == "true":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def visit(browser, base, path, widths=WIDTHS, color_scheme="light"):
    """Open one page once and read it at each width in turn (the window resized, as a reader turns a tablet or
    narrows a window); return what went wrong (a list of sentences) and a record per width.

    One load for both widths: each load costs Chromium about 0.6 s more than a resize, and a page read after
    the resize to 390 px gave the same overflow, pictures, axe findings and screenshot as a page loaded at
    390 px (compared on every page of the site, both languages, when this was changed)."""
    context = browser.new_context(viewport={"width": widths[0], "height": HEIGHT}, color_scheme=color_scheme)
    page = context.new_page()
    errors, outside = [], []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    page.on("requestfailed", lambda request: errors.append(f"request failed: {request.url}"))
    page.on("response", lambda response: errors.append(f"HTTP {response.status}: {response.url}")
            if response.status >= 400 else None)
    page.on("request", lambda request: outside.append(request.url)
            if not request.url.startswith((base, "data:", "blob:", "about:")) else None)
    problems, records = [], []
    try:
        page.goto(base + path, wait_until="load", timeout=60_000)
        page.evaluate(f"async () => {{ const p = ({_MATH_DONE})(); if (p && p.then) await p; }}")
        page.add_script_tag(path=str(AXE))
        for width in widths:
            found, record = _read_at(page, path, width, color_scheme)
            problems += found
            records.append(record)
    finally:
        context.close()
    problems += [f"console: {error}" for error in errors]
    problems += [f"loads from outside: {url}" for url in outside]
    return problems, records


def _read_at(page, path, width, color_scheme):
    """The page at `width`: its overflow, pictures and axe's findings, and its screenshot."""
    if page.viewport_size["width"] != width:
        page.evaluate(_AFTER_RESIZE)
        page.set_viewport_size({"width": width, "height": HEIGHT})
        page.evaluate("() => window.__pcResized")
    page.wait_for_timeout(200)  # the theme's scripts settle (sidebar, table of contents)
    page.wait_for_function(_ENLARGE_DONE, timeout=30_000)
    overflow = page.evaluate(_OVERFLOW)
    broken = page.evaluate(_PICTURES)
    pictures = page.evaluate(_PICTURE_TEXT)
    violations = page.evaluate(_AXE_RUN, width == max(WIDTHS))
    lang, name = path.split("/") if "/" in path else ("en", path)
    shot = SHOTS / lang / f"{name[:-5]}-{width}px{'-dark' if color_scheme == 'dark' else ''}.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot), full_page=FULL_PAGES, timeout=30_000)
    problems = []
    if overflow["scroll"] > overflow["client"] + 1:
        problems.append(f"{width}px: the page scrolls sideways ({overflow['scroll']} > {overflow['client']} px): "
                        f"{overflow['wide']}")
    problems += [f"{width}px: picture did not load: {src}" for src in broken]
    problems += [f"{width}px: a picture's smallest text is {p['text_px']} px (< {MIN_FONT_PX}) at {p['width']} px wide: "
                 f"{p['alt']!r}" for p in pictures if p["text_px"] < MIN_FONT_PX]
    problems += [f"{width}px: a picture whose text is {p['text_px']} px (< {READABLE_PX}) has no visible Full size button: "
                 f"{p['alt']!r}" for p in pictures if p["text_px"] < READABLE_PX and not p["enlarge"]]
    problems += [f"{width}px: axe {v['impact']} {v['id']} ({v['help']}) x{v['nodes']}: {v['where']}"
                 for v in violations if v["impact"] in ("moderate", "serious", "critical")]
    return problems, {"shot": shot.name, "violations": violations,
                      "smallest_picture_text_px": min((p["text_px"] for p in pictures), default=None)}


@pytest.mark.browser
@pytest.mark.parametrize("path", PAGES)
def test_every_page_fits_has_no_console_error_and_passes_axe(browser, served_site, path):
    _require_axe()
    problems, records = visit(browser, served_site, path)
    minor = sorted({f"{v['impact']} {v['id']}" for r in records for v in r["violations"]})
    print(f"{path}: screenshots {[r['shot'] for r in records]}; other axe findings: {minor or 'none'}")
    RECORDS.mkdir(parents=True, exist_ok=True)  # what axe said about each page, kept for the record
    lang, name = path.split("/") if "/" in path else ("en", path)
    (RECORDS / f"{lang}-{name[:-5]}.json").write_text(json.dumps(
        dict(zip((f"{w}px" for w in WIDTHS), records), problems=problems), indent=1, ensure_ascii=False))
    assert not problems, f"{path}:\n" + "\n".join(problems)


@pytest.mark.browser
@pytest.mark.parametrize("path", ["02_autograd_by_hand.html", "zh/02_autograd_by_hand.html"])
def test_a_lesson_reads_in_the_dark_theme_too(browser, served_site, path):
    """The theme follows the reader's system: in dark mode the text, code and links keep their contrast."""
    _require_axe()
    problems, _ = visit(browser, served_site, path, WIDTHS[:1], color_scheme="dark")
    assert not problems, f"{path} (dark):\n" + "\n".join(problems)


@pytest.mark.browser
def test_the_formulas_are_typeset_by_the_sites_own_mathjax(browser, served_site):
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": HEIGHT})
    page = context.new_page()
    try:
        page.goto(served_site + "02_autograd_by_hand.html", wait_until="load")
        page.evaluate(f"async () => {{ const p = ({_MATH_DONE})(); if (p && p.then) await p; }}")
        assert page.locator("mjx-container").count() >= 10, "the lesson's formulas were not typeset"
        assert page.evaluate("() => [...document.scripts].some(s => s.src.endsWith('_static/mathjax/tex-mml-chtml.js'))")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("lang, query, lesson", [("en", "accumulate", "Autograd by hand"),
                                                 ("zh", "梯度", "手算梯度"),
                                                 ("zh", "静态图", "术语表")])   # jieba once split it: no result
def test_the_search_finds_a_lesson_by_its_words(browser, served_site, lang, query, lesson):
    """Sphinx's own search, in each language: the Chinese index needs jieba to split Chinese into words (a query
    is not split: one word at a time, 梯度 finds, 梯度累加 does not)."""
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": HEIGHT})
    page = context.new_page()
    try:
        folder = LANG_FOLDERS[lang] + "/" if LANG_FOLDERS[lang] else ""
        page.goto(f"{served_site}{folder}search.html?q={query}", wait_until="load")
        page.locator("#search-results li a").first.wait_for(timeout=20_000)
        titles = page.locator("#search-results li a").all_inner_texts()
        assert any(lesson in title for title in titles), titles
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("path", ["glossary.html", "zh/04_inside_a_static_program.html"])
def test_on_a_phone_a_small_picture_opens_at_full_size(browser, served_site, path):
    """At 390 px the course's pictures draw their text at about 9 px; the visible Full size button under each
    opens it at its own size, where the smallest text is at least 12 px, and Esc closes it again."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(served_site + path, wait_until="load")
        page.wait_for_function(_ENLARGE_DONE, timeout=30_000)
        button = page.locator("button.pc-enlarge:visible").first
        button.scroll_into_view_if_needed()
        label = button.inner_text()
        assert label == ("查看原图" if path.startswith("zh/") else "Full size"), label
        button.click()
        shown = page.evaluate("""() => { const d = document.querySelector('dialog.pc-enlarged'), img = d.querySelector('img');
            return {open: d.open, text_px: parseFloat(img.dataset.fontPx) * img.getBoundingClientRect().width / img.naturalWidth}; }""")
        assert shown["open"] and shown["text_px"] >= READABLE_PX, shown
        page.screenshot(path=str(SHOTS / f"{path.replace('/', '-')[:-5]}-390px-full-size.png"))
        page.keyboard.press("Escape")
        assert not page.evaluate("() => document.querySelector('dialog.pc-enlarged').open")
    finally:
        context.close()
