"""How big a server (or cluster) a class needs, from the figures in deploy/measurements.json.

    python deploy/sizing.py            # the tables for instructors/hub.md and the Kubernetes values
    python deploy/sizing.py --write    # put the tables into instructors/hub.md (between its markers)

The measurements come from tests/hub/bench_learners.py (each lesson run by several
learners at once: JupyterLab server + course kernel). The rule is The Littlest
JupyterHub's published estimate:

- memory = concurrent learners x memory allowed per learner + 128 MB (the hub, its proxy)
- CPU    = concurrent learners x CPU used per learner, + 20 %
- disk   = all learners x disk per learner + 2 GB
- concurrent learners: 40-60 % of the class; we take 60 %.

The memory allowed per learner is the heaviest lesson's measured peak footprint (each resident
page of the learner's server, kernel and child processes once: what a container holding that
learner alone is charged; tests/hub/footprint.py) plus 25 % headroom (a learner who re-runs
cells or experiments), rounded up to 128 MB; Kubernetes gets the same figure as its limit, and
the median lesson's peak as its guarantee. Measurements made before the footprint was recorded
fall back to RSS, which counts Paddle's libraries once per process and so asks for more. CPU per learner
is the heaviest lesson's CPU seconds spread over one minute (at least a quarter core).
"""
import json
import math
from pathlib import Path

HERE = Path(__file__).resolve().parent
MEASUREMENTS = HERE / "measurements.json"
CLASSES = (30, 100, 500)
CONCURRENT_SHARE = 0.6
HUB_OVERHEAD_MB = 128
DISK_OVERHEAD_GB = 2
HEADROOM = 1.25


def round_up(value, step):
    return int(math.ceil(value / step) * step)


def per_learner(measured):
    """Memory limit and guarantee (MB), CPU (cores) and disk (MB) for one learner."""
    lessons = measured["lessons"].values()
    key = "peak_footprint_mb" if all("peak_footprint_mb" in lesson for lesson in lessons) else "peak_rss_mb"
    # each lesson's heaviest footprint from either measurement: the lesson runs beside a server
    # (bench_learners) and a class on a hub (hub_load), which saw up to 742 MB where the first saw 715
    by_hub = measured.get("hub_load_footprints", {}).get("lessons_mb", {})
    peaks = sorted(max(lesson[key], by_hub.get(name, 0)) for name, lesson in measured["lessons"].items())
    median = peaks[len(peaks) // 2]
    # A learner who runs a whole lesson within one minute (each lesson runs top to bottom in
    # under a minute on one CPU) uses the heaviest lesson's CPU seconds / 60 cores. Not the
    # measured run time: on the shared test machine it is stretched by other jobs.
    cores = max(lesson["cpu_seconds"] for lesson in lessons) / 60
    return {
        "memory_limit_mb": round_up(max(peaks) * HEADROOM, 128),
        "memory_guarantee_mb": round_up(median, 128),
        "cpu_cores": max(0.25, round_up(cores * 100, 25) / 100),
        "disk_mb": round_up(measured["home_mb"] * 2, 64),  # twice what the lessons left: room for their own files
    }


def class_size(learners, one):
    concurrent = math.ceil(learners * CONCURRENT_SHARE)
    return {
        "learners": learners,
        "concurrent": concurrent,
        "ram_gb": round((concurrent * one["memory_limit_mb"] + HUB_OVERHEAD_MB) / 1024, 1),
        "cpus": round(concurrent * one["cpu_cores"] * 1.2, 1),
        "disk_gb": round(learners * one["disk_mb"] / 1024 + DISK_OVERHEAD_GB, 1),
    }


# each guide's column headings: instructors/hub.md and its Chinese edition
HEADINGS = {
    "en": {"classes": "| learners | at once (60 %) | RAM | CPU cores | disk |",
           "lessons": "| lesson | peak memory per learner: footprint (each page once) | RSS | PSS (shared libraries split) | "
                      "CPU seconds | run time with {n} at once |"},
    "zh": {"classes": "| 学员数 | 同时在线（60 %） | 内存 | CPU 核数 | 磁盘 |",
           "lessons": "| 课程 | 每名学员的峰值内存：独占量（每页只算一次） | RSS | PSS（共享库分摊） | CPU 秒数 | "
                      "{n} 人同时运行时的用时 |"},
}


def table(measured, language="en"):
    one = per_learner(measured)
    rows = [HEADINGS[language]["classes"], "|---|---|---|---|---|"]
    for size in (class_size(n, one) for n in CLASSES):
        rows.append(f"| {size['learners']} | {size['concurrent']} | {size['ram_gb']} GB | {size['cpus']} | "
                    f"{size['disk_gb']} GB |")
    return "\n".join(rows)


def lesson_table(measured, language="en"):
    rows = [HEADINGS[language]["lessons"].format(n=measured["learners_at_once"]), "|---|---|---|---|---|---|"]
    for name, lesson in measured["lessons"].items():
        seconds = max(r["seconds"] for r in lesson["learners"])
        footprint = f"{lesson['peak_footprint_mb']} MB" if "peak_footprint_mb" in lesson else "-"
        rows.append(f"| {name} | {footprint} | {lesson['peak_rss_mb']} MB | {lesson['peak_pss_mb']} MB | "
                    f"{lesson['cpu_seconds']} | {seconds:.0f} s |")
    return "\n".join(rows)


def kubernetes_resources(measured):
    """singleuser.memory and singleuser.cpu for deploy/z2jh/config.yaml."""
    one = per_learner(measured)
    return {
        "memory": {"guarantee": f"{one['memory_guarantee_mb']}M", "limit": f"{one['memory_limit_mb']}M"},
        "cpu": {"guarantee": one["cpu_cores"], "limit": 1.0},
    }


def load(path=MEASUREMENTS):
    return json.loads(Path(path).read_text())


GUIDE = HERE.parent / "instructors" / "hub.md"
GUIDES = {"en": GUIDE, "zh": HERE.parent / "instructors" / "hub.zh.md"}


def sections(measured, language="en"):
    """{marker name: generated markdown} for the guide's <!-- sizing:NAME --> ... <!-- /sizing --> blocks."""
    return {"lessons": lesson_table(measured, language), "classes": table(measured, language)}


def block(name, text):
    return f"<!-- sizing:{name} -->\n{text}\n<!-- /sizing -->"


def write_guide(measured, guide=GUIDE, language="en"):
    import re

    text = guide.read_text()
    for name, generated in sections(measured, language).items():
        text, count = re.subn(rf"<!-- sizing:{name} -->.*?<!-- /sizing -->", lambda _: block(name, generated), text,
                              flags=re.S)
        if count != 1:
            raise SystemExit(f"{guide} needs exactly one <!-- sizing:{name} --> ... <!-- /sizing --> block")
    guide.write_text(text)


if __name__ == "__main__":
    import sys

    measured = load()
    if "--write" in sys.argv:
        for language, guide in GUIDES.items():
            write_guide(measured, guide, language)
            print(f"tables written into {guide}")
    print(lesson_table(measured), "\n")
    print(table(measured), "\n")
    print(json.dumps(kubernetes_resources(measured)))
