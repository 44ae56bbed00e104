"""Print the portability matrix's results (noxfile.py) as one Markdown table, then every error cell.

usage: python3 tools/matrix_report.py [RESULTS_DIR]     (default: build/matrix/results; `nox -s report`)

Standard library only, so any Python prints it. Exit status 1 when any session had error cells or did not run
on its own venv's kernel.
"""
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ORDER = {"lowest": 0, "newest": 1}


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def main(folder=None):
    folder = Path(folder or ROOT / "build" / "matrix" / "results")
    results = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
    if not results:
        print(f"no results in {folder}: run `make matrix` first", file=sys.stderr)
        return 2
    results.sort(key=lambda r: (tuple(int(x) for x in r["python"].split(".")), ORDER.get(r["deps"], 9)))
    print(f"Portability matrix, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {cpu_model()}, "
          f"{os.cpu_count()} cores; wheel {results[0]['wheel']}; each session run at {results[0]['date']} or later")
    print()
    print("| Python | deps | paddlepaddle | numpy | pip | ipykernel | matplotlib | error cells | which (notebook [cell]) | s |")
    print("|---|---|---|---|---|---|---|---:|---|---:|")
    bad = 0
    for r in results:
        v = r["versions"]
        which = []
        for name, nb in sorted(r["notebooks"].items()):
            short = name.split("_")[0]
            which += [f"{short} [{e['index']}] {e['ename']}" for e in nb["errors"]]
            if nb["failure"]:
                which.append(f"{short}: {nb['failure'][:60]}")
        if not r["kernel_ok"]:
            which.append("not run: the python3 kernel was not this venv's")
        bad += r["error_cells"] + (not r["kernel_ok"])
        print(f"| {r['python']} | {r['deps']} | {v['paddlepaddle']} | {v['numpy']} | {v['pip']} | {v['ipykernel']} | "
              f"{v['matplotlib']} | {r['error_cells']} | {'; '.join(which) or '-'} | {r['seconds']:.0f} |")
    print()
    print("Every error cell (notebook, cell index, ename, evalue):")
    print()
    listed = False
    for r in results:
        for name, nb in sorted(r["notebooks"].items()):
            for e in nb["errors"]:
                evalue = " ".join(e["evalue"].split())[:300]
                print(f"- {r['python']} {r['deps']}: {name} [{e['index']}] {e['ename']}: {evalue}")
                listed = True
            if nb["failure"]:
                print(f"- {r['python']} {r['deps']}: {name}: {nb['failure']}")
                listed = True
    if not listed:
        print("- none")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))
