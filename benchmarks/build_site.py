"""Benchmark: how long `paddlecourse site` takes to build the whole website (English and Chinese).

    .venv/bin/python benchmarks/build_site.py [--repeats 3]

Builds into a temporary folder each time and prints the median and spread of the wall time and of
the CPU time the build and its Sphinx runs used (the difference is time spent waiting for a core:
a busy machine shows it there). The test suite builds the site once and checks what it holds; it
asserts no time. Figures depend on the machine and on how busy it is.
"""
import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_once(out):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "paddlecourse", "site", "--out", str(out)], cwd=ROOT, check=True,
                   capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    walls, cpus = [], []
    for i in range(args.repeats):
        with tempfile.TemporaryDirectory(prefix="site-bench-") as folder:
            wall, cpu = build_once(Path(folder) / "html")
        walls.append(wall)
        cpus.append(cpu)
        print(f"build {i + 1}: {wall:.1f} s wall, {cpu:.1f} s CPU", flush=True)
    results = {"repeats": args.repeats, "cores": __import__("os").cpu_count(),
               "wall_median_s": round(statistics.median(walls), 1), "wall_range_s": [round(min(walls), 1), round(max(walls), 1)],
               "cpu_median_s": round(statistics.median(cpus), 1)}
    print(json.dumps(results))
    out = ROOT / "test-artifacts"
    out.mkdir(exist_ok=True)
    (out / "build_site_benchmark.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
