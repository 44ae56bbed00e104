"""The course's source notebooks in solutions/, for the author's tools: which are lessons is decided in one place,
paddlecourse/lesson_index.py, which the learner's helpers and the instructor's tools ask too."""
from ..lesson_index import is_lesson, lesson_paths as solution_paths

__all__ = ["is_lesson", "solution_paths"]
