"""A submission read (size, encoding, shape), refused (a link, the instructor's own notebook) or normalised
into the student's run: one copy of each graded cell, locked and test cells from source/ without their
hidden tests, and a report cell after each answer.
"""
import copy
import json
import re
from pathlib import Path

from nbformat.v4 import new_code_cell, new_markdown_cell

from .cells import code_lines, grader, is_answer, is_test, without_hidden_tests


MAX_NOTEBOOK_BYTES = 20 << 20


# The cells the grader adds to a run (reading, rebinding, recording, replaying answers) carry this key
# in their metadata, saying what they do: they run on a time limit of their own, and if one fails the
# submission is listed "needs a look" - never scored with whatever values were left in the kernel.
TRUSTED = "paddlecourse-trusted"


REPORT_TAG = "paddlecourse-report"


def read_submission(path):
    """The submitted notebook as a dict, or raise ValueError with a reason a person can read."""
    path = Path(path)
    size = path.stat().st_size
    if size > MAX_NOTEBOOK_BYTES:
        raise ValueError(f"the notebook is {size / 1e6:.0f} MB, over the {MAX_NOTEBOOK_BYTES >> 20} MB limit")
    try:
        notebook = json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("the file is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"the file is not valid notebook JSON ({error.msg}, line {error.lineno})") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise ValueError("the file is JSON but not a notebook (no list of cells)")
    for cell in notebook["cells"]:
        if not isinstance(cell, dict) or cell.get("cell_type") not in ("code", "markdown", "raw"):
            raise ValueError("a cell of the notebook is damaged")
        source = cell.get("source", "")
        cell["source"] = "".join(source) if isinstance(source, list) else str(source)
        if not isinstance(cell.get("metadata"), dict):
            cell["metadata"] = {}
    return notebook


def plain_cell(cell_type, source, metadata=None, attachments=None):
    cell = new_code_cell(source) if cell_type == "code" else new_markdown_cell(source)
    if metadata:
        cell.metadata.update(copy.deepcopy(metadata))
    if cell_type == "markdown" and _attachments_ok(attachments):
        cell.attachments = copy.deepcopy(attachments)  # a pasted picture: without it the notebook no longer converts
    return cell


def _attachments_ok(attachments):
    """A markdown cell's attachments in nbformat's shape: {name: {mime type: base64 text}}, nothing else."""
    return bool(attachments) and isinstance(attachments, dict) and all(
        isinstance(name, str) and isinstance(data, dict) and data
        and all(isinstance(k, str) and isinstance(v, str) for k, v in data.items())
        for name, data in attachments.items())


def trusted_cell(source, what):
    cell = plain_cell("code", source)
    cell.metadata[TRUSTED] = what
    return cell


def normalise(submitted, source):
    """The student's run: (cells, notes). One copy of each graded cell (the last), locked and test
    cells from source/ (tests without hidden tests), missing ones put back, nbgrader metadata only
    as the instructor wrote it, and a report cell after each answer."""
    by_id = {grader(c).get("grade_id"): c for c in source.cells if grader(c).get("grade_id")}
    notes = []
    counts = {}
    for cell in submitted["cells"]:
        grade_id = grader(cell).get("grade_id")
        if grade_id in by_id:
            counts[grade_id] = counts.get(grade_id, 0) + 1
    for grade_id, count in counts.items():
        if count > 1:
            notes.append(f"Cell {grade_id} appears {count} times in your notebook; the last copy was graded.")
    seen = {}
    for index, cell in enumerate(submitted["cells"]):
        grade_id = grader(cell).get("grade_id")
        if grade_id in by_id:
            seen[grade_id] = index
    cells, placed = [], set()
    for index, cell in enumerate(submitted["cells"]):
        grade_id = grader(cell).get("grade_id")
        if grade_id in by_id:
            if seen[grade_id] != index:
                continue  # an earlier copy
            original = by_id[grade_id]
            placed.add(grade_id)
            if is_answer(original):
                cells.append(plain_cell(original.cell_type, cell.get("source", ""), original.metadata,
                                    cell.get("attachments")))
                if original.cell_type == "code":
                    cells.append(plain_cell("code", "", {"tags": [REPORT_TAG], REPORT_TAG: grade_id}))
            elif is_test(original):
                if code_lines(cell.get("source", "")) not in (code_lines(original.source),
                                                          code_lines(without_hidden_tests(original.source))):
                    notes.append(f"Test cell {grade_id} was changed; the instructor's version was graded.")
                restored = plain_cell("code", without_hidden_tests(original.source), original.metadata)
                cells.append(restored)
            else:
                cells.append(plain_cell(original.cell_type, original.source, original.metadata,
                                    original.get("attachments")))
        else:
            if grade_id:
                notes.append(f"A cell claims the unknown grade id {grade_id!r}; it ran as a plain cell.")
            cells.append(plain_cell(cell.get("cell_type") if cell.get("cell_type") == "code" else "markdown",
                                cell.get("source", ""), attachments=cell.get("attachments")))
    # cells the student deleted go back after the nearest earlier cell of the source that is present
    order = [grader(c).get("grade_id") for c in source.cells]
    for position, grade_id in enumerate(order):
        if not grade_id or grade_id in placed:
            continue
        original = by_id[grade_id]
        if is_answer(original):
            notes.append(f"The answer cell {grade_id} is missing; its exercise scores 0.")
            placed.add(grade_id)
            continue
        if is_test(original):
            notes.append(f"Test cell {grade_id} was missing; it was put back and graded.")
            new = plain_cell("code", without_hidden_tests(original.source), original.metadata)
        else:
            new = plain_cell(original.cell_type, original.source, original.metadata, original.get("attachments"))
        anchor = next((g for g in reversed(order[:position]) if g in placed), None)
        at = 0
        for i, cell in enumerate(cells):
            if anchor and grader(cell).get("grade_id") == anchor:
                at = i + 1
                if i + 1 < len(cells) and cells[i + 1].metadata.get(REPORT_TAG):
                    at = i + 2
        cells.insert(at, new)
        placed.add(grade_id)
    return cells, notes


# hidden tests, not solution markers: a learner may paste a solution cell from the course's solutions/ (catch-up
# strips its markers, a copy by hand keeps them), but no student's notebook holds a hidden test
_INSTRUCTORS_MARKS = re.compile(r"^[ \t]*#+ *(BEGIN|END) HIDDEN TESTS", re.M)


REFUSED_MARK = ".paddlecourse-refused"


def refusal(path, submitted):
    """Why a submission is not the student's own work to grade ('' when it may be graded): a symbolic link
    (nbgrader's collect copies what a link points at - source/ included), a submission `collect` found
    links in, or a notebook that holds hidden-test regions (the instructor's source notebook)."""
    path = Path(path)
    if path.is_symlink() or any(p.is_symlink() for p in list(path.parents)[:3]) or \
            (path.exists() and not path.is_file()):
        return "the submitted notebook is a symbolic link (or not a plain file); only a student's own file is graded"
    mark = path.parent / REFUSED_MARK
    if mark.is_file() and not mark.is_symlink():
        return mark.read_text(encoding="utf-8", errors="replace")[:300].strip() or "collect refused this submission"
    for cell in submitted.get("cells", []):
        if _INSTRUCTORS_MARKS.search(cell.get("source", "")):
            return ("the notebook holds hidden-test regions: it is the instructor's source notebook (a copy of "
                    "source/ or solutions/, for example through a symbolic link in the exchange), not the student's work")
    return ""
