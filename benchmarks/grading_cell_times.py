"""Benchmark: each lesson's cells as the autograder runs them, against the per-cell limit.

    .venv/bin/python benchmarks/grading_cell_times.py [solutions/03_dynamic_training_loop.ipynb ...]

Runs every solution (or the ones named) top to bottom with NBGRADER_EXECUTION=autograde, as nbgrader
runs a submission: long training runs and widgets are gated on grading_in_progress() and do less.
Prints each lesson's slowest cells and the share of the per-cell limit they use. A cell that uses
more than half of it on a quiet machine is interrupted on a busy one: gate it. Run it beside two
busy processes too (`timeout 900 sh -c 'while :; do :; done' &`, twice) to see the loaded figures.
"""
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from paddlecourse.teach.grading.course import CELL_TIMEOUT, lesson_notebooks  # noqa: E402
from paddlecourse.teach.grading.timing import time_cells  # noqa: E402


def main(argv=None):
    paths = [Path(p) for p in (argv if argv is not None else sys.argv[1:])] or lesson_notebooks(ROOT)
    os.environ["NBGRADER_EXECUTION"] = "autograde"  # the kernel inherits it, as under nbgrader
    results, worst = {}, 0.0
    for path in paths:
        kernel, timings = time_cells(path, timeout=10 * CELL_TIMEOUT)
        slowest = sorted(timings, key=lambda t: -t[1])[:3]
        worst = max([worst] + [seconds for _, seconds, _ in timings])
        results[path.name] = {"kernel_start_s": round(kernel, 1),
                              "slowest_cells": [[index, round(seconds, 1)] for index, seconds, _ in slowest]}
        cells = ", ".join(f"cell {i}: {s:.1f} s ({s / CELL_TIMEOUT:.0%} of the limit)" for i, s, _ in slowest)
        print(f"{path.name}: kernel {kernel:.1f} s; slowest {cells}", flush=True)
    print(f"slowest cell of all: {worst:.1f} s, {worst / CELL_TIMEOUT:.0%} of the {CELL_TIMEOUT} s per-cell limit")
    out = ROOT / "test-artifacts"
    out.mkdir(exist_ok=True)
    (out / "grading_cell_times.json").write_text(json.dumps(
        {"cell_limit_s": CELL_TIMEOUT, "cores": os.cpu_count(), "lessons": results}, indent=1))


if __name__ == "__main__":
    main()
