"""Run every lesson solution in a folder on one kernel of THIS Python; count the error cells.

usage: <venv>/bin/python tools/run_solutions.py [--kernel NAME] [--only FILE ...] FOLDER [RESULTS.json]

Used by tools/try-paddle-version.sh (the course kernel of a venv with another Paddle), noxfile.py (`make matrix`)
and tests/test_portability.py (a venv's plain `python3` kernel, as a learner's own Jupyter runs a lesson). FOLDER
holds copies of solutions/NN_*.ipynb (exports write files next to them); each executed notebook is written beside
its copy as NAME.executed.ipynb. Exit status 1 when any cell errs, 2 when the kernel found is not this Python's
(another environment's kernel would prove nothing).
"""
import argparse
import json
import os
import sys
import time

import jupyter_client
import nbformat
from nbclient import NotebookClient

from paddlecourse.lesson_index import lesson_paths


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("results", nargs="?")
    parser.add_argument("--kernel", default="paddlecourse", help="the kernelspec to run them on (default: paddlecourse)")
    parser.add_argument("--only", action="append", help="only this notebook of the folder (repeatable)")
    args = parser.parse_args(argv)
    spec = jupyter_client.kernelspec.KernelSpecManager().get_kernel_spec(args.kernel)
    command = spec.argv[0]
    # jupyter_client starts a spec whose command is plain "python" (ipykernel's own python3 spec) with the Python
    # that launches it, this one
    if command in ("python", "python%d" % sys.version_info[0], "python%d.%d" % sys.version_info[:2]):
        command = sys.executable
    print("kernel:", args.kernel, command, flush=True)
    if os.path.realpath(command) != os.path.realpath(sys.executable):
        hint = f"`paddlecourse kernel --prefix {sys.prefix}`" if args.kernel == "paddlecourse" else \
            "JUPYTER_PREFER_ENV_PATH=1, so this environment's kernels come first"
        print(f"the {args.kernel} kernel runs {spec.argv[0]}, not {sys.executable}: {hint}", file=sys.stderr)
        return 2
    results, total = {}, 0
    for path in map(str, lesson_paths(args.folder)):
        if path.endswith(".executed.ipynb") or (args.only and os.path.basename(path) not in args.only):
            continue
        notebook = nbformat.read(path, as_version=4)
        start = time.time()
        try:
            NotebookClient(notebook, timeout=300, allow_errors=True, kernel_name=args.kernel,
                           resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}}).execute()
            failure = None
        except Exception as error:   # the kernel died, or a cell ran out of time
            started = [i for i, cell in enumerate(notebook.cells) if cell.cell_type == "code" and cell.execution_count]
            where = f" in cell [{started[-1]}]" if started else " before the first cell"   # the last one it began
            failure = f"{type(error).__name__}{where}: {error}"[:300]
        seconds = time.time() - start
        nbformat.write(notebook, path.replace(".ipynb", ".executed.ipynb"))
        errors = [{"index": i, "ename": output.get("ename"), "evalue": output.get("evalue", "")[:500]}
                  for i, cell in enumerate(notebook.cells) if cell.cell_type == "code"
                  for output in cell.get("outputs", []) if output.get("output_type") == "error"]
        total += len(errors) + (failure is not None)
        results[os.path.basename(path)] = {"seconds": round(seconds, 1), "failure": failure, "errors": errors}
        print(f"{os.path.basename(path)}: {len(errors)} error cells, {seconds:.0f} s {failure or ''}", flush=True)
        for error in errors:
            print(f"    [{error['index']}] {error['ename']}: {error['evalue'][:150]!r}", flush=True)
    print(f"error cells in all: {total}")
    if args.results:
        with open(args.results, "w") as out:
            json.dump(results, out, indent=1)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
