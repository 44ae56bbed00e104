"""CPU seconds per test, every process it started included: ``PADDLECOURSE_CPU_PER_TEST=1 make test``.

Each pytest worker moves itself into a cpuacct cgroup (v1) of its own; the kernels, sandboxes, browsers and
hubs it starts inherit it, so the cgroup's usage across one test is that test's CPU, whatever the other
workers ran meanwhile (the wall time of a test says little on a shared, busy machine). One line per test in
test-artifacts/cpu-per-test-<worker>.tsv: CPU seconds, wall seconds, test id. Off by default; where no cgroup
can be made (not root, no cpuacct controller), it says so once and records nothing.
"""
import os
import time
from pathlib import Path

import pytest

from paddlecourse.teach.grading.sandbox import _own_cgroup   # where this process sits in a controller's tree
from paddlecourse.settings import setting

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


class CpuPerTest:
    def __init__(self, worker):
        own = _own_cgroup("cpuacct")
        self.group = None
        self.out = ARTIFACTS / f"cpu-per-test-{worker}.tsv"
        if own is None:
            print("cpu per test: no cpuacct controller here; nothing recorded")
            return
        parent = Path("/sys/fs/cgroup/cpuacct") / own.lstrip("/")
        for stale in parent.glob("paddlecourse-tests-*"):   # an earlier run's, left when its worker was stopped
            if not Path("/proc", stale.name.rpartition("-")[2]).exists():   # its worker is gone (not a sibling's)
                try:
                    stale.rmdir()
                except OSError:
                    pass
        group = parent / f"paddlecourse-tests-{worker}-{os.getpid()}"
        try:
            group.mkdir()
            (group / "cgroup.procs").write_text(str(os.getpid()))
        except OSError as error:
            print(f"cpu per test: no cpuacct cgroup here ({error}); nothing recorded")
            return
        self.group = group
        ARTIFACTS.mkdir(exist_ok=True)
        self.out.write_text("cpu_s\twall_s\ttest\n")

    def usage(self):
        return int((self.group / "cpuacct.usage").read_text()) / 1e9

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item):
        if self.group is None:
            yield
            return
        cpu, wall = self.usage(), time.monotonic()
        yield
        with self.out.open("a") as handle:
            handle.write(f"{self.usage() - cpu:.1f}\t{time.monotonic() - wall:.1f}\t{item.nodeid}\n")

    def pytest_unconfigure(self):
        if self.group is None:
            return
        (self.group.parent / "cgroup.procs").write_text(str(os.getpid()))   # back to the parent
        for _ in range(50):   # the group goes once the last process the tests started has ended
            try:
                self.group.rmdir()
                return
            except OSError:
                time.sleep(0.1)


def register(config):
    # in each worker, or in the one process of a run without workers; never in xdist's controller, whose group
    # would hold the workers' (they are its children) and outlive them
    controller = config.getoption("numprocesses", None) and "PYTEST_XDIST_WORKER" not in os.environ
    if setting("PADDLECOURSE_CPU_PER_TEST") == "1" and not controller:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        config.pluginmanager.register(CpuPerTest(worker), "paddlecourse-cpu-per-test")
