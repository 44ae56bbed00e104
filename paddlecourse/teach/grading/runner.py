"""Runs one notebook inside the sandbox: ``python -m paddlecourse.teach.grading.runner`` reads a job on stdin.

The job is JSON: ``{"cells": [source, ...], "kernel": "paddlecourse", "cell_timeout": 15, "cell_bytes": N,
"nonce": "...", "files": {name: text}, "records": name, "cell_timeouts": {"3": 120}, "answer_seconds": 15}`` (code cells only,
in order; ``cell_timeouts`` gives the grader's own cells a limit of their own, so a slow machine or a
busy neighbour cannot make a trusted step fail on the student's budget). ``files`` are
written to the working directory before the kernel starts (the judge's data). For every cell it
writes one JSON line to its stdout as soon as the cell ends: ``{"index": i, "outputs": [...],
"status": "ok"}`` (nbformat outputs, and the status of the kernel's execute_reply: "ok", "error",
or "" when none came), then one ``{"record": line}`` per new line the kernel appended to the
``records`` file during that cell (an answer run's recorded calls); at the end ``{"done": true}``,
or ``{"stopped": reason, "at": i}`` when the kernel died or would not stop. Lines already written survive
when the grader kills the sandbox.

Every line carries the job's ``nonce``, and the grader reads only lines that do. The kernel never
sees the nonce (it comes on stdin, read before the kernel starts, and this process is made
non-dumpable so the kernel, same uid, cannot read its memory or open its file descriptors
through /proc). That matters because the kernel can otherwise write to the sandbox's stdout
pipe: bubblewrap's own process 1 inside the sandbox holds it, and /proc/1/fd/1 is writable for
the kernel. A line without the nonce is ignored.

It talks to the kernel with jupyter_client directly (nbclient and nbformat cost seconds of
imports per run). It shares the sandbox with the student's code, so nothing it writes is
trusted beyond that: the grader treats the outputs of a student's cell as claims and checks them.
"""
import ctypes
import json
import os
import queue
import signal
import sys
import time

PR_SET_DUMPABLE = 4
MAX_RECORD_LINE = 32 << 20


def _trim(outputs, limit):
    """At most ``limit`` bytes of a cell's outputs: text cut, anything else dropped when over."""
    kept, used = [], 0
    for output in outputs:
        size = len(json.dumps(output))
        if used + size <= limit:
            kept.append(output)
            used += size
            continue
        room = max(limit - used - 200, 0)
        if output.get("output_type") == "stream" and room:
            kept.append({**output, "text": output["text"][:room] + "\n... (output cut)\n"})
        else:
            kept.append({"output_type": "stream", "name": "stdout", "text": "... (output cut)\n"})
        break
    return kept


class Outputs:
    """A cell's outputs as they arrive, never more than ``limit`` bytes held."""

    def __init__(self, limit):
        self.items, self.limit, self.size, self.cut = [], limit, 0, False

    def add(self, output):
        size = len(json.dumps(output))
        if self.size + size > self.limit:
            if output.get("output_type") == "error":  # an error always counts, cut short
                output = {**output, "evalue": str(output.get("evalue", ""))[:500],
                          "traceback": output.get("traceback", [])[-3:]}
                self.items.append(output)
            elif not self.cut and output.get("output_type") == "stream":
                room = max(self.limit - self.size - 200, 0)
                self.items.append({**output, "text": output["text"][:room] + "\n... (output cut)\n"})
            self.cut = True
            self.size = self.limit
            return
        if (output.get("output_type") == "stream" and self.items and self.items[-1].get("output_type") == "stream"
                and self.items[-1]["name"] == output["name"]):
            self.items[-1] = {**self.items[-1], "text": self.items[-1]["text"] + output["text"]}
        else:
            self.items.append(output)
        self.size += size


def _reply_status(kc, msg_id, wait=10.0):
    """The status of the kernel's execute_reply to ``msg_id`` ("ok", "error", ...), or "" if none came."""
    deadline = time.monotonic() + wait
    while (remaining := deadline - time.monotonic()) > 0:
        try:
            reply = kc.get_shell_msg(timeout=remaining)
        except queue.Empty:
            break
        if reply.get("parent_header", {}).get("msg_id") == msg_id:
            return str(reply.get("content", {}).get("status", ""))
    return ""


class KernelClock:
    """Seconds of the kernel's own time: the wall clock less the time its main thread waited for a CPU
    (the run-queue delay in /proc/<pid>/schedstat). A busy machine makes a cell take longer without using
    up its budget, so an honest cell is graded the same quiet or loaded. Never less than a quarter of the
    wall clock: a kernel that keeps itself waiting stretches its budget at most four times (and the whole
    notebook's limit, kept from outside on the wall clock, still holds). Where the kernel has no
    schedstat, it is the wall clock."""

    STRETCH = 4

    def __init__(self, pid):
        self.path = f"/proc/{pid}/schedstat" if pid else None

    def _waited(self):
        try:
            with open(self.path) as handle:
                return int(handle.read().split()[1]) / 1e9
        except (OSError, TypeError, ValueError, IndexError):
            return 0.0

    def now(self):
        wall = time.monotonic()
        return wall, self._waited()

    def since(self, start):
        wall, waited = self.now()
        elapsed = wall - start[0]
        return max(elapsed - (waited - start[1]), elapsed / self.STRETCH)


def run_cell(km, kc, code, timeout, limit, answer_seconds=15, clock=None):
    """Execute one cell; returns (outputs, stop reason or '', the execute_reply's status).

    Its ``timeout`` (and the same again after an interrupt) is counted on ``clock``, the kernel's own time.
    A kernel says "busy" the moment it takes a cell, however loaded the machine: one that says nothing for
    ``answer_seconds`` has stopped answering (patched builtins break its messaging), and a grader's cell
    with a long budget of its own would otherwise wait that budget out twice."""
    clock = clock or KernelClock(None)
    msg_id = kc.execute(code, store_history=True, allow_stdin=False, stop_on_error=False)
    outputs = Outputs(limit)
    sent = started = clock.now()
    interrupted = answered = False
    while True:
        if not answered and clock.since(sent) > answer_seconds:
            return outputs.items, f"the kernel stopped answering (nothing for {answer_seconds} s)", ""
        remaining = timeout - clock.since(started)
        if remaining <= 0:
            if interrupted:  # it swallowed the interrupt
                return outputs.items, f"a cell did not stop {timeout} s after it was interrupted", ""
            km.interrupt_kernel()
            interrupted = True
            started = clock.now()
            continue
        try:
            message = kc.get_iopub_msg(timeout=min(remaining, 1.0))
        except queue.Empty:
            if not km.is_alive():
                return outputs.items, f"the kernel died{_how_it_ended(km)}", ""
            continue
        if message.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        answered = True
        kind, content = message["msg_type"], message["content"]
        if kind == "status" and content.get("execution_state") == "idle":
            return outputs.items, "", _reply_status(kc, msg_id)
        if kind == "stream":
            outputs.add({"output_type": "stream", "name": content.get("name", "stdout"), "text": content.get("text", "")})
        elif kind in ("execute_result", "display_data"):
            output = {"output_type": kind, "data": content.get("data", {}), "metadata": content.get("metadata", {})}
            if kind == "execute_result":
                output["execution_count"] = content.get("execution_count")
            outputs.add(output)
        elif kind == "error":
            outputs.add({"output_type": "error", "ename": content.get("ename", ""), "evalue": content.get("evalue", ""),
                         "traceback": content.get("traceback", [])})
        elif kind == "clear_output":
            outputs.items, outputs.size = [], 0


def _how_it_ended(km):
    """", killed by SIGABRT" or ", exit code 1" (what the instructor needs to tell a crash, the memory limit's
    SIGKILL and a student's exit apart), or "" when the kernel's process cannot be asked."""
    process = getattr(getattr(km, "provisioner", None), "process", None)
    code = process.poll() if process is not None else None
    if code is None:
        return ""
    if code < 0:
        try:
            return f", killed by {signal.Signals(-code).name}"
        except ValueError:
            return f", killed by signal {-code}"
    return f", exit code {code}"


def not_dumpable():
    """Keep processes of the same uid (the kernel) out of this one's memory and /proc/<pid>/fd."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


class Records:
    """New complete lines of the kernel's records file, read after each cell."""

    def __init__(self, name):
        self.path, self.offset = (os.path.abspath(name) if name else None), 0

    def new_lines(self):
        if not self.path or not os.path.isfile(self.path) or os.path.islink(self.path):
            return []
        with open(self.path, "rb") as handle:
            handle.seek(self.offset)
            data = handle.read()
        end = data.rfind(b"\n")
        if end < 0:
            return []
        self.offset += end + 1
        return [line.decode("utf-8", "replace") for line in data[:end].split(b"\n") if 0 < len(line) <= MAX_RECORD_LINE]


def main():
    not_dumpable()
    from jupyter_client import KernelManager

    job = json.loads(sys.stdin.read())
    nonce = str(job.get("nonce", ""))
    for name, text in (job.get("files") or {}).items():
        if os.path.basename(name) == name and not name.startswith("."):
            with open(name, "w", encoding="utf-8") as handle:
                handle.write(text)
    records = Records(job.get("records"))
    out = os.fdopen(os.dup(1), "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # the kernel inherits fd 1 and 2: to nowhere
    os.dup2(devnull, 2)

    def emit(record):
        # a line of its own even after a partial line someone else wrote into the pipe
        out.write("\n" + json.dumps({**record, "nonce": nonce}) + "\n")
        out.flush()

    timeout = int(job.get("cell_timeout", 15))
    own_timeouts = {int(index): int(seconds) for index, seconds in (job.get("cell_timeouts") or {}).items()}
    limit = int(job.get("cell_bytes", 64 << 10))
    trusted_limit = int(job.get("trusted_cell_bytes", limit))   # the grader's own cells (a report may carry a model)
    answer_seconds = int(job.get("answer_seconds", 15))
    km = KernelManager(kernel_name=job.get("kernel", "python3"))
    try:
        km.start_kernel(extra_arguments=["--HistoryManager.hist_file=:memory:"], cwd=os.getcwd())
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=120)
        clock = KernelClock(getattr(km.provisioner, "pid", None))
        for index, code in enumerate(job["cells"]):
            outputs, stopped, status = run_cell(km, kc, code, own_timeouts.get(index, timeout),
                                                trusted_limit if index in own_timeouts else limit, answer_seconds,
                                                clock)
            emit({"index": index, "outputs": outputs, "status": status})
            for line in records.new_lines():
                emit({"record": line})
            if stopped:
                emit({"stopped": f"{stopped} (cell {index})", "at": index})
                return
        emit({"done": True})
    except Exception as error:  # the kernel would not start, ...
        emit({"stopped": f"{type(error).__name__}: {str(error)[:200]}"})
    finally:
        try:
            km.shutdown_kernel(now=True)  # killed at once; the sandbox's end kills the rest
        finally:
            os._exit(0)


if __name__ == "__main__":
    main()
