"""The sandbox every submission runs in: bubblewrap (Debian's ``bubblewrap`` package).

What the code inside sees and may do:

- no network (``--unshare-net``: only a loopback of its own; the kernel and the runner talk
  inside the sandbox, so no socket crosses it);
- the system (``/usr``), Python and the course's virtualenv read-only, and the course's
  ``paddlecourse`` package read-only at /opt/paddlecourse - nothing else of the machine:
  not the course directory (source/, release/, gradebook.db, nbgrader_config.py, the exchange,
  other students' folders), not the repository's solutions/, not the instructor's home;
- a private home and /tmp on size-limited tmpfs, empty at the start and gone at the end; the
  submission comes in on stdin and the results go out on stdout, read by the grader up to a
  byte limit;
- its own PID namespace (``--unshare-pid --die-with-parent``): when the run ends or is killed,
  every process it started is killed with it, detached or not;
- no capabilities (``--cap-drop ALL``), a new session (no terminal to inject into), and
  resource limits: address space, file size, CPU seconds, a wall-clock limit per notebook, and
  processes: a pids cgroup of its own (``pids.max``) where this process may create one (as root),
  else RLIMIT_NPROC (which the kernel enforces only for a non-root user);
- at most ``Limits.sandbox_memory_bytes`` of memory for all its processes together: a memory cgroup
  of its own where one may be made (a fork bomb under the process limit cannot take the machine's
  memory from the submissions graded beside it; past the limit the kernel is killed, and the run
  needs a look);
- at most ``Limits.cpu_cores`` of the machine's cores, its children included: a cpu cgroup of its own
  (``cpu.cfs_quota_us``) where one may be made. Without it, a submission whose cells each stay under
  the time limit but keep every core busy with child processes made the submissions graded beside it
  at ``--jobs 2`` run out of time.
"""
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2]  # paddlecourse/ (this is paddlecourse/teach/grading/sandbox.py)
INSIDE_PACKAGE_ROOT = "/opt/paddlecourse"
HOME = "/home/student"

RISK = (
    "Without the sandbox each submission runs with your permissions on this machine: it can read "
    "source/ and the solutions, write to gradebook.db, nbgrader_config.py and other students' "
    "submissions, use the network, and leave processes running after grading."
)


class SandboxMissing(RuntimeError):
    pass


@dataclass
class Limits:
    cell_seconds: int = 15          # per cell (interrupt, then kill)
    trusted_seconds: int = 120      # per cell the grader adds (reading, rebinding, replaying answers): its own budget
    answer_seconds: int = 15        # a kernel silent this long after a cell was sent has stopped answering
                                    # (counted on the kernel's own clock: a healthy one says "busy" at once)
    notebook_seconds: int = 180     # the whole run, enforced from outside
    memory_bytes: int = 6 << 30     # address space of each process; `import paddle` alone maps about 0.8 GB
    sandbox_memory_bytes: int = 6 << 30   # memory of all its processes together (a memory cgroup)
    # processes and threads together (a pids cgroup counts both): Paddle's executor starts about five threads
    # for each loaded program it runs and never stops them (more on a machine with more cores), so lesson
    # 06's solution alone ends near 200 threads in one kernel; 256 killed an honest judge's run in CI
    processes: int = 2048
    output_bytes: int = 4 << 20     # read back from the sandbox; the rest is dropped
    cell_output_bytes: int = 64 << 10
    file_bytes: int = 256 << 20     # largest file it may write (RLIMIT_FSIZE)
    tmpfs_bytes: int = 512 << 20    # each of home and /tmp
    cpu_seconds: int = 600
    cpu_cores: float = 1.0          # of the machine's cores, the whole sandbox together (a cpu cgroup's quota)


@dataclass
class Result:
    returncode: int
    stdout: bytes
    stderr: bytes
    seconds: float
    timed_out: bool
    truncated: bool
    sandboxed: bool


def bwrap_path():
    return shutil.which("bwrap")


_WORKS = {}


def available():
    """True when bubblewrap is installed and can make its namespaces here (tried once)."""
    path = bwrap_path()
    if not path:
        return False
    if path not in _WORKS:
        try:
            done = subprocess.run([path, *_base_args(Limits()), "--", sys.executable, "-c", "pass"],
                                  capture_output=True, timeout=60)
            _WORKS[path] = done.returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            _WORKS[path] = False
    return _WORKS[path]


def _system_binds():
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    # Python and the virtualenv, at their own paths (their scripts name them absolutely)
    seen = set()
    for prefix in {sys.prefix, sys.base_prefix, os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))}:
        prefix = os.path.realpath(prefix)
        if prefix.startswith("/usr/") or prefix == "/usr" or prefix in seen:
            continue
        seen.add(prefix)
        args += ["--ro-bind", prefix, prefix]
    if os.path.realpath(sys.prefix) != sys.prefix:
        args += ["--ro-bind", sys.prefix, sys.prefix]
    # package folders a .pth file adds from elsewhere (a venv layered on another's packages);
    # only folders of installed packages, never PYTHONPATH's checkout with its solutions/
    for entry in sys.path:
        real = os.path.realpath(entry) if entry else ""
        if os.path.basename(real) in ("site-packages", "dist-packages") and os.path.isdir(real) \
                and not any(real == p or real.startswith(p + "/") for p in seen | {"/usr"}):
            seen.add(real)
            args += ["--ro-bind", real, real]
    return args


def _base_args(limits):
    size = str(int(limits.tmpfs_bytes))
    args = [
        "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
        "--hostname", "sandbox",
        # /tmp first: an interpreter or venv that lives under /tmp is bound on top of it, not hidden by it
        "--size", size, "--tmpfs", "/tmp",
        *_system_binds(),
        "--ro-bind", str(PACKAGE), f"{INSIDE_PACKAGE_ROOT}/paddlecourse",
        "--proc", "/proc", "--dev", "/dev",
        "--size", size, "--tmpfs", "/dev/shm",
        "--size", size, "--tmpfs", HOME,
        "--chdir", HOME,
        "--clearenv",
    ]
    for key, value in _environment().items():
        args += ["--setenv", key, value]
    return args


def _environment():
    # An interpreter relocated away from its build prefix finds libpython only through LD_LIBRARY_PATH.
    library_path = {"LD_LIBRARY_PATH": os.environ["LD_LIBRARY_PATH"]} if os.environ.get("LD_LIBRARY_PATH") else {}
    return {
        **library_path,
        "HOME": HOME,
        "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
        "PYTHONPATH": INSIDE_PACKAGE_ROOT,
        "GLOG_minloglevel": "2",
        "NBGRADER_EXECUTION": "autograde",  # catch-up refuses while grading
        "PADDLECOURSE_CATCHUP": "off",
        "MPLBACKEND": "Agg",
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "JUPYTER_PLATFORM_DIRS": "1",
    }


def _own_cgroup(controller):
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, names, path = line.split(":", 2)
        if controller in names.split(","):
            return path
    return None


def _new_cgroup(controller, settings):
    """A new cgroup (v1) of ``controller`` under this process's own, with ``settings`` ({file: value}) written;
    None where one may not be made (not root, no such controller)."""
    own = _own_cgroup(controller) if Path("/proc/self/cgroup").exists() else None
    if own is None:
        return None
    path = Path("/sys/fs/cgroup") / controller / own.lstrip("/") / f"paddlecourse-sandbox-{os.getpid()}-{time.monotonic_ns()}"
    try:
        path.mkdir()
        for name, value in settings.items():
            (path / name).write_text(str(value))
    except OSError:
        try:
            path.rmdir()
        except OSError:
            pass
        return None
    return path


def pids_cgroup(limit):
    """A new pids cgroup limited to ``limit`` processes; None when not allowed."""
    return _new_cgroup("pids", {"pids.max": int(limit)})


CPU_PERIOD_US = 100_000


def cpu_cgroup(cores):
    """A new cpu cgroup allowed ``cores`` cores' worth of time (its quota per period); None when not allowed."""
    return _new_cgroup("cpu", {"cpu.cfs_period_us": CPU_PERIOD_US,
                               "cpu.cfs_quota_us": max(int(cores * CPU_PERIOD_US), 1000)})


def memory_cgroup(limit):
    """A new memory cgroup holding at most ``limit`` bytes (swap included where the machine counts it);
    None when not allowed."""
    path = _new_cgroup("memory", {"memory.limit_in_bytes": int(limit)})
    if path is not None and (path / "memory.memsw.limit_in_bytes").exists():
        try:
            (path / "memory.memsw.limit_in_bytes").write_text(str(int(limit)))
        except OSError:
            pass   # swap accounting off: memory alone is limited
    return path


def remove_cgroup(path):
    for _ in range(50):
        try:
            path.rmdir()
            return
        except OSError:
            time.sleep(0.1)


def _limit(limits, cgroups=()):
    def apply():
        for cgroup in cgroups:
            (cgroup / "cgroup.procs").write_text(str(os.getpid()))
        for name, value in (("RLIMIT_AS", limits.memory_bytes), ("RLIMIT_FSIZE", limits.file_bytes),
                            ("RLIMIT_CPU", limits.cpu_seconds), ("RLIMIT_NPROC", limits.processes),
                            ("RLIMIT_CORE", 0)):
            resource.setrlimit(getattr(resource, name), (value, value))
    return apply


def command(argv, limits, sandbox=True):
    if not sandbox:
        return list(argv)
    path = bwrap_path()
    if not path:
        raise SandboxMissing("bubblewrap (bwrap) is not installed: apt-get install bubblewrap")
    return [path, *_base_args(limits), "--", *argv]


def run_python(module, stdin, limits, sandbox=True):
    """Run ``python -m module`` (in the sandbox), feed it ``stdin``; returns a Result.

    stdout is read up to ``limits.output_bytes`` (more: the run is killed, truncated=True);
    after ``limits.notebook_seconds`` the whole sandbox is killed (timed_out=True).
    """
    argv = command([sys.executable, "-m", module], limits, sandbox)
    # bubblewrap's own process is the sandbox's PID 1, and its /proc/1/environ is readable inside:
    # --clearenv clears only the child's, so bubblewrap itself starts with the sandbox's variables alone
    env = _environment()
    cwd = None
    if not sandbox:
        env = {**os.environ, **_environment(), "PYTHONPATH": str(PACKAGE.parent)}
        env.pop("HOME")
        cwd = os.environ.get("TMPDIR", "/tmp")
    start = time.monotonic()
    cgroups = [c for c in (pids_cgroup(limits.processes), cpu_cgroup(limits.cpu_cores),
                           memory_cgroup(limits.sandbox_memory_bytes)) if c is not None]
    try:
        return _run(argv, stdin, limits, sandbox, env, cwd, cgroups, start)
    finally:
        for cgroup in cgroups:
            remove_cgroup(cgroup)


def _run(argv, stdin, limits, sandbox, env, cwd, cgroups, start):
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=_limit(limits, cgroups), start_new_session=True, env=env, cwd=cwd)
    chunks, errors, state = [], [], {"size": 0, "truncated": False}

    def read_out():
        while True:
            chunk = process.stdout.read1(65536)
            if not chunk:
                return
            room = limits.output_bytes - state["size"]
            if len(chunk) > room:
                chunks.append(chunk[:max(room, 0)])
                state["truncated"] = True
                _kill(process)
                return
            chunks.append(chunk)
            state["size"] += len(chunk)

    def read_err():
        while True:
            chunk = process.stderr.read1(65536)
            if not chunk:
                return
            if sum(map(len, errors)) < 65536:
                errors.append(chunk)

    readers = [threading.Thread(target=read_out, daemon=True), threading.Thread(target=read_err, daemon=True)]
    for reader in readers:
        reader.start()
    try:
        process.stdin.write(stdin)
        process.stdin.close()
    except BrokenPipeError:
        pass
    timed_out = False
    try:
        process.wait(timeout=limits.notebook_seconds)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill(process)
        process.wait()
    _kill(process)  # without the sandbox: whatever the run left in its session
    for reader in readers:
        reader.join(timeout=5)
    return Result(process.returncode, b"".join(chunks), b"".join(errors), time.monotonic() - start,
                  timed_out, state["truncated"], sandbox)


def _kill(process):
    try:
        os.killpg(process.pid, 9)
    except (ProcessLookupError, PermissionError):
        pass


def process_limit_enforced(limits=None):
    """True when a sandbox's process limit will hold here (a pids cgroup, or RLIMIT_NPROC as non-root)."""
    probe = pids_cgroup((limits or Limits()).processes)
    if probe is not None:
        remove_cgroup(probe)
        return True
    return os.geteuid() != 0
