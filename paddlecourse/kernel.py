"""The course kernel: a Jupyter kernelspec that starts Python with Paddle already quiet.

glog reads GLOG_minloglevel only once, at the first `import paddle`, so the
kernel's environment is the one place where it always wins.
"""
import sys

from .session import HARMLESS_WARNINGS

KERNEL_NAME = "paddlecourse"
DISPLAY_NAME = "Python 3 (paddlecourse)"
KERNEL_ENV = {
    "GLOG_minloglevel": "2",
    # The same warnings setup() filters, silenced from the first line of the kernel on.
    "PYTHONWARNINGS": ",".join(f"ignore:{text}:UserWarning" for text in HARMLESS_WARNINGS),
}


def install_kernel(prefix=None, user=False):
    """Install the course kernelspec; returns the folder it was written to.

    By default it goes into the running environment (``sys.prefix``), so a
    venv, a conda env and a Binder image each get their own copy.
    """
    from ipykernel.kernelspec import install

    return install(
        kernel_name=KERNEL_NAME,
        display_name=DISPLAY_NAME,
        user=user,
        prefix=None if user else (prefix or sys.prefix),
        env=dict(KERNEL_ENV),
    )
