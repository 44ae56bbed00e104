"""Grades out of the gradebook."""
from pathlib import Path

from .course import nbgrader
from .integrity import verify


def export_grades(course_dir, to="grades.csv"):
    """Every grade in the gradebook to a CSV file (nbgrader export); returns its path."""
    verify(course_dir)
    nbgrader(course_dir, "export", "--to", to)
    return Path(course_dir) / to

