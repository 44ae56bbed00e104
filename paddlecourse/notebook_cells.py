"""The cells of a course notebook, read as plain JSON.

progress() and %catchup read the shipped lessons inside the learner's kernel. nbformat would
validate them, and importing it pulls in jsonschema's format checkers: about two seconds, every
time a lesson's last cell runs. The course's own notebooks are nbformat 4, so reading the JSON
is enough; anything else counts as unreadable, as a broken file does.
"""
import hashlib
import json

HIDDEN = "### BEGIN HIDDEN TESTS"   # a test cell's hidden part starts here (the student copies end before it)


class Cell(dict):
    """One cell: ``cell.source`` is its text as one string, the rest as stored."""

    @property
    def cell_type(self):
        return self.get("cell_type", "")

    @property
    def source(self):
        source = self.get("source", "")
        return "".join(source) if isinstance(source, list) else str(source)


def read_cells(path):
    """[Cell] of the notebook at ``path``; ValueError if it is not an nbformat 4 notebook."""
    with open(path, encoding="utf-8") as file:
        notebook = json.load(file)
    if not isinstance(notebook, dict) or notebook.get("nbformat") != 4 or not isinstance(notebook.get("cells"), list):
        raise ValueError(f"{path} is not an nbformat 4 notebook")
    return [Cell(cell) for cell in notebook["cells"] if isinstance(cell, dict)]


def digest(source):
    """The same for the same cell text, whatever trailing spaces or blank lines it gained."""
    lines = [line.rstrip() for line in str(source).strip().splitlines()]
    return hashlib.sha1("\n".join(lines).encode("utf-8")).hexdigest()


def deeper_in(cells):
    """The grade ids of the exercises off the core path: their test cell says ``{"paddlecourse": {"path": "deeper"}}``."""
    return {cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") for cell in cells
            if cell.get("metadata", {}).get("paddlecourse", {}).get("path") == "deeper"} - {None}
