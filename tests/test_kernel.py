"""The course kernel: installed in this environment, and Paddle is silent inside it."""
import json
import subprocess
import sys
from pathlib import Path

from jupyter_client.manager import start_new_kernel

from paddlecourse.kernel import KERNEL_ENV, KERNEL_NAME

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
