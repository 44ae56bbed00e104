"""The lessons, written out of the installed package into a folder of the learner's, never over their work.

    paddlecourse lessons                       # ./paddlecourse-lessons, English
    paddlecourse lessons ~/paddle --lang zh    # the Chinese edition

A wheel carries the student copies (both editions) and the solutions (what ``%catchup`` and ``progress()``
read) as ``paddlecourse/lessons/`` and ``paddlecourse/solutions/``, copied there by setup.py; a checkout or an
editable install reads the repository's own folders. A notebook already in the folder is left alone: if it is
the course's copy, nothing is written; if it differs (the learner's answers), it is kept and the sentence says so.
The copies name the course kernel when it is installed, else the plain ``python3`` kernel, so a learner's own
Jupyter opens them without asking which kernel to use.
"""
import json
from pathlib import Path

from .language import LANGUAGES, _, ngettext
from .lesson_context import course_folder

FIRST_LESSON = "00_setup_and_first_run.ipynb"
COURSE_KERNEL = {"display_name": "Python 3 (paddlecourse)", "language": "python", "name": "paddlecourse"}
PLAIN_KERNEL = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


class LessonCopyError(Exception):
    """The lessons could not be written; the message says why and what to do, in one sentence."""


def edition(lang):
    """The student notebooks of one edition, in course order."""
    if lang not in LANGUAGES:
        raise LessonCopyError(_("The course has no {lang} edition: use --lang {languages}.").format(
            lang=repr(lang), languages=" or --lang ".join(LANGUAGES)))
    lessons = course_folder("lessons")
    if lessons is None:
        raise LessonCopyError(_("This installation of paddlecourse carries no lessons: reinstall it from the "
                                "course's wheel or repository."))
    folder = lessons if lang == "en" else lessons / lang
    return sorted(folder.glob("*.ipynb"))


def course_kernel_installed():
    try:
        from jupyter_client.kernelspec import KernelSpecManager

        return COURSE_KERNEL["name"] in KernelSpecManager().find_kernel_specs()
    except Exception:   # no jupyter_client, or an unreadable kernel folder: the plain kernel always exists
        return False


def learner_copy(path, kernelspec):
    """The text written for one lesson: the student copy, opening on ``kernelspec``."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    notebook.setdefault("metadata", {})["kernelspec"] = dict(kernelspec)
    return json.dumps(notebook, ensure_ascii=False, indent=1) + "\n"


def write_lessons(folder, lang="en", kernelspec=None):
    """Write one edition into ``folder``; returns (written, unchanged, kept) lists of file names.

    ``kept`` are notebooks already there that differ from the course's copy: the learner's, left as they are.
    """
    sources = edition(lang)
    folder = Path(folder).expanduser()
    if folder.exists() and not folder.is_dir():
        raise LessonCopyError(_("{folder} is a file, not a folder: name a folder for the lessons.").format(
            folder=folder))
    kernelspec = kernelspec or (COURSE_KERNEL if course_kernel_installed() else PLAIN_KERNEL)
    written, unchanged, kept = [], [], []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for source in sources:
            target = folder / source.name
            text = learner_copy(source, kernelspec)
            if target.exists():
                (unchanged if target.read_text(encoding="utf-8", errors="replace") == text else kept).append(target.name)
                continue
            with open(target, "x", encoding="utf-8") as out:   # "x": never over a file that appeared meanwhile
                out.write(text)
            written.append(target.name)
    except PermissionError:
        raise LessonCopyError(_("paddlecourse cannot write in {folder} (permission denied): choose a folder of "
                                "your own, e.g. paddlecourse lessons ~/paddlecourse-lessons.").format(folder=folder))
    except OSError as error:
        raise LessonCopyError(_("paddlecourse could not write the lessons in {folder}: {reason}.").format(
            folder=folder, reason=error.strerror or error))
    return written, unchanged, kept


def how_to_open(folder):
    """One line: the command that opens the lessons in the Jupyter this Python has."""
    import importlib.util

    first = Path(folder) / FIRST_LESSON
    if importlib.util.find_spec("jupyterlab"):
        return _("Open them with: jupyter lab {first}").format(first=first)
    if importlib.util.find_spec("notebook"):
        return _("Open them with: jupyter notebook {first}").format(first=first)
    return _("Open {first} in your Jupyter (or upload it to Colab, Kaggle or AI Studio) and run its cells "
             "from the top.").format(first=first)


def report(folder, written, unchanged, kept):
    lines = []
    if written:
        lines.append(ngettext("Wrote {n} lesson to {folder}.", "Wrote {n} lessons to {folder}.",
                              len(written)).format(n=len(written), folder=folder))
    if unchanged:
        lines.append(ngettext("{n} lesson was there already, unchanged.", "{n} lessons were there already, unchanged.",
                              len(unchanged)).format(n=len(unchanged)))
    if kept:
        lines.append(ngettext(
            "Kept your own {names}: it differs from the course's copy (your answers, probably), so nothing was written "
            "over it; for a fresh copy, move yours aside or name another folder.",
            "Kept your own {names}: they differ from the course's copies (your answers, probably), so nothing was "
            "written over them; for fresh copies, move yours aside or name another folder.",
            len(kept)).format(names=", ".join(kept)))
    lines.append(how_to_open(folder))
    return "\n".join(lines)
