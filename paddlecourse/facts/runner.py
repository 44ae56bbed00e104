"""Run facts, each in a fresh Python process, and report per lesson what holds, what differs, what needs a look."""
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..language import _, N_

MARKER = "@@paddlecourse-fact@@"
# Runs the probe as a script of its own, then prints the observation on one marked line.
WRAPPER = (
    "import json, sys\n"
    "namespace = {'__name__': '__fact__'}\n"
    "exec(compile(sys.argv[1], '<fact probe>', 'exec'), namespace)\n"
    f"print({MARKER!r} + json.dumps(namespace['observed'], ensure_ascii=False), flush=True)\n"
)

HOLDS, DIFFERS, NEEDS_A_LOOK = "holds", "differs", "needs a look"
# Translators: the three verdicts of `paddlecourse verify --facts`
VERDICTS = {HOLDS: N_("holds"), DIFFERS: N_("differs"), NEEDS_A_LOOK: N_("needs a look")}
MARKS = {HOLDS: "✓", DIFFERS: "≠", NEEDS_A_LOOK: "?"}
LESSON_TITLES = {
    "00": N_("Lesson 00 — setup and first run"),
    "01": N_("Lesson 01 — two ways to cook"),
    "02": N_("Lesson 02 — autograd by hand"),
    "04": N_("Lesson 04 — inside a static program"),
    "06": N_("Lesson 06 — export"),
    "07": N_("Lesson 07 — where static is faster"),
    "08": N_("Lesson 08 — choosing and fixing"),
}


@dataclass
class FactResult:
    fact: object
    verdict: str
    observed: object = None
    problem: str = ""     # why a probe needs a look: its error, its exit status, or the time it ran out of
    seconds: float = 0.0


def _probe_env():
    env = dict(os.environ)
    env.setdefault("GLOG_minloglevel", "2")     # Paddle's log lines, as in the course kernel
    env.pop("PYTHONWARNINGS", None)             # a probe may look at the warnings the kernel hides
    env["PYTHONIOENCODING"] = "utf-8"
    env["PYTHON_COLORS"] = "0"                   # plain tracebacks: a kernel sets FORCE_COLOR, which CPython 3.13 obeys
    return env


def run_fact(fact, python=None):
    """One fact in a fresh process; a crash, an error or a timeout is "needs a look"."""
    start = time.monotonic()
    command = [python or sys.executable, "-c", WRAPPER, fact.probe]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=fact.timeout, env=_probe_env(),
                              encoding="utf-8", errors="replace")
    except subprocess.TimeoutExpired:
        return FactResult(fact, NEEDS_A_LOOK, problem=_("no answer within {seconds:.0f} s").format(
            seconds=fact.timeout), seconds=time.monotonic() - start)
    seconds = time.monotonic() - start
    marked = [line[len(MARKER):] for line in done.stdout.splitlines() if line.startswith(MARKER)]
    if done.returncode != 0 or not marked:
        last = [line for line in done.stderr.strip().splitlines() if line.strip()][-1:] or [""]
        return FactResult(fact, NEEDS_A_LOOK, problem=_("the probe ended with status {status}: {last}").format(
            status=done.returncode, last=last[0].strip()[:300]), seconds=seconds)
    observed = json.loads(marked[-1])
    verdict = HOLDS if fact.holds_for(observed) else DIFFERS
    return FactResult(fact, verdict, observed=observed, seconds=seconds)


def run_facts(facts, jobs=None, python=None):
    """Run ``facts`` (a few at a time, each in its own process) and return their results in the same order."""
    jobs = jobs or max(1, min(4, os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda fact: run_fact(fact, python=python), facts))


def _shown(value, width=150):
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def format_report(results, paddle_version="", seconds=None):
    """Per lesson: each statement with its verdict; for one that differs, what the lesson states and what was seen."""
    lines = []
    for lesson in sorted({r.fact.lesson for r in results}):
        mine = [r for r in results if r.fact.lesson == lesson]
        title = _(LESSON_TITLES[lesson]) if lesson in LESSON_TITLES else lesson
        lines.append(_("{title} ({seconds:.0f} s of probes)").format(title=title, seconds=sum(r.seconds for r in mine)))
        for r in mine:
            lines.append(f"  {MARKS[r.verdict]} {_(VERDICTS[r.verdict])}: {_(r.fact.where)}: {_(r.fact.statement)}")
            if r.verdict == DIFFERS:
                lines.append("      " + _("stated:   {value}").format(value=_shown(r.fact.stated)))
                lines.append("      " + _("observed: {value}").format(value=_shown(r.observed)))
            elif r.verdict == NEEDS_A_LOOK:
                lines.append("      " + r.problem)
        lines.append("")
    counts = {verdict: sum(r.verdict == verdict for r in results) for verdict in VERDICTS}
    summary = _("paddle {version}: {holds} hold, {differ} differ, {look} need a look").format(
        version=paddle_version or "?", holds=counts[HOLDS], differ=counts[DIFFERS], look=counts[NEEDS_A_LOOK])
    if seconds is not None:
        summary += _(" ({seconds:.0f} s)").format(seconds=seconds)
    lines.append(summary)
    if counts[DIFFERS] or counts[NEEDS_A_LOOK]:
        lines.append(_("A statement that differs holds on the Paddle the course is checked on, not on this one: trust "
                       "what this Paddle does (the lesson's cell says so where it was probed). A probe that needs a look "
                       "did not finish: its last line is shown."))
    return "\n".join(lines)
