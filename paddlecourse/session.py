"""setup(): put a fresh kernel into the state every lesson expects."""
import logging
import os
import random
import sys
import warnings

from .errors import paddle_error_lines, short_paddle_warnings, undefined_name_sentence
from .language import _, language, set_language

# Warnings Paddle prints on every run that say nothing about the learner's code.
HARMLESS_WARNINGS = (
    "No ccache found",  # paddle.utils.cpp_extension, at import time
    "Tensor do not have 'place' interface for pir graph mode",  # inside paddle.utils.run_check()
    "Value do not have 'place' interface for pir graph mode",  # the same warning in Paddle 3.2.2's words
)


# Fonts with Chinese glyphs, in the order they are preferred (the first one matplotlib knows wins).
CJK_FONTS = ("WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC",
             "Source Han Sans CN", "Noto Sans CJK JP", "Microsoft YaHei", "SimHei", "PingFang SC", "Heiti SC",
             "Hiragino Sans GB", "Arial Unicode MS")
# Where Debian's packages put them, for a matplotlib font cache made before they were installed;
# conda-forge's font-ttf-noto-cjk puts its files in <environment>/fonts.
CJK_FONT_FILES = ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
                  "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")


def _cjk_font_files():
    import glob
    import sys

    return list(CJK_FONT_FILES) + sorted(glob.glob(os.path.join(sys.prefix, "fonts", "*CJK*")))


def setup(seed=2024, quiet=True, lang=None):
    """Quiet Paddle's logs, seed every random generator, set plot defaults, choose the language.

    Call it in a lesson's first cell. Safe to call again: it only resets state.
    What it changes, and nothing else:

    - with ``lang`` ("en" or "zh"), the language the library speaks from now on
      (``paddlecourse.language.set_language``); without it, the language already
      chosen stays ($PADDLECOURSE_LANG, or English);
    - when the language is Chinese: a font with Chinese glyphs first in matplotlib's
      ``font.sans-serif`` (WenQuanYi Micro Hei, Noto Sans CJK SC, Source Han Sans SC
      ... whichever matplotlib finds) and ``axes.unicode_minus`` False (those fonts
      have no Unicode minus sign); if none is found, one sentence says which package
      to install. Back in English, both are put back as they were;
    - GLOG_minloglevel=2 (if unset) and, with ``quiet``, filters for the
      warnings in HARMLESS_WARNINGS; the INFO handler `import paddle` adds to
      the root logger is removed;
    - Paddle back in dynamic mode; Python's, NumPy's and Paddle's global random
      generators seeded with ``seed``;
    - matplotlib rcParams for figure size and grid (not the backend);
    - in IPython/Jupyter only:
      * a failed check (CheckFailed) is shown as its message alone, without a
        traceback;
      * a NameError for a name that is not defined is shown as one sentence:
        "`x` is not defined yet: run the cell that defines it — usually the
        answer cell above, or the lesson's earlier cells after a kernel
        restart.";
      * an answer cell's untouched placeholder, ``raise NotImplementedError()``
        (no message: Paddle's own NotImplementedErrors carry one), is shown as one
        sentence that says what to write there, and that a Deeper exercise may
        wait. All three are still error outputs, so nbgrader scores the cell 0;
      * an error raised inside Paddle shows the learner's own frames, one line
        for the calls inside Paddle (%tb shows them all) and the message in
        whole sentences (paddlecourse.errors); every other error keeps its
        normal traceback;
      * warnings.formatwarning writes a warning Paddle raises from its own
        code as one line, "UserWarning (from Paddle): ..." (no file path, no
        `warnings.warn(` source line); nothing is filtered, and other warnings
        look as before;
      * a Deeper exercise run as it came (its answer cell untouched, then its
        check) shows one quiet line from the check and nothing from the answer
        cell; both still raise, and nothing is quiet while nbgrader executes
        (paddlecourse.skipping);
      * the `%catchup l02-ex3` magic is registered (the course kernel also
        registers it at start);
      * a post_run_cell hook remembers which cells ran and whether they raised,
        for ``progress("l02")``;
      * matplotlib figures (plt.show(), display(fig)) get an extra text/html form
        with alt text, scaled to the output's width on a light card (see
        paddlecourse.widgets.figures); in Chinese, a figure's titles, axis
        labels, legend entries and texts are first translated in place from the
        lesson's catalogue (an entry-less text, such as a variable's name, stays).
    """
    if lang is not None:
        set_language(lang)
    os.environ.setdefault("GLOG_minloglevel", "2")
    if quiet:
        for text in HARMLESS_WARNINGS:
            warnings.filterwarnings("ignore", message=text)
    import numpy as np
    import paddle

    if quiet:
        _drop_paddles_root_handler()
    if not paddle.in_dynamic_mode():  # a cell died inside static mode earlier
        paddle.disable_static()
    random.seed(seed)
    np.random.seed(seed)
    paddle.seed(seed)
    _plot_defaults()
    _plot_language()
    _friendly_errors()
    _catchup_magic()
    _figures_with_alt_text()
    return paddle


def _drop_paddles_root_handler():
    """`import paddle` adds an INFO handler to the root logger; undo that.

    Without this, every library's INFO line (matplotlib, nbconvert, ...) appears
    on stderr in the notebook.
    """
    root = logging.getLogger()
    for handler in list(root.handlers):
        if isinstance(handler, logging.StreamHandler) and not isinstance(handler, logging.FileHandler):
            root.removeHandler(handler)
    root.setLevel(logging.WARNING)


def _plot_defaults():
    try:
        import matplotlib
    except ImportError:
        return
    matplotlib.rcParams.update(
        {"figure.figsize": (6, 3.5), "figure.dpi": 100, "axes.grid": True, "axes.spines.top": False,
         "axes.spines.right": False}
    )


def cjk_font():
    """The name of a font with Chinese glyphs that matplotlib can use, or None.

    Looks in matplotlib's font list first; a font installed after that list was cached
    (fonts-wqy-microhei on a fresh Binder image) is added from its file.
    """
    try:
        from matplotlib import font_manager
    except ImportError:
        return None
    known = {font.name for font in font_manager.fontManager.ttflist}
    for name in CJK_FONTS:
        if name in known:
            return name
    for path in _cjk_font_files():
        if os.path.exists(path):
            try:
                font_manager.fontManager.addfont(path)
            except Exception:  # an unreadable file: try the next one
                continue
            known = {font.name for font in font_manager.fontManager.ttflist}
            for name in CJK_FONTS:
                if name in known:
                    return name
    return None


_FONT_CHANGES = {}  # what _plot_language changed, to put back in English: {"font": name, "unicode_minus": old}


def _plot_language():
    """Chinese plot text: a CJK font first in font.sans-serif, unicode_minus off. English: undo that."""
    try:
        import matplotlib
    except ImportError:
        return
    params = matplotlib.rcParams
    if language() != "zh":
        font = _FONT_CHANGES.pop("font", None)
        if font is not None:
            params["font.sans-serif"] = [f for f in params["font.sans-serif"] if f != font]
        if "unicode_minus" in _FONT_CHANGES:
            params["axes.unicode_minus"] = _FONT_CHANGES.pop("unicode_minus")
        return
    font = cjk_font()
    if font is None:
        print(_("Chinese text in plots needs a Chinese font, and matplotlib found none: install one "
                "(Debian/Ubuntu: sudo apt-get install fonts-wqy-microhei; conda: see the README's Troubleshooting), "
                "then restart the kernel."))
        return
    families = [f for f in params["font.sans-serif"] if f != font]
    params["font.sans-serif"] = [font] + families
    _FONT_CHANGES.setdefault("font", font)
    _FONT_CHANGES.setdefault("unicode_minus", params["axes.unicode_minus"])
    params["axes.unicode_minus"] = False


def _figures_with_alt_text():
    """plt.show() and display(fig) get alt text (JupyterLab's own <img> for a PNG has none)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    from .widgets.figures import register_figure_html

    register_figure_html(get_ipython())


def _catchup_magic():
    """Make `%catchup l02-ex3` available without a `%load_ext` line, and start recording progress."""
    shell = _ipython()
    if shell is not None:
        from .catchup import load_ipython_extension
        from .progress import register

        load_ipython_extension(shell)
        register(shell)


def _ipython():
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def _placeholder_sentence(tb):
    """What an untouched `raise NotImplementedError()` says: in the answer cell itself, or in a function it defines."""
    while tb.tb_next is not None:
        tb = tb.tb_next
    function = tb.tb_frame.f_code.co_name
    if function != "<module>":
        return _("`{name}` still has its placeholder: replace `raise NotImplementedError()` in the answer cell "
                 "with your code, run it, then run this cell again.").format(name=function)
    # Translators: keep `raise NotImplementedError()` and # YOUR CODE HERE as they are (the cell shows them)
    return _("this answer cell still waits for you: write your answer where it says # YOUR CODE HERE, in place of "
             "`raise NotImplementedError()`, and run it again. An exercise marked Deeper may wait for a second "
             "pass: its check then says only that it has no answer yet.")


def _friendly_errors():
    """In IPython, show a failed check as its message alone, and an undefined name or an untouched answer
    cell as one sentence.

    All are still error outputs, so nbgrader still scores the cell 0.
    """
    shell = _ipython()
    if shell is None:
        return
    from .checks import CheckFailed
    from .checks.calling import _is_untouched_stub
    from .skipping import register as remember_last_cells
    from .skipping import running_cell, show_skipped, skipped_deeper_check, untouched_deeper_answer

    def show_briefly(shell, etype, value, tb, tb_offset=None):
        if issubclass(etype, CheckFailed):
            skipped = skipped_deeper_check(running_cell(shell)) if value.no_answer else None
            if skipped:   # still an error (progress, Run All's tag); shown as one quiet line
                show_skipped(skipped)
            else:
                shell._showtraceback(etype, value, [f"{etype.__name__}: {value}"])
            return
        if _is_untouched_stub(value):
            if not untouched_deeper_answer(running_cell(shell)):  # else its check speaks
                shell._showtraceback(etype, value, [f"{etype.__name__}: {_placeholder_sentence(tb)}"])
            return
        sentence = undefined_name_sentence(value, tb)
        if sentence is not None:
            shell._showtraceback(etype, value, [f"{etype.__name__}: {sentence}"])
            return
        try:
            shortened = paddle_error_lines(shell, etype, value, tb)
        except Exception:  # the short form is a courtesy: never lose the error over it
            shortened = None
        if shortened is None:
            shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
        else:
            sys.last_type, sys.last_value, sys.last_traceback = etype, value, tb   # for %tb
            shell._showtraceback(etype, value, shortened)

    # Exception: every error comes here first; what is not ours to shorten keeps IPython's own traceback
    shell.set_custom_exc((Exception,), show_briefly)
    warnings.formatwarning = short_paddle_warnings(warnings.formatwarning)
    remember_last_cells(shell)
