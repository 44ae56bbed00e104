"""Sphinx configuration of the course website (built by `paddlecourse site`, see paddlecourse/author/site/).

The sources Sphinx reads are page notebooks that paddlecourse.author.site prepares in a temporary folder,
one folder per language, each built on its own (the Chinese one with `-D language=zh_CN`), so each
language has its own sidebar, search index and `<html lang>`. Nothing is executed: the pages show
the outputs stored in solutions/. Nothing is fetched either: MathJax comes from a PyPI package and
is copied next to the pages, the theme's fonts and icons ship with the theme.
"""
import shutil
from pathlib import Path

project = "paddlecourse"
author = "the paddlecourse authors"
copyright = "the paddlecourse authors, Apache-2.0"
language = "en"
html_title = "paddlecourse"

extensions = ["myst_nb", "sphinx.ext.githubpages"]  # githubpages: the .nojekyll file GitHub Pages needs
source_suffix = {".ipynb": "myst-nb", ".md": "myst-nb"}
exclude_patterns = ["**.ipynb_checkpoints"]

nb_execution_mode = "off"  # the stored outputs of solutions/ are the pages' outputs; no kernel
nb_merge_streams = True
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3
smartquotes = False  # the text as the lessons write it: "quotes" in prose are code and messages more often than not
suppress_warnings = ["myst.header"]  # lessons open with '# Lesson' and go on with '###' in places

html_theme = "sphinx_book_theme"
templates_path = ["_templates"]  # one component overridden, for axe (see the file)
html_static_path = ["_static"]
html_favicon = "_static/favicon.svg"
html_context = {"default_mode": "auto"}  # light or dark as the reader's system says; empty, the theme logs an error
html_css_files = ["paddlecourse.css"]
html_js_files = ["pc-enlarge.js"]  # a visible "Full size" button under a picture too small to read on a phone
html_copy_source = False  # the student copy is offered for download instead (notebooks/)
html_show_sourcelink = False
html_last_updated_fmt = None
html_theme_options = {
    "use_download_button": False,  # it would offer the page notebook, not the student copy
    "use_fullscreen_button": False,
    "home_page_in_toc": True,
    "show_toc_level": 2,
    "article_header_end": ["pc-language-switch.html", "article-header-buttons.html"],
}

# MathJax from the django-static-mathjax wheel (plain static files; Django is not needed), not a CDN
mathjax_path = "mathjax/tex-mml-chtml.js"


def _copy_mathjax(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    import mathjax

    source = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"
    target = Path(app.outdir) / "_static" / "mathjax"
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source / "tex-mml-chtml.js", target)
    shutil.copytree(source / "output" / "chtml" / "fonts" / "woff-v2", target / "output" / "chtml" / "fonts" / "woff-v2",
                    dirs_exist_ok=True)


def _fix_chinese_stemmer(app, exception):
    """Sphinx 9.0 (the last for Python 3.11) names the Chinese search's stemmer ChineseStemmer, but ships
    English's: the page stops with 'ChineseStemmer is not defined' (sphinx-doc/sphinx#14229). Point it at
    the stemmer the file defines, as the upstream fix does (sphinx-doc/sphinx#14416)."""
    if exception is not None or app.builder.format != "html":
        return
    data = Path(app.outdir) / "_static" / "language_data.js"
    if data.is_file():
        text = data.read_text(encoding="utf-8")
        if "window.Stemmer = ChineseStemmer;" in text and "ChineseStemmer=function" not in text:
            data.write_text(text.replace("window.Stemmer = ChineseStemmer;", "window.Stemmer = EnglishStemmer;"),
                            encoding="utf-8")


def _course_words_for_chinese_search(app, config):
    """jieba, which splits the Chinese pages into search words, learns the glossary's terms: without them 静态图
    was indexed as 静态 + 图, and a search for it found nothing (paddlecourse/author/site/search_words.py)."""
    if not str(config.language).startswith("zh"):
        return
    from paddlecourse.author.site.search_words import write_user_dictionary

    words = write_user_dictionary(Path(app.doctreedir).parent / "course-words.zh.txt")
    config.html_search_options = {**(config.html_search_options or {}), "dict": str(words)}


def setup(app):
    app.connect("config-inited", _course_words_for_chinese_search)
    app.connect("build-finished", _copy_mathjax)
    app.connect("build-finished", _fix_chinese_stemmer)
