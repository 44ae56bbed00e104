"""Grades out of the gradebook, with the core path's points beside the whole lesson's."""
import csv
import json
from pathlib import Path

from ...progress import deeper_in
from .course import COURSE_ID, exchange_root, nbgrader
from .integrity import verify

CORE_COLUMNS = ("core_score", "core_max_score")


def export_grades(course_dir, to="grades.csv"):
    """Every grade of a released lesson in the gradebook to a CSV file (nbgrader export), plus each submission's
    points on the core path (the exercises whose test cell is not marked deeper); returns its path.

    `create` puts every lesson in the gradebook, so nbgrader's own export has a row of 0.0 per student for each
    lesson never handed out; those rows are left out (a lesson counts as handed out once it was released or
    anything of it was collected)."""
    verify(course_dir)
    nbgrader(course_dir, "export", "--to", to)
    path = Path(course_dir) / to
    add_core_columns(course_dir, path)
    return path


def handed_out(course_dir, assignment):
    """True once ``assignment`` was released to the exchange, or a submission of it was collected."""
    folder = Path(course_dir)
    return (Path(exchange_root(folder)) / COURSE_ID / "outbound" / assignment).is_dir() or \
        any(p.is_dir() for p in (folder / "submitted").glob(f"*/{assignment}"))


def off_core_path(course_dir, assignment):
    """The grade ids of an assignment's exercises off the core path, from its source notebooks' metadata."""
    found = set()
    for notebook in sorted((Path(course_dir) / "source" / assignment).glob("*.ipynb")):
        found |= deeper_in(json.loads(notebook.read_text(encoding="utf-8")).get("cells", []))
    return found


def add_core_columns(course_dir, path):
    """core_score and core_max_score for each row of nbgrader's CSV (empty where nothing was submitted)."""
    from nbgrader.api import Gradebook, MissingEntry

    with open(path, newline="", encoding="utf-8") as table:
        rows = list(csv.DictReader(table))
    if not rows:
        return
    fields = [*rows[0].keys(), *(c for c in CORE_COLUMNS if c not in rows[0])]
    rows = [row for row in rows if handed_out(course_dir, row["assignment"])]
    deeper = {}
    with Gradebook(f"sqlite:///{Path(course_dir).resolve() / 'gradebook.db'}") as gradebook:
        for row in rows:
            assignment = row["assignment"]
            if assignment not in deeper:
                deeper[assignment] = off_core_path(course_dir, assignment)
            try:
                submission = gradebook.find_submission(assignment, row["student_id"])
            except MissingEntry:
                row.update(core_score="", core_max_score="")
                continue
            core = [g for notebook in submission.notebooks for g in notebook.grades if g.name not in deeper[assignment]]
            row.update(core_score=sum(g.score for g in core), core_max_score=sum(g.max_score for g in core))
    with open(path, "w", newline="", encoding="utf-8") as table:
        writer = csv.DictWriter(table, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
