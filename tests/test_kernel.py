"""The course kernel: installed in this environment, and Paddle is silent inside it."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from jupyter_client.manager import start_new_kernel

from paddlecourse.kernel import KERNEL_ENV, KERNEL_NAME

ROOT = Path(__file__).resolve().parent.parent

# Runs a static program: without GLOG_minloglevel, Paddle logs "New Executor is Running" on stderr.
NOISY_CODE = """
import numpy as np
import paddle
from paddlecourse import static_mode
with static_mode():
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        y = paddle.static.data("x", [1], "float32") * 2
    exe = paddle.static.Executor(paddle.CPUPlace())
    print(exe.run(main, feed={"x": np.ones(1, "float32")}, fetch_list=[y])[0])
"""


def test_the_course_kernel_is_listed_with_its_environment():
    listed = json.loads(subprocess.run([sys.executable, "-m", "jupyter", "kernelspec", "list", "--json"],
                                       capture_output=True, text=True, check=True).stdout)
    spec = listed["kernelspecs"][KERNEL_NAME]["spec"]
    assert spec["display_name"] == "Python 3 (paddlecourse)"
    assert spec["env"] == KERNEL_ENV
    assert Path(spec["argv"][0]).parent == Path(sys.executable).parent, "the kernel runs this environment's Python"


def test_paddle_prints_no_log_lines_or_warnings_in_the_course_kernel(tmp_path):
    # glog writes to the kernel process's own stderr; warnings arrive as stderr stream messages.
    process_stderr = (tmp_path / "kernel-stderr.txt").open("w")
    manager, client = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=60, stderr=process_stderr)
    streams = {"stdout": "", "stderr": ""}

    def keep(message):
        if message["msg_type"] == "stream":
            streams[message["content"]["name"]] += message["content"]["text"]

    try:
        reply = client.execute_interactive(NOISY_CODE, timeout=120, output_hook=keep)
        assert reply["content"]["status"] == "ok"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
        process_stderr.close()
    assert streams["stdout"].strip() == "[2.]"
    glog_lines = [line for line in (tmp_path / "kernel-stderr.txt").read_text().splitlines() if ".cc:" in line]
    assert not glog_lines, f"Paddle's C++ log reached the kernel: {glog_lines[:3]}"
    assert streams["stderr"] == "", f"the course kernel let this through: {streams['stderr'][:500]}"


# ---------------------------------------------------------------- what the kernel does at start, before setup()

@pytest.fixture(scope="module")
def fresh_course_kernel(tmp_path_factory):
    """A kernel started from a kernelspec install_kernel() writes now (not the one installed in the venv)."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    from paddlecourse.kernel import install_kernel

    folder = Path(install_kernel(prefix=str(tmp_path_factory.mktemp("prefix"))))
    specs = KernelSpecManager(kernel_dirs=[str(folder.parent)])
    manager = KernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=specs)
    manager.start_kernel(cwd=str(ROOT / "lessons"))
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=60)
    try:
        yield client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def execute(client, code):
    """(stream text, [error contents], [set_next_input payloads]) of one execution."""
    streams, errors = [], []

    def keep(message):
        if message["msg_type"] == "stream":
            streams.append(message["content"]["text"])
        elif message["msg_type"] == "error":
            errors.append(message["content"])

    reply = client.execute_interactive(code, timeout=120, output_hook=keep)
    payloads = [p for p in reply["content"].get("payload", []) if p.get("source") == "set_next_input"]
    return "".join(streams), errors, payloads


def test_the_kernelspec_loads_the_course_extension_and_keeps_its_environment(tmp_path):
    from paddlecourse.kernel import STARTUP_ARGUMENTS, install_kernel

    folder = Path(install_kernel(prefix=str(tmp_path)))
    install_kernel(prefix=str(tmp_path))  # installing twice does not repeat the arguments
    spec = json.loads((folder / "kernel.json").read_text())
    assert spec["env"] == KERNEL_ENV
    assert spec["argv"][-len(STARTUP_ARGUMENTS):] == STARTUP_ARGUMENTS
    assert spec["argv"].count(STARTUP_ARGUMENTS[0]) == 1


def test_installing_the_kernel_also_gives_the_environments_lab_the_course_defaults(tmp_path, capsys):
    """`paddlecourse kernel` (run by make setup, Binder's postBuild and deploy/install.sh) writes the Lab defaults
    where JupyterLab's settings server reads them as defaults (its overrides.d folder); the browser test of a
    learner's Lab (tests/browser/test_learner_interface.py) checks a running Lab takes them."""
    from jupyterlab_server.settings_utils import _get_overrides

    from paddlecourse.cli import main
    from paddlecourse.kernel import LAB_DEFAULTS

    assert main(["kernel", "--prefix", str(tmp_path)]) == 0
    assert "course defaults (no news toast" in capsys.readouterr().out
    assert (tmp_path / "share" / "jupyter" / "kernels" / KERNEL_NAME / "kernel.json").is_file()
    overrides, error = _get_overrides(str(tmp_path / "share" / "jupyter" / "lab" / "settings"))
    assert not error and overrides == LAB_DEFAULTS
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"


def test_catchup_works_before_the_setup_cell_and_answers_typos_with_real_ids(fresh_course_kernel):
    out, errors, payloads = execute(fresh_course_kernel, "%catchup l00-ex2")
    assert not errors and "in a new cell below" in out
    assert payloads and "one_off_install" in payloads[0]["text"]
    for typo, meant in [("l0-ex2", "l00-ex2"), ("l00ex2", "l00-ex2"), ("l00-ex9", "l00-ex1, l00-ex2, l00-ex3 or l00-ex4")]:
        out, errors, payloads = execute(fresh_course_kernel, f"%catchup {typo}")
        assert not errors and not payloads, errors
        assert f"Did you mean {meant}?" in out, out
        assert "/" not in out.replace("`", ""), f"a path leaked: {out}"  # no absolute path, no traceback
    out, errors, _ = execute(fresh_course_kernel, "from paddlecourse.catchup import catchup\ncatchup('l0-ex2')")
    assert len(errors) == 1 and errors[0]["traceback"] == [
        "CatchUpError: 'l0-ex2' is not an exercise id. Did you mean l00-ex2? Exercise ids look like l02-ex3 "
        "(lesson 02, exercise 3); `progress(\"l02\")` at the end of a lesson lists them."]


def test_an_undefined_name_is_one_sentence_even_before_setup(fresh_course_kernel):
    _, errors, _ = execute(fresh_course_kernel, "hidden_shape")
    assert [e["ename"] for e in errors] == ["NameError"]  # still an error: nbgrader scores 0
    assert errors[0]["traceback"] == [
        "NameError: `hidden_shape` is not defined yet: run the cell that defines it — usually the answer cell "
        "above (if you ran it, it stopped with an error before defining it: its last line says why), "
        "or the lesson's earlier cells after a kernel restart."]
    _, errors, _ = execute(fresh_course_kernel, "def f():\n    return not_there\nf()")
    assert "(your function `f` uses it)" in errors[0]["traceback"][0]
    _, errors, _ = execute(fresh_course_kernel, "1 / 0")
    assert errors[0]["ename"] == "ZeroDivisionError" and len(errors[0]["traceback"]) > 1  # others: a normal traceback
    _, errors, _ = execute(fresh_course_kernel, "# YOUR CODE HERE\nraise NotImplementedError()")
    assert [e["ename"] for e in errors] == ["NotImplementedError"] and len(errors[0]["traceback"]) == 1
    assert errors[0]["traceback"][0].startswith("NotImplementedError: this answer cell still waits for you")
