"""What a set of processes holds in memory, each page once: the measure of one learner's cost.

RSS counts a shared page once per process that maps it: a learner's kernel and the child Python a lesson
starts both map Paddle's 200-odd MB of libraries, so their RSS adds those pages twice although the machine
holds them once. PSS divides a shared page among every process on the machine that maps it, so one learner's
PSS falls as more learners share the libraries. A learner alone in a container (Binder, a Kubernetes pod)
is charged each page its processes touch once: that is this footprint, counted from the physical page
numbers in /proc/<pid>/pagemap (readable by root only; elsewhere it is None). The samplers of
benchmarks/hub_load.py and bench_learners.py read RSS, PSS and CPU of each process here too.
"""
import os
import subprocess
import sys

import numpy as np

PAGE = os.sysconf("SC_PAGE_SIZE")
_PRESENT = np.uint64(1 << 63)
_FRAME = np.uint64((1 << 55) - 1)


def _frames(pid):
    found = []
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for line in maps:
            start, end = (int(x, 16) for x in line.split(None, 1)[0].split("-"))
            if start >= 1 << 47:   # [vsyscall]: not in the page map
                continue
            pagemap.seek(start // PAGE * 8)
            entries = np.frombuffer(pagemap.read((end - start) // PAGE * 8), dtype=np.uint64)
            found.append(entries[(entries & _PRESENT) != 0] & _FRAME)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.uint64)


def footprint_bytes(pids):
    """Bytes of the distinct resident pages of ``pids`` together; None without root (no page numbers)."""
    frames = []
    for pid in pids:
        try:
            frames.append(_frames(pid))
        except (FileNotFoundError, ProcessLookupError):
            continue    # ended meanwhile
        except PermissionError:
            return None
    every = np.concatenate(frames) if frames else np.zeros(0, dtype=np.uint64)
    if every.size and not every.any():
        return None     # page numbers read as zero: not root
    return int(np.unique(every).size) * PAGE


def paddle_alone_bytes():
    """The footprint of one Python that imported Paddle and nothing more, measured now: the floor under every
    learner (a kernel is at least that), and the unit a learner's budget is stated in, on any machine."""
    child = subprocess.Popen([sys.executable, "-c", "import paddle, sys; print('ready', flush=True); sys.stdin.read()"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        child.stdout.readline()
        return footprint_bytes([child.pid])
    finally:
        child.kill()
        child.wait()


def rss_pss_cpu(process):
    """(RSS bytes, PSS bytes, CPU seconds) of one psutil.Process, or None when it ended or may not be read."""
    import psutil

    try:
        info, times = process.memory_full_info(), process.cpu_times()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return None
    return info.rss, getattr(info, "pss", info.rss), times.user + times.system
