"""Load test: a class of N learners on one JupyterHub, on loopback, as the first minutes of a lesson.

    sudo PYTHONPATH=. .venv/bin/python benchmarks/hub_load.py [--learners 20] [--lesson 04_inside_a_static_program]
        [--ramp 60] [--deadline 2400] [--out benchmarks/results/hub-load-20.json]

deploy/jupyterhub_config.py runs on 127.0.0.1 (tests/hub/hubctl.py: configurable-http-proxy from npm,
PAM, LocalProcessSpawner, the idle culler) with N real Unix accounts made by deploy/add-learner.sh.
Each simulated learner starts at its own moment within the ramp (evenly spread: learner i at
i * ramp / N s) and does what a browser does, over HTTP and the kernel websocket, with the cookies
and XSRF tokens a browser carries:

1. login: the hub's login page, then its form posted (the PAM authenticator checks the password);
2. spawn: the hub starts the server; the spawn-pending page's progress stream until "ready", then
   the server's Lab page (the OAuth round trip to the hub gives the server's cookie);
3. pull: the lesson's nbgitpuller link (`paddlecourse links`, from a bare clone of this checkout):
   the git-pull page, its event stream until "finished", the Lab page it redirects to, and the
   notebook through the contents API, as Lab opens it;
4. Run All: POST /api/kernels with the course kernel, then over /api/kernels/<id>/channels one
   execute_request per code cell, all at once with stop_on_error, as Lab's Run All sends them.
   The pulled lesson is run with each exercise answered (the answer cells' source from
   solutions/, matched by nbgrader grade id: a learner who did the exercises); as pulled, Run
   All would stop at the first exercise's NotImplementedError.

Times per learner (each phase from its own start): login, spawn (logged in -> Lab page loaded),
pull (link clicked -> notebook loaded), kernel (POST -> kernel_info_reply), first output and lesson
done (Run All -> the first output / the last execute_reply). Memory: every process of each
learner's account (server, kernel, git) is sampled from /proc through psutil, as
tests/hub/bench_learners.py does; a learner's peak is the largest sum of RSS (and PSS) seen, and
the largest footprint: their processes' distinct resident pages, each once (tests/hub/footprint.py:
what a container holding that learner alone is charged), beside the footprint of one Python that
imported Paddle, measured in the same run (the unit a learner's budget is stated in); the
class's peak the largest sum over all learners at one moment; the machine's the largest
"used" (total - available) less what was used before the hub started. CPU: each learner's CPU
seconds, the hub's (with its proxy), this driver's, and the machine's busy share.

Bounded: every phase has a time-out and the whole class a deadline (--deadline), after which
unfinished learners are failed with that reason; the run also stops when the machine has less
than --memory-floor MB available (the machine's other work must not meet the OOM killer). It
removes everything it made: the hub and its proxy, the accounts (prefix --prefix, homes
included) and their processes, its groups, the temporary folder. Needs root (accounts; a hub
that starts servers as them). Writes the report as JSON and prints a short table.
tests/hub/test_hub_load_smoke.py runs the same code with 3 learners.
"""
import argparse
import html
import json
import math
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import uuid
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import nbformat
import psutil
import requests
import websocket  # websocket-client, which jupyter_server itself requires

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "hub"))
import hubctl  # noqa: E402
from footprint import footprint_bytes, paddle_alone_bytes, rss_pss_cpu  # noqa: E402

PREFIX = "pcload-"  # the accounts and groups this makes; not the class test's pchub-
KERNEL = "paddlecourse"
MB = 1024 * 1024
PHASES = ("login", "spawn", "pull", "kernel", "first_output", "lesson_done")
# each phase's time-out (s): generous for 20 learners on 2 cores; the hub itself gives a spawn 120 s
TIMEOUTS = {"login": 120, "spawn": 420, "pull": 420, "kernel": 300, "lesson": 1500}
HTTP_TIMEOUT = (10, 120)  # connect, read: a request that hangs this long fails its phase


class Failed(Exception):
    def __init__(self, phase, reason):
        super().__init__(f"{phase}: {reason}")
        self.phase, self.reason = phase, reason


def percentiles(values):
    """median, p95 (nearest rank) and max of `values`, rounded; None where there are none."""
    values = sorted(v for v in values if v is not None)
    if not values:
        return {"n": 0, "median": None, "p95": None, "max": None}
    p95 = values[max(0, math.ceil(0.95 * len(values)) - 1)]
    return {"n": len(values), "median": round(statistics.median(values), 1), "p95": round(p95, 1),
            "max": round(values[-1], 1)}


def answered_cells(notebook, lesson):
    """The code cells' sources, each exercise's answer cell replaced by its solution's (same grade id)."""
    solution = nbformat.read(REPO / "solutions" / f"{lesson}.ipynb", as_version=4)
    answers = {c.metadata["nbgrader"]["grade_id"]: c.source for c in solution.cells
               if c.metadata.get("nbgrader", {}).get("solution")}
    sources = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        grade = (cell.get("metadata") or {}).get("nbgrader") or {}
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        sources.append(answers.get(grade.get("grade_id"), source) if grade.get("solution") else source)
    return sources


def sse_events(response, deadline, phase):
    """The JSON `data:` events of a server-sent event stream, until the deadline."""
    for line in response.iter_lines(decode_unicode=True):
        if time.monotonic() > deadline:
            raise Failed(phase, "timed out in the event stream")
        if line and line.startswith("data:"):
            yield json.loads(line[5:].strip())


class Learner(threading.Thread):
    """One learner's browser: login, spawn, pull, Run All; every outcome in self.result."""

    def __init__(self, name, password, hub_url, link, lesson, start_at, class_deadline):
        super().__init__(daemon=True, name=name)
        self.name_, self.password, self.hub, self.link, self.lesson = name, password, hub_url, link, lesson
        self.start_at, self.class_deadline = start_at, class_deadline
        self.session = requests.Session()
        self.session.headers["User-Agent"] = "paddlecourse-hub-load/1"
        self.user_url = f"{hub_url}/user/{name}/"
        self.result = {"learner": name, "ok": False, "phase": "waiting", "times": {}, "errors": []}

    # ---------------------------------------------------------------- HTTP as a browser
    def page(self, url, **kwargs):
        """A navigation (address bar, link, redirect): no XSRF needed, cookies carried and kept."""
        response = self.session.get(url, timeout=HTTP_TIMEOUT, headers={
            "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "same-origin", "Accept": "text/html"}, **kwargs)
        return response

    def xsrf(self):
        """The single-user server's _xsrf cookie (path /user/<name>/), sent back as Lab's X-XSRFToken."""
        for cookie in self.session.cookies:
            if cookie.name == "_xsrf" and cookie.path.rstrip("/") == f"/user/{self.name_}":
                return cookie.value
        raise Failed(self.result["phase"], "the server set no _xsrf cookie")

    def api(self, method, path, **kwargs):
        """A fetch() from Lab: same-origin CORS mode, with the XSRF header."""
        headers = {"Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin", "X-XSRFToken": self.xsrf(),
                   "Accept": "application/json"}
        response = self.session.request(method, urljoin(self.user_url, path), timeout=HTTP_TIMEOUT,
                                        headers=headers, **kwargs)
        if response.status_code >= 400:
            raise Failed(self.result["phase"], f"{method} {path}: HTTP {response.status_code} {response.text[:200]}")
        return response

    def deadline(self, phase):
        return min(time.monotonic() + TIMEOUTS[phase], self.class_deadline)

    # ---------------------------------------------------------------- the phases
    def login(self):
        form = self.page(f"{self.hub}/hub/login")
        token = re.search(r'name="_xsrf" value="([^"]+)"', form.text)
        if form.status_code != 200 or not token:
            raise Failed("login", f"login page: HTTP {form.status_code}, xsrf {'found' if token else 'missing'}")
        response = self.session.post(f"{self.hub}/hub/login", timeout=HTTP_TIMEOUT, allow_redirects=False,
                                     data={"username": self.name_, "password": self.password,
                                           "_xsrf": html.unescape(token.group(1))},
                                     headers={"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "same-origin"})
        if response.status_code != 302 or "/hub/login" in response.headers.get("Location", "/hub/login"):
            text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.text))
            message = re.search(r"Invalid username or password|[^.]*error[^.]*", text, re.I)
            raise Failed("login", f"HTTP {response.status_code}: {message.group(0) if message else text[:200]}")
        return urljoin(self.hub, response.headers["Location"])

    def spawn(self, after_login):
        deadline = self.deadline("spawn")
        page = self.page(after_login)  # /hub/ -> /hub/spawn: the spawn starts; after 10 s, spawn-pending
        if f"/hub/spawn-pending/{self.name_}" in page.url:
            progress = re.search(r'new EventSource\("([^"]+)"\)', page.text)
            if not progress:
                raise Failed("spawn", "the spawn-pending page has no progress stream")
            url = urljoin(self.hub, html.unescape(progress.group(1)))
            ready = False
            headers = {"Accept": "text/event-stream", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin"}
            with self.session.get(url, stream=True, timeout=HTTP_TIMEOUT, headers=headers) as stream:
                if stream.status_code != 200:
                    raise Failed("spawn", f"progress stream: HTTP {stream.status_code}")
                for event in sse_events(stream, deadline, "spawn"):
                    if event.get("failed"):
                        raise Failed("spawn", f"the hub says: {event.get('message', event)}")
                    if event.get("ready"):
                        ready = True
                        break
            if not ready:
                raise Failed("spawn", "the progress stream ended before the server was ready")
            page = self.page(f"{self.hub}/hub/spawn-pending/{self.name_}")  # the page reloads: to the server
        if page.status_code != 200 or f"/user/{self.name_}/lab" not in page.url:
            raise Failed("spawn", f"ended at {urlsplit(page.url).path} with HTTP {page.status_code}")
        self.xsrf()  # the server's cookie is there

    def pull(self):
        deadline = self.deadline("pull")
        status = self.page(self.link)  # /hub/user-redirect/git-pull?... -> /user/<name>/git-pull?...
        body = re.search(r'data-xsrf="([^"]*)"', status.text)
        if status.status_code != 200 or f"/user/{self.name_}/git-pull" not in status.url or not body:
            raise Failed("pull", f"git-pull page: HTTP {status.status_code} at {urlsplit(status.url).path}")
        data = {k: requests.utils.unquote(html.unescape(v)) for k, v in
                re.findall(r'data-([a-z-]+)="([^"]*)"', status.text)}
        params = {"_xsrf": data["xsrf"], "repo": data["repo"], "targetpath": data["targetpath"]}
        if "branch" in data:
            params["branch"] = data["branch"]
        outcome = None
        with self.session.get(urljoin(self.user_url, "git-pull/api"), params=params, stream=True,
                              timeout=HTTP_TIMEOUT, headers={"Accept": "text/event-stream", "Sec-Fetch-Mode": "cors",
                                                             "Sec-Fetch-Site": "same-origin"}) as stream:
            if stream.status_code != 200:
                raise Failed("pull", f"git-pull stream: HTTP {stream.status_code}")
            for event in sse_events(stream, deadline, "pull"):
                if event.get("phase") in ("finished", "error"):
                    outcome = event
                    break
        if not outcome or outcome["phase"] != "finished":
            said = (outcome or {}).get("message") or (outcome or {}).get("output") or "no end"
            raise Failed("pull", f"nbgitpuller: {said}"[:400])
        lab = self.page(urljoin(self.user_url, data["path"]))  # where the page redirects: the lesson in Lab
        if lab.status_code != 200:
            raise Failed("pull", f"Lab page of the lesson: HTTP {lab.status_code}")
        path = data["path"].split("lab/tree/", 1)[-1]
        notebook = self.api("GET", f"api/contents/{path}", params={"type": "notebook", "content": 1}).json()
        return notebook["content"], path

    def run_all(self, sources, path, t0):
        times = self.result["times"]
        kernels_began = time.monotonic()
        # the kernel in the notebook's folder, as Lab starts it: the lesson's relative paths are the same
        kernel = self.api("POST", "api/kernels", json={"name": KERNEL, "path": path.rsplit("/", 1)[0]}).json()
        self.result["kernel_id"] = kernel["id"]
        url = urljoin(self.user_url.replace("http://", "ws://"), f"api/kernels/{kernel['id']}/channels") + \
            f"?session_id={uuid.uuid4()}"
        path = urlsplit(url).path
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.session.cookies if path.startswith(c.path.rstrip("/")))
        ws = websocket.create_connection(url, timeout=30, cookie=cookies, origin=self.hub,
                                         header=["Sec-Fetch-Mode: websocket", "Sec-Fetch-Site: same-origin"])
        session = uuid.uuid4().hex

        def send(msg_type, content):
            msg_id = uuid.uuid4().hex
            ws.send(json.dumps({"header": {"msg_id": msg_id, "msg_type": msg_type, "session": session,
                                           "username": self.name_, "version": "5.3",
                                           "date": datetime.now(timezone.utc).isoformat()},
                                "parent_header": {}, "metadata": {}, "content": content, "channel": "shell",
                                "buffers": []}))
            return msg_id

        def messages(deadline, phase):
            while True:
                if time.monotonic() > deadline:
                    raise Failed(phase, "timed out waiting for the kernel")
                try:
                    yield json.loads(ws.recv())
                except websocket.WebSocketTimeoutException:
                    continue
                except websocket.WebSocketConnectionClosedException:
                    raise Failed(phase, "the kernel's websocket closed")

        try:
            self.result["phase"] = "kernel"
            info = send("kernel_info_request", {})
            deadline = self.deadline("kernel")
            for msg in messages(deadline, "kernel"):
                if msg["msg_type"] == "kernel_info_reply" and msg["parent_header"].get("msg_id") == info:
                    break
            times["kernel"] = time.monotonic() - kernels_began

            self.result["phase"] = "lesson"
            run_all = time.monotonic()
            cells = {send("execute_request", {"code": source, "silent": False, "store_history": True,
                                              "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}): i
                     for i, source in enumerate(sources)}
            replies, statuses = {}, {}
            deadline = self.deadline("lesson")
            for msg in messages(deadline, "lesson"):
                parent = msg["parent_header"].get("msg_id")
                if parent not in cells:
                    continue
                kind = msg["msg_type"]
                if kind in ("stream", "execute_result", "display_data", "error") and "first_output" not in times:
                    times["first_output"] = time.monotonic() - run_all
                if kind == "error":
                    content = msg["content"]
                    self.result["errors"].append(f"code cell {cells[parent]}: {content.get('ename')}: "
                                                 f"{content.get('evalue', '')[:300]}")
                elif kind == "execute_reply":
                    replies[parent] = time.monotonic()
                    statuses[msg["content"]["status"]] = statuses.get(msg["content"]["status"], 0) + 1
                    if len(replies) == len(cells):
                        break
            times["lesson_done"] = max(replies.values()) - run_all
            self.result["cells"] = {"code": len(cells), **statuses}
            if self.result["errors"] or statuses.get("ok", 0) != len(cells):
                raise Failed("lesson", "; ".join(self.result["errors"]) or f"execute replies {statuses}")
        finally:
            ws.close()
        self.result["end_to_end"] = round(time.monotonic() - t0, 1)

    def run(self):
        times = self.result["times"]
        try:
            time.sleep(max(0.0, self.start_at - time.monotonic()))
            t0 = time.monotonic()
            self.result["phase"] = "login"
            after_login = self.login()
            times["login"] = time.monotonic() - t0

            self.result["phase"] = "spawn"
            began = time.monotonic()
            self.spawn(after_login)
            times["spawn"] = time.monotonic() - began

            self.result["phase"] = "pull"
            began = time.monotonic()
            notebook, path = self.pull()
            times["pull"] = time.monotonic() - began
            sources = answered_cells(notebook, self.lesson)

            self.run_all(sources, path, t0)
            self.result.update(ok=True, phase="done")
        except Failed as failure:
            self.result["failure"] = {"phase": failure.phase, "reason": failure.reason}
        except Exception as error:  # noqa: BLE001 - any other error is this learner's failure, with its reason
            self.result["failure"] = {"phase": self.result["phase"],
                                      "reason": f"{type(error).__name__}: {error}"[:500],
                                      "trace": traceback.format_exc()[-1500:]}
        finally:
            self.result["times"] = {k: round(v, 2) for k, v in times.items()}
            self.session.close()


class Sampler(threading.Thread):
    """Every `interval` s: each learner's RSS and PSS (all their processes), the hub's, the machine's."""

    def __init__(self, uids, hub_pid, interval, memory_floor=0):
        super().__init__(daemon=True)
        self.uids, self.hub_pid, self.interval = uids, hub_pid, interval
        self.memory_floor = memory_floor  # bytes: below this much available memory the run stops
        self.short_of_memory = threading.Event()
        self.peak_rss = {u: 0 for u in uids}
        self.peak_pss = {u: 0 for u in uids}
        self.peak_footprint = {u: 0 for u in uids}   # distinct resident pages (tests/hub/footprint.py)
        self.cpu = {u: {} for u in uids}  # pid -> CPU seconds last seen
        self.class_rss = self.class_pss = self.hub_rss = 0
        self.hub_cpu = {}
        self.baseline_used = self.used()
        self.peak_used = self.baseline_used
        self.min_available = psutil.virtual_memory().available
        self.busy = []  # the machine's CPU busy percent, each interval
        self.samples, self.sample_seconds = 0, 0.0
        self.stopping = threading.Event()

    @staticmethod
    def used():
        memory = psutil.virtual_memory()
        return memory.total - memory.available

    def sample(self):
        began = time.monotonic()
        rss, pss = {u: 0 for u in self.uids}, {u: 0 for u in self.uids}
        pids = {u: [] for u in self.uids}
        for process in psutil.process_iter(["uids"]):
            uid = process.info["uids"].real if process.info["uids"] else None
            if uid not in rss:
                continue
            measured = rss_pss_cpu(process)
            if measured is None:
                continue
            rss[uid] += measured[0]
            pss[uid] += measured[1]
            pids[uid].append(process.pid)
            self.cpu[uid][process.pid] = measured[2]
        for uid in self.uids:
            self.peak_rss[uid] = max(self.peak_rss[uid], rss[uid])
            self.peak_pss[uid] = max(self.peak_pss[uid], pss[uid])
            self.peak_footprint[uid] = max(self.peak_footprint[uid], footprint_bytes(pids[uid]) or 0)
        self.class_rss = max(self.class_rss, sum(rss.values()))
        self.class_pss = max(self.class_pss, sum(pss.values()))
        try:
            hub = psutil.Process(self.hub_pid)
            family = [hub, *hub.children(recursive=True)]
            hub_rss = 0
            for process in family:
                if process.uids().real == 0:  # the hub, its proxy and culler; not the learners' servers
                    hub_rss += process.memory_info().rss
                    times = process.cpu_times()
                    self.hub_cpu[process.pid] = times.user + times.system
            self.hub_rss = max(self.hub_rss, hub_rss)
        except psutil.Error:
            pass
        self.peak_used = max(self.peak_used, self.used())
        available = psutil.virtual_memory().available
        self.min_available = min(self.min_available, available)
        if available < self.memory_floor:
            self.short_of_memory.set()
        self.busy.append(psutil.cpu_percent(interval=None))
        self.samples += 1
        self.sample_seconds += time.monotonic() - began

    def run(self):
        psutil.cpu_percent(interval=None)
        while not self.stopping.wait(self.interval):
            self.sample()


def machine():
    model = next((line.split(":", 1)[1].strip() for line in
                  subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines()
                  if line.startswith("Model name")), platform.processor())
    return {"cpu_model": model, "cores": psutil.cpu_count(),
            "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
            "platform": platform.platform(), "load_average_before": [round(x, 2) for x in os.getloadavg()]}


def course_site(tmp, prefix, names):
    """Accounts, the course environment, a bare clone of this checkout (branch `course`), a hub."""
    passwords = hubctl.create_accounts([], names, prefix=prefix)
    python = hubctl.course_environment(tmp / "env")
    bare = tmp / "paddlecourse.git"
    subprocess.run(["git", "clone", "--quiet", "--bare", str(REPO), str(bare)], check=True)
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    subprocess.run(["git", "-C", str(bare), "update-ref", "refs/heads/course", head], check=True)
    gitconfig = tmp / "gitconfig"  # root's bare clone, served to the learners' accounts (see test_hub_class.py)
    gitconfig.write_text(f"[safe]\n\tdirectory = {bare}\n")
    gitconfig.chmod(0o644)
    exchange = tmp / "exchange"
    exchange.mkdir()
    exchange.chmod(0o1777)
    hub = hubctl.Hub(tmp / "state", exchange, prefix=tmp / "env", account_prefix=prefix, server_args=[
        "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ], extra_env={
        "PYTHONPATH": str(REPO),
        "LD_LIBRARY_PATH": hubctl.library_path(tmp / "env"),
        "GIT_CONFIG_SYSTEM": str(gitconfig),
    })
    proxy = shutil.which("configurable-http-proxy")
    if not proxy:
        raise SystemExit("configurable-http-proxy is missing: bash tools/system-parts.sh "
                         "(npm install -g configurable-http-proxy)")
    hub.env["PATH"] = f"{Path(proxy).parent}:{hub.env['PATH']}"
    return passwords, python, bare, hub


def run(learners=20, lesson="04_inside_a_static_program", ramp=60.0, deadline=2400.0, out=None, prefix=PREFIX,
        interval=1.0, memory_floor_mb=1536, log=print):
    """The whole load test; returns the report (and writes it to `out` as JSON)."""
    if os.geteuid() != 0:
        raise PermissionError("the load test makes Unix accounts and starts servers as them: run it as root")
    if not (REPO / "lessons" / f"{lesson}.ipynb").exists():
        raise ValueError(f"no lesson lessons/{lesson}.ipynb")
    names = [f"{prefix}{i:02d}" for i in range(1, learners + 1)]
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    tmp.chmod(0o755)
    hub = sampler = None
    report = {"learners": learners, "lesson": lesson, "ramp_seconds": ramp, "deadline_seconds": deadline,
              "machine": machine(), "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
    began = time.monotonic()
    try:
        passwords, _, bare, hub = course_site(tmp, prefix, names)
        log(f"{learners} accounts and the course environment ready in {time.monotonic() - began:.0f} s")
        link = next(line.split("\t")[1] for line in subprocess.run(
            [sys.executable, "-m", "paddlecourse", "links", "--repo", f"file://{bare}", "--branch", "course",
             "--hub", hub.url, "--names"], capture_output=True, text=True, check=True,
            env=dict(os.environ, PYTHONPATH=str(REPO))).stdout.splitlines() if line.startswith(f"{lesson}.ipynb\t"))
        sampler = Sampler([hubctl.uid(n) for n in names], None, interval, memory_floor_mb * MB)
        hub.start()
        sampler.hub_pid = hub.process.pid
        driver = psutil.Process()
        driver_cpu = sum(driver.cpu_times()[:2])
        sampler.start()
        class_began = time.monotonic()
        class_deadline = class_began + deadline
        threads = []
        for i, name in enumerate(names):
            learner = Learner(name, passwords[name], hub.url, link, lesson, class_began + i * ramp / learners,
                              class_deadline)
            learner.result["offset"] = round(i * ramp / learners, 1)
            threads.append(learner)
            learner.start()
        last = class_began
        stopped = None
        while any(t.is_alive() for t in threads) and time.monotonic() < class_deadline + 30:
            time.sleep(1)
            if sampler.short_of_memory.is_set():  # the machine's other work must not meet the OOM killer
                stopped = f"stopped: the machine had less than {memory_floor_mb} MB available"
                log(stopped)
                break
            if time.monotonic() - last >= 30:
                last = time.monotonic()
                phases = {}
                for t in threads:
                    phases[t.result["phase"]] = phases.get(t.result["phase"], 0) + 1
                log(f"{last - class_began:5.0f} s: {phases}")
        wall = time.monotonic() - class_began
        sampler.stopping.set()
        sampler.join(timeout=60)
        driver_cpu = sum(driver.cpu_times()[:2]) - driver_cpu
        results = []
        for t in threads:
            result = dict(t.result)
            if t.is_alive() and "failure" not in result:
                result["failure"] = {"phase": result["phase"],
                                     "reason": stopped or f"not done by the deadline ({deadline:.0f} s)"}
            uid = hubctl.uid(t.name_)
            result.update(peak_rss_mb=round(sampler.peak_rss[uid] / MB), peak_pss_mb=round(sampler.peak_pss[uid] / MB),
                          peak_footprint_mb=round(sampler.peak_footprint[uid] / MB),
                          cpu_seconds=round(sum(sampler.cpu[uid].values()), 1))
            result.pop("kernel_id", None)
            results.append(result)
        report.update(summarize(results, sampler, wall, driver_cpu))
        report["stopped"] = stopped
    finally:
        if sampler:
            sampler.stopping.set()
        if hub:
            hub.stop()
            if report.get("failures") or "ok" not in report:  # what the hub said, for the failures' causes
                report["hub_log_tail"] = hub.log_text()[-4000:]
                if out:  # the whole log (the hub's, its proxy's and every learner's server's) beside the report
                    Path(out).parent.mkdir(parents=True, exist_ok=True)
                    Path(str(out).removesuffix(".json") + ".hub.log").write_text(hub.log_text())
        hubctl.remove_accounts(names, prefix=prefix)
        shutil.rmtree(tmp, ignore_errors=True)
        report["total_seconds"] = round(time.monotonic() - began)
        left = hubctl.leftover_accounts(prefix)
        report["leftover_accounts"] = left
        if out:
            Path(out).parent.mkdir(parents=True, exist_ok=True)
            Path(out).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    return report


def summarize(results, sampler, wall, driver_cpu):
    failures = [{"learner": r["learner"], **r["failure"]} for r in results if "failure" in r]
    n = len(results)
    class_rss, class_pss = sampler.class_rss / MB, sampler.class_pss / MB
    cpu = [r["cpu_seconds"] for r in results]
    busy = sampler.busy or [0.0]
    return {
        "wall_seconds": round(wall, 1),
        "times_seconds": {phase: percentiles(r["times"].get(phase) for r in results) for phase in PHASES}
        | {"end_to_end": percentiles(r.get("end_to_end") for r in results)},
        "ok": sum(r["ok"] for r in results),
        "failures": failures,
        "memory_mb": {
            "per_learner_peak_rss": percentiles(r["peak_rss_mb"] for r in results),
            "per_learner_peak_pss": percentiles(r["peak_pss_mb"] for r in results),
            "per_learner_peak_footprint": percentiles(r["peak_footprint_mb"] for r in results),
            "paddle_alone_footprint": _mb(paddle_alone_bytes()),
            "class_peak_rss": round(class_rss), "class_peak_pss": round(class_pss),
            "class_peak_pss_per_learner": round(class_pss / n),
            "hub_and_proxy_peak_rss": round(sampler.hub_rss / MB),
            "machine_used_before": round(sampler.baseline_used / MB),
            "machine_peak_used": round(sampler.peak_used / MB),
            "machine_peak_added": round((sampler.peak_used - sampler.baseline_used) / MB),
            "machine_peak_added_per_learner": round((sampler.peak_used - sampler.baseline_used) / MB / n),
            "machine_min_available": round(sampler.min_available / MB),
        },
        "cpu": {
            "per_learner_seconds": percentiles(cpu),
            "learners_seconds": round(sum(cpu), 1),
            "hub_and_proxy_seconds": round(sum(sampler.hub_cpu.values()), 1),
            "driver_seconds": round(driver_cpu, 1),
            "machine_busy_percent_mean": round(statistics.mean(busy), 1),
            "machine_busy_percent_p95": percentiles(busy)["p95"],
            "samples": sampler.samples,
            "sampling_seconds": round(sampler.sample_seconds, 1),
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
        },
        "sizing": sizing(results, sampler, wall),
        "per_learner": results,
    }


def _mb(size):
    return round(size / MB) if size else None


def sizing(results, sampler, wall):
    """What the run says for a server: memory per learner, learners per GB and per core for this lesson.

    Memory: the class's peak PSS (every learner's processes at one moment, shared libraries split)
    and the machine's peak "used" added by the run (the hub too), each per learner. CPU: a learner's
    CPU seconds from login to the lesson's end (server start, pull, kernel, lesson); one core does
    60 / that many learners' starts a minute, and `cores_busy` is what the class kept busy on average.
    """
    n = len(results)
    class_pss = sampler.class_pss / MB / n
    added = (sampler.peak_used - sampler.baseline_used) / MB / n
    cpu = statistics.median(r["cpu_seconds"] for r in results) if results else 0
    learners_cpu = sum(r["cpu_seconds"] for r in results)
    return {
        "mb_per_learner_class_pss": round(class_pss),
        "mb_per_learner_machine": round(added),
        "learners_per_gb": round(1024 / max(class_pss, added), 2) if n else None,
        "cpu_seconds_per_learner": round(cpu, 1),
        "learner_starts_per_core_minute": round(60 / cpu, 1) if cpu else None,
        "cores_busy_mean": round(learners_cpu / wall, 2) if wall else None,
    }


def table(report):
    """A short text table of the report."""
    rows = [f"hub load: {report['learners']} learners, lesson {report['lesson']}, ramp {report['ramp_seconds']:.0f} s, "
            f"{report.get('ok', 0)} ok, {len(report.get('failures', []))} failed, {report.get('wall_seconds')} s wall",
            f"{'phase (s)':<14}{'median':>8}{'p95':>8}{'max':>8}{'n':>4}"]
    for phase, figures in report.get("times_seconds", {}).items():
        rows.append(f"{phase:<14}{figures['median'] if figures['median'] is not None else '-':>8}"
                    f"{figures['p95'] if figures['p95'] is not None else '-':>8}"
                    f"{figures['max'] if figures['max'] is not None else '-':>8}{figures['n']:>4}")
    memory, cpu = report.get("memory_mb"), report.get("cpu")
    if memory:
        rss, pss = memory["per_learner_peak_rss"], memory["per_learner_peak_pss"]
        own = memory["per_learner_peak_footprint"]
        rows += [f"memory per learner (MB): RSS median {rss['median']} max {rss['max']}; "
                 f"PSS median {pss['median']} max {pss['max']}; footprint (each page once) median {own['median']} "
                 f"max {own['max']}, against {memory['paddle_alone_footprint']} for Python with Paddle alone",
                 f"class peak (MB): RSS {memory['class_peak_rss']}, PSS {memory['class_peak_pss']}; machine used "
                 f"+{memory['machine_peak_added']} over {memory['machine_used_before']}; "
                 f"hub+proxy {memory['hub_and_proxy_peak_rss']}",
                 f"CPU: per learner median {cpu['per_learner_seconds']['median']} s, all learners "
                 f"{cpu['learners_seconds']} s, hub {cpu['hub_and_proxy_seconds']} s, machine busy "
                 f"{cpu['machine_busy_percent_mean']} % mean"]
    if report.get("sizing"):
        size = report["sizing"]
        rows.append(f"sizing: {size['mb_per_learner_class_pss']} MB PSS / {size['mb_per_learner_machine']} MB of the "
                    f"machine per learner ({size['learners_per_gb']} learners per GB); "
                    f"{size['cpu_seconds_per_learner']} CPU s per learner "
                    f"({size['learner_starts_per_core_minute']} starts per core-minute)")
    for failure in report.get("failures", []):
        rows.append(f"FAILED {failure['learner']} in {failure['phase']}: {failure['reason'][:160]}")
    return "\n".join(rows)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=20, help="simulated learners (10 where memory is short)")
    parser.add_argument("--lesson", default="04_inside_a_static_program", help="the lesson each learner runs")
    parser.add_argument("--ramp", type=float, default=60, help="seconds within which the learners start")
    parser.add_argument("--deadline", type=float, default=2400, help="seconds the whole class may take")
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between memory samples")
    parser.add_argument("--prefix", default=PREFIX, help="the accounts' and groups' name prefix")
    parser.add_argument("--memory-floor", type=int, default=1536,
                        help="MB: stop the run (learners not done fail) when the machine has less available")
    parser.add_argument("--out", help="the JSON report (default benchmarks/results/hub-load-<N>.json)")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        parser.error("run as root: the load test makes Unix accounts, as a hub's learners have")
    out = args.out or REPO / "benchmarks" / "results" / f"hub-load-{args.learners}.json"

    def stop(signum, frame):  # a SIGTERM cleans up as Ctrl-C does
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, stop)
    report = run(args.learners, args.lesson.removesuffix(".ipynb"), args.ramp, args.deadline, out, args.prefix,
                 args.interval, args.memory_floor, log=lambda message: print(message, flush=True))
    print(table(report))
    print(f"wrote {out}")
    return 0 if not report.get("failures") and report.get("ok") == args.learners else 1


if __name__ == "__main__":
    sys.exit(main())
