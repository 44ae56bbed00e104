"""Every ``PADDLECOURSE_*`` environment variable the course reads, with its default and what it does: one list.

Code reads them only through ``setting(NAME)`` (tests/test_settings.py fails on a module that reads one on its
own, and on a name that is not listed here); instructors/settings.md, written by `paddlecourse build`, shows the
list to the people who set them. An empty value counts as unset, so ``NAME=`` gives the default back.

This module is in the learner's room because a lesson's kernel reads some of them (the language, catch-up); the
instructor's tools and the hub's configuration read it from there.
"""
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Setting:
    name: str
    default: str   # "" where there is none: the code then decides, as `meaning` says
    who: str       # who sets it: learner, instructor, hub, tests
    meaning: str
    meaning_zh: str


SETTINGS = {s.name: s for s in [
    Setting("PADDLECOURSE_LANG", "en", "learner",
            "The language of the command line (`paddlecourse verify`, `progress`, `lessons`): en or zh. A lesson "
            "chooses its own with `setup(lang=...)`.",
            "命令行（`paddlecourse verify`、`progress`、`lessons`）使用的语言：en 或 zh。课程本身用 "
            "`setup(lang=...)` 选择语言。"),
    Setting("PADDLECOURSE_CATCHUP", "on", "instructor",
            "`off` (or `0`, `no`, `false`) turns `%catchup` off for the learners who get it, e.g. during an exam; "
            "nbgrader's runs have it off anyway.",
            "设为 `off`（或 `0`、`no`、`false`）会为拿到它的学员关闭 `%catchup`，例如考试时；nbgrader 运行时它总是关闭的。"),
    Setting("PADDLECOURSE_SOLUTIONS", "", "instructor",
            "A folder of solution notebooks for `%catchup` and `progress()`, searched before the solutions beside "
            "the lessons and the installed course's own.",
            "供 `%catchup` 和 `progress()` 使用的答案 notebook 文件夹，先于课程笔记本旁边的 solutions 和已安装课程自带的答案查找。"),
    Setting("PADDLECOURSE_STATE_DIR", "~/.local/state/paddlecourse", "instructor",
            "Where `paddlecourse course` keeps its integrity record of released notebooks, outside the course "
            "directory so that no submission can reach it.",
            "`paddlecourse course` 存放已发布 notebook 完整性记录的地方，位于课程目录之外，任何提交都碰不到它。"),
    Setting("PADDLECOURSE_SANDBOX", "on", "instructor",
            "`off` lets a plain `nbgrader autograde` judge a submission without bubblewrap (it can then reach your "
            "files); `paddlecourse course grade` sets it itself, from `--no-sandbox`.",
            "设为 `off` 时，直接运行的 `nbgrader autograde` 会在没有 bubblewrap 的情况下评判提交（提交就能碰到你的文件）；"
            "`paddlecourse course grade` 会根据 `--no-sandbox` 自行设置它。"),
    Setting("PADDLECOURSE_JUDGEMENTS", "", "instructor",
            "Set by `paddlecourse course grade` for nbgrader: the private folder of the judgements it made in "
            "parallel beforehand. Not for setting by hand.",
            "由 `paddlecourse course grade` 为 nbgrader 设置：事先并行做出的评判所在的私有文件夹。不要手动设置。"),
    Setting("PADDLECOURSE_HUB_URL", "", "instructor",
            "Your JupyterHub's public address, e.g. https://hub.example.org: `paddlecourse site` then gives every "
            "lesson page an *Open on the class JupyterHub* button (as `--hub-url` does).",
            "你的 JupyterHub 的公开地址，例如 https://hub.example.org：这样 `paddlecourse site` 会在每个课程页上放一个"
            "“在班级 JupyterHub 上打开”按钮（与 `--hub-url` 相同）。"),
    Setting("PADDLECOURSE_EXCHANGE", "/srv/nbgrader/exchange", "hub",
            "The nbgrader exchange folder every learner's and instructor's server uses (the hub sets it).",
            "每个学员和教师的服务器使用的 nbgrader 交换文件夹（由 Hub 设置）。"),
    Setting("PADDLECOURSE_COURSE_DIR", "~/paddle-grading", "hub",
            "An instructor's nbgrader course directory on the hub (Formgrader opens it).",
            "教师在 Hub 上的 nbgrader 课程目录（Formgrader 打开它）。"),
    Setting("PADDLECOURSE_ROLE", "", "hub",
            "Set by the hub for each server: student or instructor (which role folder Jupyter reads).",
            "由 Hub 为每个服务器设置：student 或 instructor（决定 Jupyter 读取哪个角色文件夹）。"),
    Setting("PADDLECOURSE_HUB_BIND_URL", "http://:8000", "hub",
            "The address and port the hub listens on (deploy/jupyterhub_config.py), e.g. https://:443 with a "
            "certificate.",
            "Hub 监听的地址和端口（deploy/jupyterhub_config.py），例如配好证书后用 https://:443。"),
    Setting("PADDLECOURSE_HUB_STUDENTS_GROUP", "paddlecourse-students", "hub",
            "The Unix group whose members may log in as students.", "其成员可以作为学员登录的 Unix 用户组。"),
    Setting("PADDLECOURSE_HUB_INSTRUCTORS_GROUP", "paddlecourse-instructors", "hub",
            "The Unix group whose members may log in as instructors.", "其成员可以作为教师登录的 Unix 用户组。"),
    Setting("PADDLECOURSE_HUB_EXCHANGE", "/srv/nbgrader/exchange", "hub",
            "The exchange folder the hub hands to every server as PADDLECOURSE_EXCHANGE.",
            "Hub 以 PADDLECOURSE_EXCHANGE 交给每个服务器的交换文件夹。"),
    Setting("PADDLECOURSE_HUB_STATE", "/srv/jupyterhub", "hub",
            "The hub's database, cookie secret and logs.", "Hub 的数据库、cookie 密钥和日志。"),
    Setting("PADDLECOURSE_HUB_PREFIX", "", "hub",
            "The environment holding the course, its kernel and jupyterhub-singleuser (default: the hub's own "
            "Python's); deploy/install.sh sets /opt/paddlecourse/env.",
            "装有课程、课程内核和 jupyterhub-singleuser 的环境（默认：Hub 自己的 Python 所在环境）；deploy/install.sh "
            "设为 /opt/paddlecourse/env。"),
    Setting("PADDLECOURSE_HUB_IDLE_TIMEOUT", "3600", "hub",
            "Seconds without activity after which a learner's server is stopped.", "学员的服务器无活动多少秒后被停止。"),
    Setting("PADDLECOURSE_HUB_MEM_LIMIT", "", "hub",
            "Memory limit of one learner's server, e.g. 1G (default: what deploy/sizing.py derives from "
            "deploy/measurements.json).",
            "一个学员服务器的内存上限，例如 1G（默认：deploy/sizing.py 根据 deploy/measurements.json 推算的值）。"),
    Setting("PADDLECOURSE_HUB_CPU_LIMIT", "", "hub",
            "CPU cores one learner's server may use (default: deploy/sizing.py's).",
            "一个学员服务器可以使用的 CPU 核数（默认：deploy/sizing.py 给出的值）。"),
    Setting("PADDLECOURSE_HUB_ADMINS", "", "hub",
            "Comma-separated accounts that are the hub's admins.", "用逗号分隔的 Hub 管理员账号。"),
    Setting("PADDLECOURSE_HUB_PROXY", "configurable-http-proxy", "hub",
            "The proxy program the hub starts.", "Hub 启动的代理程序。"),
    Setting("PADDLECOURSE_HUB_HUB_PORT", "", "tests",
            "The hub's internal port (default: JupyterHub's own); tests/hub runs several hubs side by side.",
            "Hub 的内部端口（默认：JupyterHub 自己的）；tests/hub 会同时运行多个 Hub。"),
    Setting("PADDLECOURSE_HUB_PROXY_API_PORT", "", "tests",
            "The proxy's API port (default: JupyterHub's own); for tests/hub, as above.",
            "代理的 API 端口（默认：JupyterHub 自己的）；用途同上，供 tests/hub 使用。"),
    Setting("PADDLECOURSE_HUB_SERVER_ARGS", "", "tests",
            "Extra arguments for every learner's server, separated by spaces.", "每个学员服务器的额外参数，用空格分隔。"),
    Setting("PADDLECOURSE_HUB_EXTRA_ENV", "", "tests",
            "Extra environment for every learner's server, as NAME=VALUE;NAME=VALUE (e.g. PYTHONPATH for a "
            "checkout under test).",
            "每个学员服务器的额外环境变量，写成 NAME=VALUE;NAME=VALUE（例如为被测的代码副本设置 PYTHONPATH）。"),
    Setting("PADDLECOURSE_GRADING_JOBS", "2", "tests",
            "Submissions each class test grades at once; 1 runs the classes one submission at a time.",
            "每个班级测试同时评分的提交数；设为 1 时一次只评一份。"),
    Setting("PADDLECOURSE_CPU_PER_TEST", "0", "tests",
            "1: write each test's CPU seconds to test-artifacts/ (needs the cpuacct controller).",
            "设为 1：把每个测试用掉的 CPU 秒数写到 test-artifacts/（需要 cpuacct 控制器）。"),
    Setting("PADDLECOURSE_FULL_SCREENSHOTS", "0", "tests",
            "1: the website's browser test keeps a full-page screenshot of every page.",
            "设为 1：网站的浏览器测试为每一页保存整页截图。"),
    Setting("PADDLECOURSE_BINDER_WHEELS", "/var/cache/paddlecourse/binder-wheels", "tests",
            "The wheel folder the Binder replay installs from with the index off (root fills it once).",
            "Binder 重放测试在关闭索引时安装所用的 wheel 文件夹（由 root 填充一次）。"),
]}


def setting(name):
    """The value of the listed variable ``name`` now: the environment's, else its default ("" if it has none)."""
    return os.environ.get(name) or SETTINGS[name].default
