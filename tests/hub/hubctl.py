"""A real JupyterHub for tests and the benchmark: Unix accounts, the hub and its proxy on loopback.

Runs deploy/jupyterhub_config.py itself (PAM, LocalProcessSpawner, idle culler, role
folders); only site paths and ports come from PADDLECOURSE_HUB_* variables. Needs root
(useradd, and a hub that starts servers as other users). Everything it creates it removes:
the accounts (with their homes), the groups, and every process running as those accounts.
"""
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
PREFIX = "pchub-"  # every account and group the tests make starts with this


def groups_of(prefix):
    """The students' and the instructors' groups of the accounts whose names start with `prefix`.

    Each user of this module (the class test, the load test) has a prefix of its own, so one's
    clean-up cannot remove the other's accounts or groups while both run on the machine.
    """
    return f"{prefix}students", f"{prefix}instructors"


STUDENTS_GROUP, INSTRUCTORS_GROUP = groups_of(PREFIX)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(*command, user=None, check=True, env=None, timeout=300, cwd=None):
    """Run a command (as `user`, through runuser, with that user's login environment)."""
    if user:
        # another test in this worker may have set a PADDLECOURSE_* variable for itself (the grading tests point
        # PADDLECOURSE_STATE_DIR into their temporary folder): an account's own command starts without them
        unset = [arg for key in sorted(os.environ) if key.startswith("PADDLECOURSE_") for arg in ("-u", key)]
        command = ("runuser", "-u", user, "--", "env", *unset, f"HOME=/home/{user}", f"USER={user}", *(env or []),
                   *command)
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=cwd or "/")
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result


def uid(user):
    import pwd

    try:
        return pwd.getpwnam(user).pw_uid
    except KeyError:
        return None


def stop_processes_of(users, timeout=10):
    """Terminate (then kill) every process running as one of `users`, by process id."""
    uids = {uid(u) for u in users} - {None}
    victims = [p for p in psutil.process_iter(["uids"]) if p.info["uids"] and p.info["uids"].real in uids]
    for process in victims:
        try:
            process.terminate()
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(victims, timeout=timeout)
    for process in alive:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass


def remove_accounts(names, groups=True, prefix=PREFIX):
    """Remove test accounts (homes included) and the two test groups of `prefix`; quiet when already gone."""
    stop_processes_of(names)
    for name in names:
        if uid(name) is not None:
            run("userdel", "--remove", name, check=False)
    for group in groups_of(prefix) if groups else ():
        run("groupdel", group, check=False)


def leftover_accounts(prefix=PREFIX):
    import pwd

    return [p.pw_name for p in pwd.getpwall() if p.pw_name.startswith(prefix)]


def create_accounts(instructors, students, prefix=PREFIX):
    """Real Unix accounts with random passwords, made by deploy/add-learner.sh as an instructor would."""
    remove_accounts(leftover_accounts(prefix), prefix=prefix)  # a crashed earlier run
    passwords = {}
    students_group, instructors_group = groups_of(prefix)
    env = dict(os.environ, PADDLECOURSE_HUB_STUDENTS_GROUP=students_group,
               PADDLECOURSE_HUB_INSTRUCTORS_GROUP=instructors_group)
    for names, flag in ((instructors, ["--instructor"]), (students, [])):
        for name in names:
            passwords[name] = secrets.token_urlsafe(12)
            subprocess.run(["bash", str(DEPLOY / "add-learner.sh"), *flag, name], input=passwords[name] + "\n",
                           text=True, env=env, check=True, capture_output=True)
    return passwords


def copy_interpreter(dest):
    """This Python's interpreter and standard library (no site-packages) in `dest`, which anyone may run.

    The interpreter is the test venv's own (same version and build, so the venv's compiled
    packages and its re module behave the same: Debian's 3.11.2 fails soupsieve's patterns,
    which nbconvert needs for feedback pages). Its libpython is found through
    LD_LIBRARY_PATH (see `library_path`), since the binary's RUNPATH points at the original.
    """
    base = Path(sys.base_prefix)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    (dest / "bin").mkdir(parents=True)
    shutil.copy2(Path(sys._base_executable).resolve(), dest / "bin" / version)
    (dest / "lib").mkdir()
    for library in (base / "lib").glob("libpython*.so*"):
        shutil.copy2(library, dest / "lib" / library.name, follow_symlinks=True)
    # with its __pycache__ (copy2 keeps the sources' times, so the bytecode stays valid): the accounts
    # that run it cannot write there, and without it every process they start compiled each module
    # of the standard library it imported again (about a second of CPU for a Lab server or nbgrader)
    shutil.copytree(base / "lib" / version, dest / "lib" / version, symlinks=True,
                    ignore=shutil.ignore_patterns("site-packages", "test", "idlelib", "tkinter"))
    (dest / "lib" / version / "site-packages").mkdir()
    return dest / "bin" / version


def library_path(env_dir):
    return str(Path(env_dir).parent / "python" / "lib")


def course_environment(dest):
    """An environment every account can run: the course's packages, the course kernel, Jupyter's files.

    The test venv's interpreter may live where other accounts cannot go (here, pyenv under
    /root), so this copies the interpreter (`copy_interpreter`), makes a venv from it that
    reads the test venv's packages through a .pth file, links the test venv's Jupyter data
    and config folders, and installs the course kernel into itself. On a real server
    deploy/install.sh makes a full venv in /opt instead; what runs in it is the same.
    """
    dest = Path(dest)
    interpreter = copy_interpreter(dest.parent / "python")
    env = dict(os.environ, LD_LIBRARY_PATH=library_path(dest))
    subprocess.run([str(interpreter), "-m", "venv", "--without-pip", str(dest)], check=True, env=env)
    import sysconfig

    site = dest / "lib" / "python3.11" / "site-packages"
    (site / "course-venv.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    shared = Path(sys.prefix) / "share" / "jupyter"
    (dest / "share" / "jupyter" / "kernels").mkdir(parents=True)
    for entry in shared.iterdir():
        if entry.name != "kernels":
            (dest / "share" / "jupyter" / entry.name).symlink_to(entry)
    (dest / "etc").mkdir()
    (dest / "etc" / "jupyter").symlink_to(Path(sys.prefix) / "etc" / "jupyter")
    subprocess.run([str(dest / "bin" / "python"), "-m", "paddlecourse", "kernel", "--prefix", str(dest)],
                   check=True, capture_output=True, env=dict(env, PYTHONPATH=str(REPO)))
    # the console scripts (jupyter, nbgrader, alembic, ...), with this environment's python
    python = dest / "bin" / "python"
    for script in (Path(sys.prefix) / "bin").iterdir():
        target = dest / "bin" / script.name
        if target.exists() or script.is_symlink() or not script.is_file():
            continue
        head, _, rest = script.read_bytes().partition(b"\n")
        if head.startswith(b"#!") and b"python" in head:
            target.write_bytes(b"#!" + str(python).encode() + b"\n" + rest)
            target.chmod(0o755)
    for path in [dest, *dest.rglob("*"), dest.parent / "python", *(dest.parent / "python").rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | 0o055 if path.is_dir() else path.stat().st_mode | 0o044)
    return dest / "bin" / "python"


class Hub:
    """deploy/jupyterhub_config.py running on 127.0.0.1 with its proxy and idle culler."""

    def __init__(self, state, exchange, prefix, extra_env=None, server_args=(), idle_timeout=3600,
                 account_prefix=PREFIX):
        self.state, self.exchange = Path(state), Path(exchange)
        students_group, instructors_group = groups_of(account_prefix)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = self.state / "hub.log"
        self.env = dict(
            {k: v for k, v in os.environ.items() if not k.startswith("PADDLECOURSE_")},   # as run() does
            PATH=f"{Path(prefix) / 'bin'}:{os.environ.get('PATH', '')}",
            PADDLECOURSE_HUB_BIND_URL=f"http://127.0.0.1:{self.port}",
            PADDLECOURSE_HUB_HUB_PORT=str(free_port()),
            PADDLECOURSE_HUB_PROXY_API_PORT=str(free_port()),
            PADDLECOURSE_HUB_STATE=str(self.state),
            PADDLECOURSE_HUB_EXCHANGE=str(self.exchange),
            PADDLECOURSE_HUB_STUDENTS_GROUP=students_group,
            PADDLECOURSE_HUB_INSTRUCTORS_GROUP=instructors_group,
            PADDLECOURSE_HUB_PREFIX=str(prefix),
            PADDLECOURSE_HUB_IDLE_TIMEOUT=str(idle_timeout),
            PADDLECOURSE_HUB_SERVER_ARGS=" ".join(server_args),
            PADDLECOURSE_HUB_EXTRA_ENV=";".join(f"{k}={v}" for k, v in (extra_env or {}).items()),
        )
        self.process = None

    def start(self, timeout=90):
        self.state.mkdir(parents=True, exist_ok=True)
        os.chmod(self.state, 0o700)  # the database and cookie secret are the hub's alone
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "jupyterhub", "-f", str(DEPLOY / "jupyterhub_config.py")],
                cwd=self.state, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the hub exited with {self.process.returncode}:\n{self.log_text()}")
            try:
                urllib.request.urlopen(f"{self.url}/hub/api/", timeout=2).read()
                return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the hub did not answer within {timeout} s:\n{self.log_text()}")
                time.sleep(0.5)

    def log_text(self):
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self):
        """SIGTERM: the hub stops the learners' servers, the culler and its proxy, then exits."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)  # its own session: the proxy and culler too
            self.process.wait()
