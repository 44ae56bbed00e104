"""The sandbox around every submission, tested with a plain Python kernel (no Paddle: fast).

What it must hold: no view of the course directory or the repository's solutions, no network
(not even to the grader's own loopback), the system and the course environment read-only, no
process outliving the run, and limits on memory, file size, time per cell and per notebook,
and output bytes. Where bubblewrap is missing, grading refuses unless told --no-sandbox.
"""
import json
import os
import socket
import sys
import threading
import time
from pathlib import Path

import pytest
from nbformat.v4 import new_code_cell

from paddlecourse import cli
from paddlecourse.teach.grading import sandbox
from paddlecourse.teach.grading.runs import run_cells as _run

sys.path.insert(0, str(Path(__file__).parent))
from grading_class import live_processes, sandbox_or_skip  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MARKER = "paddlecourse-sandbox-test-orphan"


def run(cells, **limits):
    sandbox_or_skip()
    chosen = sandbox.Limits(cell_seconds=10, notebook_seconds=120)
    for key, value in limits.items():
        setattr(chosen, key, value)
    return _run([new_code_cell(c) for c in cells], chosen, True, "python3")


def last_json(outputs, index):
    text = "".join(o.get("text", "") for o in outputs[index] if o.get("output_type") == "stream")
    return json.loads(text.strip().splitlines()[-1])


def test_it_sees_nothing_of_the_machine_and_leaves_nothing_behind(tmp_path):
    course = tmp_path / "course"
    (course / "source").mkdir(parents=True)
    (course / "gradebook.db").write_text("secret")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    accepted, run_over = [], threading.Event()

    def accept():  # listens while the sandbox runs, and a moment after (a connection would be queued by then)
        while not run_over.is_set() and not accepted:
            try:
                accepted.append(listener.accept())
            except OSError:
                pass

    watcher = threading.Thread(target=accept, daemon=True)
    watcher.start()
    outputs, stopped, result = run([
        f"""import json, os
print(json.dumps({{"course": os.path.exists({str(course)!r}), "solutions": os.path.exists({str(ROOT / 'solutions')!r}),
                  "tests": os.path.exists({str(ROOT / 'tests')!r}), "home": os.listdir(os.path.expanduser('~')),
                  "root_home": os.path.exists('/root/.ssh'), "etc": os.path.exists('/etc/shadow')}}))""",
        f"""import socket, json
results = {{}}
for host in [("127.0.0.1", {port}), ("1.1.1.1", 80)]:
    try:
        socket.create_connection(host, timeout=2); results[str(host)] = "connected"
    except OSError as error:
        results[str(host)] = type(error).__name__
print(json.dumps(results))""",
        f"""import json, sys
written = []
for path in [{sys.prefix + '/canary'!r}, {str(ROOT / 'paddlecourse' / 'canary')!r}, "/usr/canary"]:
    try:
        open(path, "w").write("x"); written.append(path)
    except OSError:
        pass
print(json.dumps(written))""",
        f"""import subprocess, sys
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", {MARKER!r}], start_new_session=True)
subprocess.Popen(["/bin/sh", "-c", "nohup sleep 300 {MARKER} >/dev/null 2>&1 &"])
print("[]")""",
        """import json
try:
    block = bytearray(8 << 30); print(json.dumps("allocated"))
except MemoryError:
    print(json.dumps("MemoryError"))""",
        """import json
try:
    with open("/tmp/big", "wb") as f:
        f.write(b"x" * (300 << 20))
    print(json.dumps("written"))
except OSError as error:
    print(json.dumps(type(error).__name__))""",
    ])
    assert not stopped, stopped
    seen = last_json(outputs, 0)
    assert set(seen.pop("home")) <= {".ipython", ".local", ".cache", ".config"}  # only what the kernel made
    assert seen == {"course": False, "solutions": False, "tests": False, "root_home": False, "etc": False}, seen
    network = last_json(outputs, 1)
    assert all(value != "connected" for value in network.values()), network
    time.sleep(1)
    run_over.set()
    watcher.join()
    assert not accepted
    assert last_json(outputs, 2) == []
    assert last_json(outputs, 4) == "MemoryError"
    assert last_json(outputs, 5) == "OSError"
    time.sleep(1)
    assert live_processes(MARKER) == []
    for path in [Path(sys.prefix) / "canary", ROOT / "paddlecourse" / "canary"]:
        assert not path.exists()


def test_time_limits_per_cell_and_per_notebook():
    # A cell that swallows the interrupt: interrupted at the timeout, killed one timeout later, and
    # the cells after it never run. (What is asserted is what was cut, never how long it took: a
    # busy machine makes everything slower, and a limit can only stop the run sooner.)
    outputs, stopped, _ = run(["print('before')", """import time
while True:
    try:
        time.sleep(0.1)
    except KeyboardInterrupt:
        pass""", "print('never')"], cell_seconds=3)
    assert "did not stop" in stopped and 2 not in outputs
    # every cell under the per-cell limit, the notebook over its own: 8 s hold at most four 2 s cells
    outputs, stopped, result = run(["import time; time.sleep(2)"] * 30, cell_seconds=3, notebook_seconds=8)
    assert result.timed_out and "over its 8 s limit" in stopped
    assert len(outputs) <= 5, f"{len(outputs)} of 30 cells ran within an 8 s notebook limit"


def test_output_is_limited_in_bytes_not_lines():
    limit = 4 << 20
    outputs, stopped, result = run(["import sys\nfor _ in range(200):\n    sys.stdout.write('x' * (1 << 20) + '\\n')",
                                    "print('after')"] + ["print('y' * 60000)"] * 100,
                                   cell_output_bytes=64 << 10, output_bytes=limit)
    assert len(json.dumps(outputs[0])) < (64 << 10) + 1024
    assert "output cut" in outputs[0][-1]["text"]
    assert len(result.stdout) <= limit
    assert outputs[1][0]["text"] == "after\n"


def test_grading_refuses_without_bubblewrap_unless_told(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(sandbox, "bwrap_path", lambda: None)
    # a course directory with one collected submission, as far as `grade` looks before it starts
    (tmp_path / "nbgrader_config.py").write_text('c = get_config()\nc.CourseDirectory.course_id = "paddlecourse"\n')
    (tmp_path / "submitted" / "ada" / "l00").mkdir(parents=True)
    code = cli.main(["course", "grade", "l00", "--dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 3
    assert "STOPPED" in err and "--no-sandbox" in err and "gradebook.db" in err


def test_a_fork_bomb_hits_the_process_limit():
    if not sandbox.process_limit_enforced():
        reason = "no pids cgroup can be made here and RLIMIT_NPROC does not bind root: grade as a non-root user"
        if os.environ.get("CI") == "true":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    outputs, stopped, _ = run(["""import json, subprocess
children = []
try:
    for _ in range(400):
        children.append(subprocess.Popen(["sleep", "60"]))
except OSError as error:
    print(json.dumps([len(children), type(error).__name__]))
else:
    print(json.dumps([len(children), None]))"""], processes=64)
    started, error = last_json(outputs, 0)
    assert started < 64 and error is not None, (started, error)


def test_an_honest_kernel_may_hold_hundreds_of_threads():
    """Paddle's executor keeps about five threads per loaded program it ran (lesson 06's solution ends near
    200 in one kernel, more on a machine with more cores); the process limit counts threads, and at 256 it
    killed an honest judge's run in CI."""
    outputs, stopped, _ = run(["""import json, threading
threading.stack_size(256 << 10)
release = threading.Event()
started = [threading.Thread(target=release.wait, daemon=True) for _ in range(600)]
for thread in started:
    thread.start()
release.set()
print(json.dumps(len(started)))"""])
    assert not stopped and last_json(outputs, 0) == 600, (stopped, outputs)


def _cgroup_or_skip(made):
    # a skip even under CI=true: the sandbox runs without one (instructors/README.md says what that leaves open),
    # and a machine without a writable memory controller must not stop the rest of the suite from landing
    if made is None:
        pytest.skip("no memory cgroup can be made here: grade as root on a machine with cgroup v1's memory controller")
    sandbox.remove_cgroup(made)


def test_the_whole_sandbox_shares_one_memory_limit():
    """Four children of 120 MB each, every one under the address-space limit of a process, cannot together
    take more than the sandbox's memory: the memory cgroup kills some of them (SIGKILL, -9)."""
    _cgroup_or_skip(sandbox.memory_cgroup(64 << 20))
    outputs, stopped, _ = run(["""import json, subprocess, sys
grow = "import time; block = bytearray(120 << 20); time.sleep(4)"
children = [subprocess.Popen([sys.executable, "-c", grow]) for _ in range(4)]
print(json.dumps(sorted(child.wait() for child in children)))"""], sandbox_memory_bytes=320 << 20)
    codes = last_json(outputs, 0)
    assert not stopped and -9 in codes and 0 in codes, (stopped, codes)


def test_a_kernel_that_dies_is_told_apart_by_its_signal():
    outputs, stopped, _ = run(["print('before')", "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)",
                               "print('after')"])
    assert stopped == "the kernel died, killed by SIGSEGV (cell 1)", stopped


FORGE = r'''
import json, os
forged = json.dumps({"index": 1, "outputs": [{"output_type": "stream", "name": "stdout", "text": "FORGED"}]})
deep = "[" * 200000 + "]" * 200000
written, refused = [], []
for pid in os.listdir("/proc"):
    if not pid.isdigit() or int(pid) == os.getpid():
        continue
    for fd in ("1", "2", "3"):
        try:
            handle = os.open(f"/proc/{pid}/fd/{fd}", os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            os.write(handle, (forged + "\n" + json.dumps({"done": True}) + "\n").encode())
            os.write(handle, (deep + "\n").encode())
            written.append(f"{pid}/{fd}")
        except OSError:
            pass
        finally:
            os.close(handle)
    for what in ("mem", "environ", "fd"):
        try:
            os.listdir(f"/proc/{pid}/fd") if what == "fd" else open(f"/proc/{pid}/{what}", "rb").read(1)
        except OSError:
            refused.append(f"{pid}/{what}")
print(json.dumps({"written": written, "refused": refused}))
'''


def test_the_kernel_cannot_forge_the_runners_lines():
    # the kernel reaches the sandbox's stdout pipe through bubblewrap's process 1 (/proc/1/fd/1); its lines
    # lack the run's nonce and are ignored, a 200000-deep JSON line among them included (RecursionError)
    outputs, stopped, result = run([FORGE, "print('honest')", "import time; time.sleep(1)"])
    assert not stopped, stopped
    seen = last_json(outputs, 0)
    assert any(w.startswith("1/") for w in seen["written"]), seen   # the pipe is reachable: the nonce is what holds
    assert outputs[1] == [{"output_type": "stream", "name": "stdout", "text": "honest\n"}]
    assert "FORGED" not in json.dumps(outputs)
    # the runner (the kernel's parent) is non-dumpable: its memory and file descriptors are closed to the kernel
    runner = [p for p in seen["refused"] if p.endswith("/mem")]
    assert runner, seen
    assert b"FORGED" in result.stdout  # it did reach the pipe, and was not taken


def test_one_notebook_that_breaks_the_judge_does_not_stop_the_class(tmp_path):
    from paddlecourse.teach.grading.parallel import judge_student

    (tmp_path / "source" / "l99").mkdir(parents=True)
    (tmp_path / "source" / "l99" / "x.ipynb").write_text("{ not a notebook")   # nbformat.read raises on it
    (tmp_path / "submitted" / "ann" / "l99").mkdir(parents=True)
    (tmp_path / "submitted" / "ann" / "l99" / "x.ipynb").write_text('{"cells": []}')
    [judgement] = judge_student(tmp_path, "l99", "ann", use_sandbox=False)
    assert judgement.unreadable.startswith("grading this notebook failed") and judgement.needs_look


def test_the_graders_own_cells_run_on_their_own_budget_and_their_failures_are_reported():
    """A step the grader adds (reading or rebinding answers) is not held to the student's cell limit (a busy
    machine made `import` alone take longer than that), and when one raises or is stopped anyway, the
    run says which: the submission is then listed for a look instead of being scored (judge.py)."""
    sandbox_or_skip()
    from paddlecourse.teach.grading.submission import trusted_cell as _trusted

    limits = sandbox.Limits(cell_seconds=2, trusted_seconds=30, notebook_seconds=120)
    cells = [new_code_cell("x = 1"),
             _trusted("import time; time.sleep(4); print('slow step done')", "a slow step"),
             _trusted("raise RuntimeError('broken step')", "a broken step"),
             new_code_cell("print('after')")]
    outputs, stopped, result = _run(cells, limits, True, "python3")
    assert not stopped, stopped
    assert "slow step done" in "".join(o.get("text", "") for o in outputs[1])   # 4 s > the student's 2 s limit
    assert [(index, what) for index, what, _ in result.trusted_failures] == [(2, "a broken step")]
    assert "RuntimeError" in result.trusted_failures[0][2] and 3 in outputs
    # a trusted step stopped by its own limit is reported as stopped
    limits.trusted_seconds = 1
    outputs, stopped, result = _run([_trusted("import time\nwhile True:\n    try:\n        time.sleep(0.1)\n"
                                              "    except KeyboardInterrupt:\n        pass", "a stuck step")],
                                    limits, True, "python3")
    assert "did not stop" in stopped
    assert [(index, what) for index, what, _ in result.trusted_failures] == [(0, "a stuck step")]
    assert result.trusted_failures[0][2].startswith("stopped:")


def test_a_kernel_that_stops_answering_ends_the_run_without_waiting_out_the_graders_budget():
    """Patched builtins break the kernel's messaging: the grader's next cell (120 s of its own) gets no word at
    all. The run stops as "stopped answering" after answer_seconds, not after that budget twice (issue 22:
    such a submission took the whole notebook limit, 180 s)."""
    sandbox_or_skip()
    from paddlecourse.teach.grading.submission import trusted_cell as _trusted

    limits = sandbox.Limits(cell_seconds=5, trusted_seconds=120, notebook_seconds=100, answer_seconds=5)
    breaks = "import builtins\n_real = builtins.isinstance\n" \
             "builtins.isinstance = lambda obj, kind: False if kind in (str, bytes) else _real(obj, kind)"
    outputs, stopped, result = _run([new_code_cell("x = 1"), new_code_cell(breaks),
                                     _trusted("print('report')", "reading the answers")], limits, True, "python3")
    assert "stopped answering" in stopped, stopped
    assert not result.timed_out


def test_no_variable_of_the_graders_shell_is_readable_inside(monkeypatch):
    """Every process the sandbox shows (bubblewrap's own PID 1 included) holds only the sandbox's variables."""
    monkeypatch.setenv("PADDLECOURSE_GRADER_CANARY", "the-instructors-secret-token")
    outputs, stopped, _ = run(["""import json, os
seen = {}
for pid in os.listdir('/proc'):
    if pid.isdigit():
        try:
            seen[pid] = open(f'/proc/{pid}/environ', 'rb').read().decode('utf-8', 'replace')
        except OSError:
            pass
print(json.dumps(seen))"""])
    assert not stopped, stopped
    seen = last_json(outputs, 0)
    assert "1" in seen, f"/proc/1/environ was not readable, so this test proves nothing: {sorted(seen)}"
    leaked = {pid: text for pid, text in seen.items() if "the-instructors-secret-token" in text}
    assert not leaked, f"the grader's environment is readable inside the sandbox in processes {sorted(leaked)}"
    assert all("/root" not in text.split("HOME=")[-1].split("\x00")[0] for text in seen.values() if "HOME=" in text)


def test_a_sandbox_uses_at_most_its_share_of_the_cores_children_included():
    """Three child processes spinning for 3 s inside one sandbox get about one core between them, not the
    machine's two: a submission cannot starve the one graded beside it. (An upper bound on CPU time per
    second of wall time: a busy machine only lowers it.)"""
    probe = sandbox.cpu_cgroup(1.0)
    if probe is None:
        pytest.skip("no cpu cgroup can be made here (not root): the share is not enforced")
    sandbox.remove_cgroup(probe)
    outputs, stopped, _ = run(["""import json, os, subprocess, sys, time
start = time.monotonic()
spinners = [subprocess.Popen([sys.executable, "-c", "import time\\nend = time.monotonic() + 3\\nwhile time.monotonic() < end: pass"])
            for _ in range(3)]
for spinner in spinners:
    spinner.wait()
wall = time.monotonic() - start
times = os.times()
print(json.dumps({"cpu": times.children_user + times.children_system, "wall": wall}))"""],
                              cpu_cores=1.0)
    assert not stopped, stopped
    seen = last_json(outputs, 0)
    assert seen["cpu"] <= 1.25 * seen["wall"], f"three spinners used {seen['cpu']:.1f} s of CPU in {seen['wall']:.1f} s"


def test_a_busy_machine_slows_a_cell_without_using_up_its_budget():
    """A cell's budget is the kernel's own time: the wall clock less its waits for a CPU (runner.KernelClock).
    Here the sandbox shares one core with three spinning processes in a cpu cgroup of their own, a sibling of the
    sandbox's with the same weight: the scheduler gives the sandbox at most half of that core whatever else the
    machine runs (outside load only takes more), so a cell that needs 2 s of CPU takes 4 s of wall time or more:
    it finishes within a 3 s budget, and a cell that never ends is still interrupted. (Spinners left in the test's
    own group shared that group's weight with whatever the other worker ran: under load the sandbox got 90 % of
    the core, the cell took 4.4 s, and the test proved nothing.)"""
    sandbox_or_skip()
    waited = Path("/proc/self/schedstat")
    if not waited.exists():
        pytest.skip("this kernel keeps no run-queue delays (/proc/<pid>/schedstat): cells count wall time here")
    import subprocess

    rivals = sandbox.cpu_cgroup(1.0)   # on one core its quota never binds: only its weight counts
    if rivals is None:
        pytest.skip("no cpu cgroup may be made here, so the sandbox has none either")
    before = os.sched_getaffinity(0)
    core = min(before)
    os.sched_setaffinity(0, {core})   # the sandbox and the spinners inherit it
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"],
                                 preexec_fn=lambda: (rivals / "cgroup.procs").write_text(str(os.getpid())))
                for _ in range(3)]
    try:
        outputs, stopped, _ = run(["""import json, time
wall, cpu = time.monotonic(), time.process_time()
while time.process_time() - cpu < 2:
    pass
print(json.dumps({"wall": time.monotonic() - wall}))""", "while True:\n    pass", "print('after')"], cell_seconds=3)
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
        os.sched_setaffinity(0, before)
        sandbox.remove_cgroup(rivals)
    assert not stopped, stopped
    assert not any(o.get("ename") == "KeyboardInterrupt" for o in outputs[0]), \
        "the honest cell was interrupted: its budget counted the time it waited for a CPU"
    wall = last_json(outputs, 0)["wall"]
    assert wall > 3, f"the cell took {wall:.1f} s: the spinners did not slow it, so this proves nothing"
    assert any(o.get("ename") == "KeyboardInterrupt" for o in outputs[1]), outputs[1]
    assert "after" in "".join(o.get("text", "") for o in outputs[2])
