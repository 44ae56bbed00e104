"""JupyterHub for one server: the course served to a class (see instructors/hub.md).

- Who may log in: Unix accounts (PAM), in the students' or the instructors' Unix group.
- Where each learner runs: a single-user JupyterLab started as that learner's own Unix
  account (LocalProcessSpawner), so learners are kept apart by ordinary file permissions.
- What each role sees: a Jupyter config folder per role (deploy/jupyter/student or
  .../instructor) put first on JUPYTER_CONFIG_PATH: students get the nbgrader Assignments
  list only, instructors also get Formgrader.
- Idle servers are stopped by jupyterhub-idle-culler, a hub service.

Every site-specific value has a default for a real server and can be changed with an
environment variable (PADDLECOURSE_HUB_*, listed with the others in paddlecourse/settings.py and
instructors/settings.md), which is how tests/hub/ runs this same file on loopback with temporary folders.
"""
import grp
import pwd
import sys
from pathlib import Path

c = get_config()  # noqa: F821 (injected by JupyterHub)

from paddlecourse.settings import setting as env   # the hub's environment has the course installed

DEPLOY = Path(__file__).resolve().parent

STUDENTS = env("PADDLECOURSE_HUB_STUDENTS_GROUP")
INSTRUCTORS = env("PADDLECOURSE_HUB_INSTRUCTORS_GROUP")
EXCHANGE = env("PADDLECOURSE_HUB_EXCHANGE")
STATE = Path(env("PADDLECOURSE_HUB_STATE"))  # database, cookie secret, logs
# The environment holding the course, its kernel and jupyterhub-singleuser (install.sh makes it).
PREFIX = Path(env("PADDLECOURSE_HUB_PREFIX") or sys.prefix)
IDLE_TIMEOUT = int(env("PADDLECOURSE_HUB_IDLE_TIMEOUT"))  # seconds without activity

# ---------------------------------------------------------------- network
c.JupyterHub.bind_url = env("PADDLECOURSE_HUB_BIND_URL")
c.JupyterHub.hub_ip = "127.0.0.1"  # the hub API stays on loopback; learners come in through the proxy
if env("PADDLECOURSE_HUB_HUB_PORT"):
    c.JupyterHub.hub_port = int(env("PADDLECOURSE_HUB_HUB_PORT"))
if env("PADDLECOURSE_HUB_PROXY_API_PORT"):
    c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{env('PADDLECOURSE_HUB_PROXY_API_PORT')}"
c.ConfigurableHTTPProxy.command = [env("PADDLECOURSE_HUB_PROXY")]
c.ConfigurableHTTPProxy.should_start = True  # the hub starts and stops its proxy with itself

c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(STATE / "jupyterhub.pid")

# ---------------------------------------------------------------- who may log in
c.JupyterHub.authenticator_class = "pam"
c.PAMAuthenticator.allowed_groups = {STUDENTS, INSTRUCTORS}
c.PAMAuthenticator.open_sessions = False  # no PAM session: nothing to clean up, as TLJH does
c.Authenticator.admin_users = set(filter(None, env("PADDLECOURSE_HUB_ADMINS").split(",")))


def unix_groups(username):
    """Names of the Unix groups `username` is in (primary group included)."""
    entry = pwd.getpwnam(username)
    names = {g.gr_name for g in grp.getgrall() if username in g.gr_mem}
    names.add(grp.getgrgid(entry.pw_gid).gr_name)
    return names


# ---------------------------------------------------------------- where each learner runs
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [str(PREFIX / "bin" / "python"), "-m", "jupyterhub.singleuser"]
c.Spawner.default_url = "/lab"
c.Spawner.notebook_dir = "~"
c.Spawner.args = [arg for arg in env("PADDLECOURSE_HUB_SERVER_ARGS").split() if arg]
c.Spawner.start_timeout = 120  # a first start imports JupyterLab on a busy server
c.Spawner.http_timeout = 120
# LocalProcessSpawner does not enforce these: it hands them to the server as MEM_LIMIT and
# CPU_LIMIT (shown by jupyter-resource-usage where installed). They are the per-learner
# figures measured for this course (instructors/hub.md); Kubernetes enforces the same ones.
# deploy/sizing.py derives them from deploy/measurements.json, as it does for the Kubernetes values
sys.path.insert(0, str(DEPLOY))
import sizing  # noqa: E402

_measured = sizing.kubernetes_resources(sizing.load())
c.Spawner.mem_limit = env("PADDLECOURSE_HUB_MEM_LIMIT") or _measured["memory"]["limit"]
c.Spawner.cpu_limit = float(env("PADDLECOURSE_HUB_CPU_LIMIT") or _measured["cpu"]["limit"])
c.Spawner.environment = {
    "GLOG_minloglevel": "2",  # Paddle's C++ log lines, for anything the learner starts
    "PADDLECOURSE_EXCHANGE": EXCHANGE,
    # the environment's own config must not outrank the role folder put first below
    "JUPYTER_PREFER_ENV_PATH": "0",
}
if env("PADDLECOURSE_HUB_EXTRA_ENV"):  # e.g. PYTHONPATH for a course checkout under test
    c.Spawner.environment.update(dict(pair.split("=", 1) for pair in env("PADDLECOURSE_HUB_EXTRA_ENV").split(";")))


def role_of(username):
    return "instructor" if INSTRUCTORS in unix_groups(username) else "student"


def choose_role_config(spawner):
    """Put the learner's role folder first on the config path (Formgrader for instructors only)."""
    role = role_of(spawner.user.name)
    spawner.environment["JUPYTER_CONFIG_PATH"] = str(DEPLOY / "jupyter" / role)
    spawner.environment["PADDLECOURSE_ROLE"] = role


c.Spawner.pre_spawn_hook = choose_role_config

# ---------------------------------------------------------------- idle servers are stopped
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }
]
c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={IDLE_TIMEOUT}"],
    }
]
