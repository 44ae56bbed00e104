"""The instructor's room: grading, the workshop and the hub, run with the instructor's rights, never by a lesson.

``grading`` (the course as an nbgrader course directory: sandboxed runs, the judge, feedback, grades, timing),
``live_coding`` (copies of the lessons with the code cells emptied, for a presenter) and ``wheelhouse`` (the
wheels to install the course in a room without network). Run through ``paddlecourse course``,
``live-coding`` and ``wheelhouse`` (``paddlecourse/cli.py``). May use the learner's and the author's modules.

Kept light on purpose: the judge's cells import ``paddlecourse.teach.grading.answers`` inside a student's kernel.
"""
