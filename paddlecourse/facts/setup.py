"""Lesson 00's statements about Paddle (gradients of created tensors, run_check's warning, CUDAPlace, Pythons) and
about pip's configuration (section 3: the installed pip, which lesson 00 runs)."""
from ..language import N_
from .fact import Fact

REQUIRES_GRAD = '''
import paddle
try:
    observed = "stop_gradient=%s" % paddle.randn([2], requires_grad=True).stop_gradient
except TypeError as error:
    observed = "TypeError: %s" % error
'''

PLACE_WARNING = '''
import contextlib, io, warnings
import paddle
with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(io.StringIO()):
    warnings.simplefilter("always")
    paddle.utils.run_check()
found = [str(w.message) for w in caught if "'place' interface" in str(w.message)]
observed = found[0] if found else "no such warning"
'''

# a process of its own: on Paddle 3.0.0 CUDAPlace(0) ends the process that asks
CUDA_PLACE = '''
import os, re, subprocess, sys
asked = subprocess.run([sys.executable, "-W", "ignore", "-c", "import paddle; paddle.CUDAPlace(0)"],
                       capture_output=True, text=True, timeout=120, env={**os.environ, "GLOG_minloglevel": "2"})
last = (asked.stderr.strip().splitlines() or [""])[-1]
if asked.returncode == 0:
    observed = "no error: this build can use a GPU"
elif re.match(r"\\w+Error: ", last):
    observed = re.sub(r" \\(at [^)]*\\)", "", last)
else:
    observed = "no exception: the process ended with status %d" % asked.returncode
'''

PYTHONS = '''
from importlib import metadata
classifiers = metadata.distribution("paddlepaddle").metadata.get_all("Classifier") or []
observed = ", ".join(c.rsplit(":: ", 1)[1] for c in classifiers if c.startswith("Programming Language :: Python :: 3."))
'''

RUN_CHECK_LINES = '''
import contextlib, io
import paddle
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    paddle.utils.run_check()
observed = len(printed.getvalue().strip().splitlines())
'''

MIXED_DTYPES = '''
import numpy as np
import paddle
try:
    paddle.matmul(paddle.randn([4, 3]), paddle.to_tensor(np.ones((3, 5))))   # float32 @ float64
    observed = "no error"
except Exception as error:
    observed = "%s: %s" % (type(error).__name__, str(error).split(" currently")[0])
'''

# lesson 00's pip_in_fresh_home: a throw-away HOME, none of this machine's PIP_* settings, one variable set
PIP_CONFIG_LIST = '''
import os, subprocess, sys, tempfile
from importlib import metadata
from packaging.version import Version
home = tempfile.mkdtemp()
env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") and k != "XDG_CONFIG_HOME"}
env.update(HOME=home)
pip = [sys.executable, "-m", "pip", "--no-color", "config"]
subprocess.run(pip + ["set", "global.index-url", "https://mirror.example.invalid/simple"], env=env, capture_output=True)
listed = subprocess.run(pip + ["list"], env={**env, "PIP_TIMEOUT": "7"}, capture_output=True, text=True).stdout
try:
    version = Version(metadata.version("pip"))
    observed = {"pip": "25.2 or later" if version >= Version("25.2") else "before 25.2",
                "lines": [line for line in listed.splitlines() if "index-url" in line or "timeout" in line]}
except metadata.PackageNotFoundError:   # a venv made without pip (uv venv): lesson 00's pip cells need one
    observed = "pip is not installed in this Python"
'''

FACTS = [
    Fact("00", N_("section 1, run_check() from a terminal"),
         N_("run_check() warns `Tensor do not have 'place' interface for pir graph mode …`"),
         PLACE_WARNING, "Tensor do not have 'place' interface for pir graph mode, try not to use it. None will be returned."),
    Fact("00", N_("section 1, what run_check() does, and what it does not"), N_("run_check() prints three short lines"), RUN_CHECK_LINES, 3),
    Fact("00", N_("section 1, the check that proves nothing"),
         N_("paddle.randn(..., requires_grad=True) makes a tracked tensor (PyTorch's name for stop_gradient=False)"),
         REQUIRES_GRAD, "stop_gradient=False"),
    Fact("00", N_("section 2, a CPU build asked for a GPU"),
         N_("a CPU build asked for CUDAPlace(0) logs the cause, then raises `ValueError: (InvalidArgument) use wrong place`"),
         CUDA_PLACE, "ValueError: (InvalidArgument) use wrong place, Please check."),
    Fact("00", N_("exercise 1, float32 and float64"),
         N_("matmul of a float32 and a float64 tensor fails: `The type of data we are trying to retrieve ... does not match`"),
         MIXED_DTYPES, "ValueError: (InvalidArgument) The type of data we are trying to retrieve (float64) does not match "
                       "the type of data (float32)"),
    Fact("00", N_("section 2, Python version"), N_("the installed paddlepaddle declares Python 3.9–3.13"),
         PYTHONS, "3.9, 3.10, 3.11, 3.12, 3.13"),
    Fact("00", N_("section 3, pip config list and debug"),
         N_("pip config list marks a PIP_* value with :env:, after the files' values (pip before 25.2: before them)"),
         PIP_CONFIG_LIST, {"pip": "25.2 or later", "lines": ["global.index-url='https://mirror.example.invalid/simple'",
                                                             ":env:.timeout='7'"]},
         also_fine=({"pip": "before 25.2", "lines": [":env:.timeout='7'",
                                                     "global.index-url='https://mirror.example.invalid/simple'"]},)),
]
