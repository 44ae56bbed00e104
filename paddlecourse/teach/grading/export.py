"""Grades out of the gradebook, with the core path's points beside the whole lesson's."""
import csv
import json
from pathlib import Path

from ...progress import deeper_in
from .course import nbgrader
from .integrity import verify

CORE_COLUMNS = ("core_score", "core_max_score")


def export_grades(course_dir, to="grades.csv"):
    """Every grade in the gradebook to a CSV file (nbgrader export), plus each submission's points on the core
    path (the exercises whose test cell is not marked deeper); returns its path."""
    verify(course_dir)
    nbgrader(course_dir, "export", "--to", to)
    path = Path(course_dir) / to
    add_core_columns(course_dir, path)
    return path


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
        writer = csv.DictWriter(table, fieldnames=[*rows[0].keys()])
        writer.writeheader()
        writer.writerows(rows)
