"""The course as a website (an author's tool): `paddlecourse site`, or `make site`.

One page per lesson and for the glossary, and an index, in English and in Chinese. A page is the
learner's student copy (lessons/, lessons/zh/) with the stored outputs of the executed solution
(solutions/, solutions/zh/) put back into every cell that is not an exercise. An exercise shows the
student copy's answer stub and check cell, without outputs (the check's verdict on the solution
is no part of the task), so no solution code or hidden test reaches the site; a student copy that
still holds a solution marker stops the build. Cells are matched by cell id; nbgrader's metadata
says which cells are exercises. A widget's output is shown in its static form from the same bundle, with a note that
it is live once the lesson is launched. Each page opens with a bar: the same page in the other
language, Binder, the class hub (nbgitpuller, when a hub address is given) and the student copy to
download.

Sphinx + MyST-NB + sphinx-book-theme render the prepared notebooks (the config is site/conf.py),
without a kernel and without the network. No lesson imports this module.

One idea per module: ``pages`` (a lesson's page), ``links`` (the bar of links on each page), ``build`` (the index
and Sphinx), ``settings`` (folders, languages, SiteError).
"""
from .build import SiteReport, build_site, prepare
from .links import repository
from .pages import is_exercise, lesson_summary, page_notebook
from .settings import LANGUAGES, STATIC_FORMS, WIDGET_MIME, SiteError

__all__ = ["LANGUAGES", "STATIC_FORMS", "SiteError", "SiteReport", "WIDGET_MIME", "build_site",
           "is_exercise", "lesson_summary", "page_notebook", "prepare", "repository"]
