"""setup(): put a fresh kernel into the state every lesson expects."""
import logging
import os
import random
import warnings

# Warnings Paddle prints on every run that say nothing about the learner's code.
HARMLESS_WARNINGS = (
    "No ccache found",  # paddle.utils.cpp_extension, at import time
    "Tensor do not have 'place' interface for pir graph mode",  # inside paddle.utils.run_check()
)


def setup(seed=2024, quiet=True):
    """Quiet Paddle's logs, seed every random generator, set plot defaults.

    Call it in a lesson's first cell. Safe to call again: it only resets state.
    """
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
    _friendly_check_failures()
    _catchup_magic()
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


def _catchup_magic():
    """Make `%catchup l02-ex3` available without a `%load_ext` line."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None:
        from .catchup import load_ipython_extension

        load_ipython_extension(shell)


def _friendly_check_failures():
    """In IPython, show a failed check as its message alone, not a traceback.

    The error is still an error output, so nbgrader still scores the cell 0.
    """
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None:
        return
    from .checks import CheckFailed

    def show_message_only(shell, etype, value, tb, tb_offset=None):
        shell._showtraceback(etype, value, [f"{etype.__name__}: {value}"])

    shell.set_custom_exc((CheckFailed,), show_message_only)
