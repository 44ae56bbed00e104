"""static_mode(): the only way the course enters Paddle's static graph mode."""
import contextlib


@contextlib.contextmanager
def static_mode():
    """Switch Paddle to static graph mode for the ``with`` body, then back.

    Dynamic mode is restored even when the body raises, so a failed cell or a
    cell run twice never leaves the kernel in the wrong mode::

        with static_mode():
            main, startup = paddle.static.Program(), paddle.static.Program()
            ...
    """
    import paddle

    was_dynamic = paddle.in_dynamic_mode()
    paddle.enable_static()
    try:
        yield
    finally:
        if was_dynamic:
            paddle.disable_static()
