"""Measuring the lessons (per-cell times, for the timeout) and the presenters' schedule and notes."""
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ...progress import deeper_in
from .course import CELL_TIMEOUT, REPO_ROOT, assignment_id, lesson_notebooks


def time_cells(notebook_path, timeout=600):
    """Run one notebook top to bottom in its own kernel; returns [(index, seconds, cell)] per code cell."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(notebook_path, as_version=4)
    client = NotebookClient(
        notebook, timeout=timeout, record_timing=True, allow_errors=True,
        resources={"metadata": {"path": str(Path(notebook_path).parent)}},
    )
    start = time.monotonic()
    with client.setup_kernel():
        kernel_ready = time.monotonic() - start
        timings = []
        for index, cell in enumerate(notebook.cells):
            if cell.cell_type != "code":
                continue
            t0 = time.monotonic()
            client.execute_cell(cell, index)
            timings.append((index, time.monotonic() - t0, cell))
    return kernel_ready, timings


def timing_report(paths=None, repo=REPO_ROOT):
    """Per lesson: kernel start, the slowest cells, total; and the timeout they call for."""
    rows = []
    slowest = 0.0
    for path in paths or lesson_notebooks(repo):
        try:
            kernel, timings = time_cells(path)
        except Exception as error:
            rows.append((Path(path).name, float("nan"), float("nan"), [], float("nan")))
            print(f"{Path(path).name}: could not be run ({type(error).__name__}: {error})", file=sys.stderr)
            continue
        top = sorted(timings, key=lambda t: -t[1])[:3]
        total = kernel + sum(t for _, t, _ in timings)
        slowest = max([slowest] + [t for _, t, _ in timings])
        graded = [t for _, t, c in timings if c.metadata.get("nbgrader", {}).get("grade")]
        rows.append((Path(path).name, kernel, total, top, max(graded, default=0.0)))
    lines = []
    for name, kernel, total, top, graded in rows:
        cells = ", ".join(f"cell {i}: {t:.1f} s" for i, t, _ in top)
        lines.append(f"{name}: kernel {kernel:.1f} s, run {total:.1f} s, slowest graded cell {graded:.1f} s; slowest {cells}")
    lines.append(f"slowest cell of all: {slowest:.1f} s -> per-cell timeout now {CELL_TIMEOUT} s "
                 f"(keep it at about twice the slowest cell on a busy machine)")
    return "\n".join(lines), rows


# ---------------------------------------------------------------- schedule and notes for presenters

_TIME = re.compile(r"\*\*Time:\*\*\s*about\s+(\d+)\s+minutes in all;\s+about\s+(\d+)\s+on the \*\*core path", re.S)
DEEPER_MARK = "*Deeper — off the core path"   # the line under a section's heading that puts it off the path
WORDS_PER_MINUTE = 150  # reading a technical text aloud or alone, with code to look at


@dataclass
class LessonProfile:
    """What a presenter needs to plan one lesson, read from the notebook and measured by running it."""

    path: Path
    title: str
    planned: tuple  # (all, core path) minutes, as the lesson states them; None if it does not
    words: int
    code_cells: int
    exercises: list  # [(grade_id, points, heading)]
    sections: list  # [(heading, is_exercise, pause_hint)]
    mistakes: str
    key_points: str
    run_seconds: float = float("nan")
    teaching_seconds: float = float("nan")
    exercise_seconds: float = float("nan")
    slowest: tuple = (None, float("nan"))  # (cell index, seconds)

    @property
    def reading_minutes(self):
        return self.words / WORDS_PER_MINUTE


def _section(markdown, name):
    match = re.search(rf"^##+\s*{name}\s*$(.*?)(?=^##?\s|\Z)", markdown, re.M | re.S | re.I)
    return match.group(1).strip() if match else ""


def lesson_profile(path, measure=True):
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    markdown = "\n\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    title = next((line.lstrip("# ").strip() for line in markdown.splitlines() if line.startswith("# ")), Path(path).stem)
    found = _TIME.search(markdown)
    planned = tuple(int(g) for g in found.groups()) if found else None
    exercises, sections, heading = [], [], None
    deeper = deeper_in(notebook.cells)
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("## ") or line.startswith("### "):
                    heading = line.lstrip("#").strip()
                    lowered = heading.lower()
                    is_exercise = lowered.startswith("exercise")
                    hint = ""
                    if is_exercise:
                        hint = "pause: learners work"
                    elif "predict" in cell.source.lower():
                        hint = "pause: ask the room to predict"
                    if DEEPER_MARK in cell.source.split(line, 1)[1][:400]:   # the mark is the line under it
                        hint = "Deeper: skip it on a core-path day" + (f"; otherwise {hint}" if hint else "")
                    sections.append((heading, is_exercise, hint))
        grader = cell.get("metadata", {}).get("nbgrader", {})
        if grader.get("grade") and not grader.get("solution"):
            where = heading + (" (Deeper)" if grader.get("grade_id") in deeper else "")
            exercises.append((grader.get("grade_id"), grader.get("points", 0), where))
    profile = LessonProfile(
        path=Path(path), title=title, planned=planned, words=len(markdown.split()),
        code_cells=sum(c.cell_type == "code" for c in notebook.cells), exercises=exercises, sections=sections,
        mistakes=_section(markdown, "Common mistakes"), key_points=_section(markdown, "Key points"),
    )
    if measure:
        try:
            kernel, timings = time_cells(path)
        except Exception as error:  # a lesson being edited may not run; plan with what the others say
            profile.mistakes = profile.mistakes + f"\n\n(Could not be timed: {type(error).__name__}: {error})"
            return profile
        profile.run_seconds = kernel + sum(t for _, t, _ in timings)
        graded = [t for _, t, c in timings if c.metadata.get("nbgrader")]
        profile.exercise_seconds = sum(graded)
        profile.teaching_seconds = profile.run_seconds - profile.exercise_seconds
        index, seconds, _ = max(timings, key=lambda t: t[1])
        profile.slowest = (index, seconds)
    return profile


def schedule_markdown(profiles):
    """The schedule table: planned minutes per lesson next to what was measured by running it."""
    lines = [
        "| lesson | planned: all (core path) | reading (words / 150 per min) | exercises (points) "
        "| run time, all cells | slowest cell |",
        "|---|---|---|---|---|---|",
    ]
    total = [0, 0]
    for p in profiles:
        planned = f"{p.planned[0]} ({p.planned[1]}) min" if p.planned else "not stated"
        if p.planned:
            total[0] += p.planned[0]
            total[1] += p.planned[1]
        points = sum(pts for _, pts, _ in p.exercises)
        lines.append(
            f"| {p.path.stem} | {planned} | {p.reading_minutes:.0f} min ({p.words} words) | "
            f"{len(p.exercises)} ({points}) | {p.run_seconds:.0f} s | {p.slowest[1]:.1f} s (cell {p.slowest[0]}) |"
        )
    lines.append(f"| **all** | **{total[0]} ({total[1]}) min** | | | "
                 f"{sum(p.run_seconds for p in profiles):.0f} s | |")
    return "\n".join(lines)


def notes_markdown(profile):
    """Presenter notes for one lesson, generated from the lesson itself (so they never drift)."""
    p = profile
    aid = assignment_id(p.path)
    planned = (f"{p.planned[0]} min in all, {p.planned[1]} on the core path (sections without a Deeper mark)" if p.planned
               else "not stated in the lesson")
    out = [
        f"# {p.title}",
        "",
        f"<!-- generated by `paddlecourse course notes` from solutions/{p.path.name}; "
        "edit the lesson, not this file, then regenerate -->",
        "",
        f"- Notebook: `lessons/{p.path.name}` (answers: `solutions/{p.path.name}`); nbgrader assignment `{aid}`.",
        f"- Planned time: {planned}. Reading load: about {p.reading_minutes:.0f} min of text ({p.words} words), "
        f"{p.code_cells} code cells.",
        f"- Runs top to bottom in {p.run_seconds:.0f} s on a shared 2-core machine; slowest cell "
        f"{p.slowest[1]:.1f} s (cell {p.slowest[0]}). Run it once before the session so the first import is warm.",
        "",
        "## Flow and where to pause",
        "",
    ]
    for heading, is_exercise, hint in p.sections:
        if heading.lower() in {"common mistakes", "key points", "what comes next"}:
            continue
        out.append(f"- {'**' + heading + '**' if is_exercise else heading}{' — ' + hint if hint else ''}")
    out += ["", "## Exercises and catch-up", "",
            "| exercise | points | where | catch-up line for a learner who is stuck |", "|---|---|---|---|"]
    for grade_id, points, heading in p.exercises:
        out.append(f"| `{grade_id}` | {points} | {heading} | `from paddlecourse.catchup import catchup; catchup(\"{grade_id}\")` |")
    out += ["", "## Common learner mistakes (from the lesson)", "", p.mistakes or "_The lesson has no such section._",
            "", "## Key points to land", "", p.key_points or "_The lesson has no such section._", ""]
    return "\n".join(out)


def write_presenter_notes(out_dir, paths=None, repo=REPO_ROOT, measure=True):
    """instructors/notes/<lesson>.md for every lesson, and the schedule table; returns the profiles."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    profiles = [lesson_profile(p, measure=measure) for p in (paths or lesson_notebooks(repo))]
    for profile in profiles:
        (out_dir / f"{profile.path.stem}.md").write_text(notes_markdown(profile), encoding="utf-8")
    return profiles
