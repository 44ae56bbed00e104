"""Benchmark: grade a synthetic class of lesson 02 with --jobs 1 and --jobs 2, in one run.

    PYTHONPATH=. .venv/bin/python benchmarks/grade_class.py [--students 40] [--jobs 1 2] [--busy 2]

Prints seconds per submission for each --jobs, the speed-up, and the floor: one sandbox,
one kernel start and one `import paddle` (what every submission pays twice: once for the
student's run, once for the judge's run). Figures depend on the machine and on how busy it is:
``--busy N`` keeps N other processes spinning on the CPU the whole time (a loaded machine, made the
same way every time). Every student must get the score it earned, at every --jobs.
"""
import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from paddlecourse.teach import grading  # noqa: E402
from paddlecourse.teach.grading import sandbox  # noqa: E402

ASSIGNMENT, NOTEBOOK = "l02", "02_autograd_by_hand.ipynb"


def solution_answers():
    notebook = nbformat.read(ROOT / "solutions" / NOTEBOOK, as_version=4)
    return {c.metadata["nbgrader"]["grade_id"]: re.sub(r"[ \t]*### (BEGIN|END) SOLUTION\n?", "", c.source)
            for c in notebook.cells if c.metadata.get("nbgrader", {}).get("solution")}


def synthetic(i, right):
    """Student i: every fourth blank, every fourth with one wrong number, the rest right (varied spacing)."""
    answers = dict(right)
    if i % 4 == 1:
        return {}
    if i % 4 == 2:
        answers["l02-ex2-answer"] = "dz_dw = 8\ndz_dx = 4\ndz_db = 4"
    answers["l02-ex1-answer"] = "tracked = " + ["{'b', 'd', 'e'}", "['e', 'd', 'b']", "('B', 'D', 'E')"][i % 3]
    return answers


def earned(i):
    """The score synthetic() student i earned (l02: 1 + 3 + 2 + 3 points)."""
    return 0.0 if i % 4 == 1 else 6.0 if i % 4 == 2 else 9.0


def spinning(count):
    """``count`` processes that keep a core busy each until they are killed."""
    import subprocess

    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def floor(limits, repeats=3):
    from paddlecourse.teach.grading.runs import run_cells as _run
    from nbformat.v4 import new_code_cell

    times = []
    for _ in range(repeats):
        start = time.monotonic()
        _run([new_code_cell("import paddle")], limits, True, "paddlecourse")
        times.append(time.monotonic() - start)
    return statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--busy", type=int, default=0, help="processes spinning beside the grading")
    args = parser.parse_args(argv)
    busy = spinning(args.busy)
    try:
        run(args)
    finally:
        for process in busy:
            process.kill()


def run(args):
    base = Path(tempfile.mkdtemp(prefix="grade-class-bench-"))
    course = base / "course"
    grading.create_course(course, generate=False)
    grading.generate_assignment(course, ASSIGNMENT)
    grading.release_assignment(course, ASSIGNMENT)
    released = course / "exchange" / grading.COURSE_ID / "outbound" / ASSIGNMENT / NOTEBOOK
    right = solution_answers()
    for i in range(args.students):
        notebook = nbformat.read(released, as_version=4)
        answers = synthetic(i, right)
        for cell in notebook.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id in answers:
                cell.source = answers[grade_id]
        home = base / "students" / f"s{i:03d}"
        (home / ASSIGNMENT).mkdir(parents=True)
        nbformat.write(notebook, home / ASSIGNMENT / NOTEBOOK)
        grading.submit(home, ASSIGNMENT, f"s{i:03d}", course / "exchange", cache=base / "cache")
    grading.collect(course, ASSIGNMENT)
    results = {"students": args.students, "cores": __import__("os").cpu_count(), "busy_processes": args.busy}
    results["floor_seconds"] = round(floor(sandbox.Limits()), 2)
    print(f"floor (sandbox + kernel start + import paddle): {results['floor_seconds']} s", flush=True)
    scores = None
    for jobs in args.jobs:
        start = time.monotonic()
        report = grading.grade_class(course, ASSIGNMENT, jobs=jobs)
        seconds = time.monotonic() - start
        got = {g.student: g.score for g in report.grades}
        assert got == {f"s{i:03d}": earned(i) for i in range(args.students)}, f"--jobs {jobs}: a wrong score\n{report}"
        assert scores is None or got == scores, "scores differ between --jobs runs"
        scores = got
        results[f"jobs{jobs}"] = {"seconds": round(seconds, 1), "per_submission": round(seconds / args.students, 2)}
        print(f"--jobs {jobs}: {seconds:.1f} s, {seconds / args.students:.2f} s per submission", flush=True)
    if len(args.jobs) >= 2:
        first, last = args.jobs[0], args.jobs[-1]
        results["speedup"] = round(results[f"jobs{first}"]["seconds"] / results[f"jobs{last}"]["seconds"], 2)
        print(f"speed-up --jobs {last} over --jobs {first}: {results['speedup']}x")
    out = ROOT / "test-artifacts"
    out.mkdir(exist_ok=True)
    name = "grade_class_benchmark" + (f"_busy{args.busy}" if args.busy else "")
    (out / f"{name}.json").write_text(json.dumps(results, indent=1))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
