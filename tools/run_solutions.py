"""Run every lesson solution in a folder with the `paddlecourse` kernel of THIS Python; count the error cells.

usage: <venv>/bin/python tools/run_solutions.py FOLDER [RESULTS.json]

Used by tools/try-paddle-version.sh (issue 24): FOLDER holds copies of solutions/0*.ipynb (exports write files
next to them); each executed notebook is written beside its copy as NAME.executed.ipynb. Exit status 1 when any
cell errs, 2 when the kernel found is not this Python's (another environment's kernel would prove nothing).
"""
import glob
import json
import os
import sys
import time

import jupyter_client
import nbformat
from nbclient import NotebookClient


def main(folder, results_path=None):
    spec = jupyter_client.kernelspec.KernelSpecManager().get_kernel_spec("paddlecourse")
    print("kernel:", spec.argv[0], flush=True)
    if os.path.realpath(spec.argv[0]) != os.path.realpath(sys.executable):
        print(f"the paddlecourse kernel runs {spec.argv[0]}, not {sys.executable}: install it with "
              f"`paddlecourse kernel --prefix {sys.prefix}`", file=sys.stderr)
        return 2
    results, total = {}, 0
    for path in sorted(glob.glob(os.path.join(folder, "0*.ipynb"))):
        if path.endswith(".executed.ipynb"):
            continue
        notebook = nbformat.read(path, as_version=4)
        start = time.time()
        try:
            NotebookClient(notebook, timeout=300, allow_errors=True, kernel_name="paddlecourse",
                           resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}}).execute()
            failure = None
        except Exception as error:   # the kernel died, or a cell ran out of time
            failure = f"{type(error).__name__}: {error}"[:300]
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
    if results_path:
        with open(results_path, "w") as out:
            json.dump(results, out, indent=1)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
