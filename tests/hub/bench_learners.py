"""Measured size per learner: each lesson's peak memory and CPU seconds, N learners at once.

    sudo .venv/bin/python tests/hub/bench_learners.py --learners 3 [--lessons 00 03] [--out deploy/measurements.json]

For every lesson, N real Unix accounts each run a real JupyterLab server (the server a hub
starts for a learner) and, at the same moment, the lesson top to bottom in the course
kernel (the solution notebook, so every exercise runs too: the heaviest a learner's run
can be). A sampler adds up, every 0.25 s, the memory of each account's processes (its Lab
server and its kernel; not the notebook client, which on a hub is the learner's browser).
Per learner and lesson it records the peak RSS, PSS and footprint (RSS counts shared libraries once
per process; PSS splits them among the processes that share them; the footprint counts each
resident page of the learner's processes once, what a container holding that learner alone is
charged: footprint.py) and the CPU seconds the server and kernel used. Sizing (deploy/sizing.py)
takes the footprint. Bounded: each lesson run has a timeout, and everything it starts -
accounts, servers, kernels - it removes. Needs root (it makes the accounts).

The figures go to deploy/measurements.json; instructors/hub.md's sizing table and
deploy/z2jh/config.yaml are computed from that file (tests/hub/sizing.py checks both).
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hubctl  # noqa: E402
from footprint import footprint_bytes, paddle_alone_bytes, rss_pss_cpu  # noqa: E402
from paddlecourse.lesson_index import lesson_paths  # noqa: E402

REPO = hubctl.REPO
PREFIX = "pcbench-"
MB = 1024 * 1024


def learner_processes(uid):
    return [p for p in psutil.process_iter(["uids", "cmdline"]) if p.info["uids"] and p.info["uids"].real == uid]


def is_client(process):
    """The nbconvert client that drives the kernel: a browser's job on a hub, so not counted."""
    return "nbconvert" in " ".join(process.info["cmdline"] or [])


class Sampler(threading.Thread):
    """Every `interval` s: each learner's total RSS and PSS (server + kernel); keeps the peaks."""

    def __init__(self, uids, interval=0.25):
        super().__init__(daemon=True)
        self.uids, self.interval = uids, interval
        self.peak_rss = {u: 0 for u in uids}
        self.peak_pss = {u: 0 for u in uids}
        self.peak_footprint = {u: 0 for u in uids}
        self.cpu = {u: {} for u in uids}  # pid -> last seen CPU seconds (server and kernel)
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.is_set():
            for uid in self.uids:
                rss = pss = 0
                pids = []
                for process in learner_processes(uid):
                    if is_client(process):
                        continue
                    measured = rss_pss_cpu(process)
                    if measured is None:
                        continue
                    rss += measured[0]
                    pss += measured[1]
                    pids.append(process.pid)
                    self.cpu[uid][process.pid] = measured[2]
                self.peak_rss[uid] = max(self.peak_rss[uid], rss)
                self.peak_pss[uid] = max(self.peak_pss[uid], pss)
                self.peak_footprint[uid] = max(self.peak_footprint[uid], footprint_bytes(pids) or 0)
            self.stopping.wait(self.interval)


def _mb(size):
    return round(size / MB) if size else None


def start_lab(user, env_dir, port):
    """A JupyterLab server as `user` in their home, as the hub would start it (no browser attached)."""
    python = env_dir / "bin" / "python"
    command = ["runuser", "-u", user, "--", "env", f"HOME=/home/{user}", f"USER={user}", f"PYTHONPATH={REPO}",
               f"LD_LIBRARY_PATH={hubctl.library_path(env_dir)}", "GLOG_minloglevel=2",
               f"PATH={env_dir / 'bin'}:/usr/bin:/bin", str(python), "-m", "jupyter", "lab", "--no-browser",
               "--ip=127.0.0.1", f"--port={port}", "--IdentityProvider.token=bench", f"--ServerApp.root_dir=/home/{user}"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/")


def wait_for_lab(port, timeout=120):
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token=bench", timeout=2).read()
            return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"JupyterLab on port {port} did not start within {timeout} s")


def run_lesson(user, env_dir, notebook, timeout):
    """The lesson, every cell, in the course kernel, as `user`; returns (seconds, ok, tail of the log)."""
    python = env_dir / "bin" / "python"
    work = Path(f"/home/{user}/{notebook.name}")
    shutil.copy(notebook, work)
    os.chown(work, hubctl.uid(user), -1)
    began = time.monotonic()
    try:
        result = subprocess.run(
            ["runuser", "-u", user, "--", "env", f"HOME=/home/{user}", f"USER={user}", f"PYTHONPATH={REPO}",
             f"LD_LIBRARY_PATH={hubctl.library_path(env_dir)}", "GLOG_minloglevel=2",
             f"PATH={env_dir / 'bin'}:/usr/bin:/bin", str(python), "-m", "jupyter", "nbconvert", "--to", "notebook",
             "--execute", "--inplace", f"--ExecutePreprocessor.timeout={timeout}",
             "--ExecutePreprocessor.kernel_name=paddlecourse", str(work)],
            capture_output=True, text=True, timeout=timeout + 60, cwd=f"/home/{user}")
    except subprocess.TimeoutExpired as stuck:   # a learner's failure, with what the run printed: not the benchmark's
        printed = stuck.stderr.decode("utf-8", "replace") if isinstance(stuck.stderr, bytes) else (stuck.stderr or "")
        return time.monotonic() - began, False, f"no end after {timeout + 60} s; it printed: {printed[-1500:]}"
    return time.monotonic() - began, result.returncode == 0, result.stderr[-1500:]


def measure(learners, lessons, timeout):
    tmp = Path(tempfile.mkdtemp(prefix=PREFIX))
    tmp.chmod(0o755)
    users = [f"{PREFIX}{i}" for i in range(1, learners + 1)]
    servers = []
    results = {}
    try:
        hubctl.remove_accounts(hubctl.leftover_accounts(PREFIX), groups=False)
        for user in users:
            hubctl.run("useradd", "--create-home", "--shell", "/bin/bash", user)
            os.chmod(f"/home/{user}", 0o700)
        env_dir = tmp / "env"
        hubctl.course_environment(env_dir)
        # each home holds what an nbgitpuller link puts there: a clone of the course
        for user in users:
            hubctl.run("git", "clone", "--quiet", "--no-hardlinks", str(REPO), f"/home/{user}/paddlecourse")
            hubctl.run("chown", "-R", f"{user}:", f"/home/{user}/paddlecourse")
        ports = [hubctl.free_port() for _ in users]
        servers = [start_lab(u, env_dir, p) for u, p in zip(users, ports)]
        for port in ports:
            wait_for_lab(port)
        uids = [hubctl.uid(u) for u in users]
        idle = {u: sum(p.memory_info().rss for p in learner_processes(uid)) for u, uid in zip(users, uids)}
        for notebook in lessons:
            sampler = Sampler(uids)
            cpu_before = {uid: {p.pid: sum(p.cpu_times()[:2]) for p in learner_processes(uid) if not is_client(p)}
                          for uid in uids}
            sampler.start()
            outcomes = {}
            threads = [threading.Thread(target=lambda u=u: outcomes.__setitem__(u, run_lesson(u, env_dir, notebook, timeout)))
                       for u in users]
            began = time.monotonic()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wall = time.monotonic() - began
            sampler.stopping.set()
            sampler.join()
            per_learner = []
            for user, uid in zip(users, uids):
                seconds, ok, log = outcomes[user]
                cpu = sum(t - cpu_before[uid].get(pid, 0.0) for pid, t in sampler.cpu[uid].items())
                per_learner.append({"learner": user, "ok": ok, "seconds": round(seconds, 1),
                                    "peak_rss_mb": round(sampler.peak_rss[uid] / MB),
                                    "peak_pss_mb": round(sampler.peak_pss[uid] / MB),
                                    "peak_footprint_mb": round(sampler.peak_footprint[uid] / MB), "cpu_seconds": round(cpu, 1),
                                    **({} if ok else {"log": log})})
            results[notebook.stem] = {
                "wall_seconds": round(wall, 1),
                "peak_rss_mb": max(r["peak_rss_mb"] for r in per_learner),
                "peak_pss_mb": max(r["peak_pss_mb"] for r in per_learner),
                "peak_footprint_mb": max(r["peak_footprint_mb"] for r in per_learner),
                "cpu_seconds": max(r["cpu_seconds"] for r in per_learner),
                "median_peak_rss_mb": round(statistics.median(r["peak_rss_mb"] for r in per_learner)),
                "learners": per_learner,
            }
            print(f"{notebook.stem}: peak RSS {results[notebook.stem]['peak_rss_mb']} MB, "
                  f"PSS {results[notebook.stem]['peak_pss_mb']} MB, footprint "
                  f"{results[notebook.stem]['peak_footprint_mb']} MB, CPU {results[notebook.stem]['cpu_seconds']} s, "
                  f"{wall:.0f} s wall, ok={[r['ok'] for r in per_learner]}", flush=True)
        homes = [int(hubctl.run("du", "-sm", f"/home/{u}").stdout.split()[0]) for u in users]
        return {"idle_server_rss_mb": round(max(idle.values()) / MB), "home_mb": max(homes),
                "paddle_alone_footprint_mb": _mb(paddle_alone_bytes()), "lessons": results}
    finally:
        for server in servers:
            server.terminate()
        hubctl.remove_accounts(users, groups=False)
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=3, help="learners running each lesson at once")
    parser.add_argument("--lessons", nargs="*", help="lesson numbers, e.g. 00 03 (default: all)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds one lesson run may take")
    parser.add_argument("--out", default=str(REPO / "deploy" / "measurements.json"))
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        parser.error("run as root: the benchmark makes Unix accounts, as a hub's learners have")
    lessons = lesson_paths(REPO / "solutions")
    if args.lessons:
        lessons = [p for p in lessons if p.name[:2] in args.lessons]
    began = time.monotonic()
    measured = measure(args.learners, lessons, args.timeout)
    measured.update({
        "learners_at_once": args.learners,
        "what": "per learner: JupyterLab server + course kernel running the whole solution notebook + the Pythons it starts",
        "machine": f"{psutil.cpu_count()} cores, {round(psutil.virtual_memory().total / 2**30)} GiB, "
                   f"{platform.platform()}; load average {os.getloadavg()[0]:.1f} when it ended",
        "total_seconds": round(time.monotonic() - began),
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
    })
    Path(args.out).write_text(json.dumps(measured, indent=1) + "\n")
    print(f"wrote {args.out} in {measured['total_seconds']} s")


if __name__ == "__main__":
    main()
