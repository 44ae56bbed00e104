"""Build the student copies in lessons/ from the instructor notebooks in solutions/.

solutions/ is the single source. A student copy is what nbgrader's own
`generate_assignment` makes of it - solutions cleared, hidden tests removed,
cells locked, checksums recorded - by composing nbgrader's preprocessors in the
same order, without its database or course directory. Nothing is re-implemented.
"""
import copy
from pathlib import Path

import nbformat
from nbgrader.preprocessors import (
    CheckCellMetadata,
    ClearHiddenTests,
    ClearMarkScheme,
    ClearOutput,
    ClearSolutions,
    ComputeChecksums,
    LockCells,
)

from .sources import solution_paths

# The order nbgrader's GenerateAssignment uses (minus header/footer, test
# templates and the database): checksums are computed before hidden tests are
# cleared, and again after, exactly as there.
STUDENT_COPY_STEPS = (
    LockCells,
    ClearSolutions,
    ClearOutput,
    CheckCellMetadata,
    ComputeChecksums,
    ClearHiddenTests,
    ClearMarkScheme,
    ComputeChecksums,
    CheckCellMetadata,
)

EXECUTE_TIMEOUT = 300  # seconds per cell when refreshing the solutions' outputs


def student_copy(solution):
    """Return the student version of one solution notebook (a NotebookNode)."""
    notebook = copy.deepcopy(solution)
    resources = {}
    for step in STUDENT_COPY_STEPS:
        notebook, resources = step().preprocess(notebook, resources)
    # The solution run's saved widget state: outputs are gone, so it only adds bulk.
    notebook.metadata.pop("widgets", None)
    return notebook


def write_notebook(notebook, path):
    """Write a notebook the same way every time, so regenerated copies compare byte for byte."""
    Path(path).write_text(nbformat.writes(notebook) + "\n", encoding="utf-8")


EDITIONS = ("zh",)  # languages besides English, each in a folder of its own: solutions/zh/, lessons/zh/


def build_lessons(solutions_dir="solutions", lessons_dir="lessons"):
    """Regenerate every student copy, English and each edition's; returns the paths written."""
    written = []
    for source_dir, target_dir in [(Path(solutions_dir), Path(lessons_dir))] + [
            (Path(solutions_dir) / lang, Path(lessons_dir) / lang) for lang in EDITIONS]:
        if not source_dir.is_dir():
            continue
        target_dir.mkdir(parents=True, exist_ok=True)
        for source in solution_paths(source_dir, include_extras=True):
            target = target_dir / source.name
            write_notebook(student_copy(nbformat.read(source, as_version=4)), target)
            written.append(target)
    return written


def write_first_cells(solutions_dir="solutions", repo=None):
    """Write the English solutions' first code cells (``first_cell``: set-up, or the install sentence, made from
    the course's public address); returns the paths whose cell changed. Outputs stay until the next --execute."""
    from .deploy_links import public_repository
    from .first_cell import write_first_cell

    repo = repo if repo is not None else public_repository()
    written = []
    for path in solution_paths(solutions_dir, include_extras=True):
        notebook = nbformat.read(path, as_version=4)
        if write_first_cell(notebook, "en", repo):
            write_notebook(notebook, path)
            written.append(path)
    return written


def build_editions(solutions_dir="solutions", langs=EDITIONS):
    """Write each edition's solutions (solutions/zh/...) from the English ones and the catalogues, the English
    first cells first (they are what the editions' first cells are made from).

    Returns {path: [indexes of markdown cells still in English]}: an edition is built even while its
    catalogue lags behind, and the tests say which cells are left."""
    from .editions import translated_notebook

    write_first_cells(solutions_dir)
    report = {}
    for lang in langs:
        folder = Path(solutions_dir) / lang
        folder.mkdir(parents=True, exist_ok=True)
        for english in solution_paths(solutions_dir, include_extras=True):
            target = folder / english.name
            previous = nbformat.read(target, as_version=4) if target.exists() else None
            notebook, missing = translated_notebook(nbformat.read(english, as_version=4), english.stem, lang,
                                                    previous=previous)
            write_notebook(notebook, target)
            report[target] = missing
    return report


def execute_solution(path, timeout=EXECUTE_TIMEOUT):
    """Run one solution notebook top to bottom with its own kernel and store the outputs."""
    from nbclient import NotebookClient

    from nbconvert.preprocessors.coalescestreams import CoalesceStreamsPreprocessor

    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook,
        timeout=timeout,
        resources={"metadata": {"path": str(Path(path).parent)}},
        record_timing=False,
        store_widget_state=False,  # it changes on every run and views have a static form anyway
    ).execute()
    # On a busy machine one print can arrive as several stream messages: merged, the stored
    # outputs do not depend on how loaded the machine was that ran them.
    notebook, _ = CoalesceStreamsPreprocessor().preprocess(notebook, {})
    write_notebook(notebook, path)
