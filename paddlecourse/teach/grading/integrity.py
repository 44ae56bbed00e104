"""The course directory as the instructor left it: digests recorded, compared before each command.

What is recorded (after ``create``, ``sync``, ``generate``, ``release``, ``grade`` and ``trust``):
the SHA-256 of ``nbgrader_config.py`` (nbgrader executes it in the instructor's process) and of
every file under ``source/`` (the hidden tests and solutions), and every manual score and extra
credit in ``gradebook.db``. ``grade``, ``export`` and ``feedback`` compare first and stop, naming
what changed, before any of nbgrader runs. A manual score nobody recorded is named too: if you
set it yourself (formgrader), run ``paddlecourse course trust`` to record the directory as it is.

The record lives outside the course directory (``$PADDLECOURSE_STATE_DIR``, default
``~/.local/state/paddlecourse``), where code that reaches the course directory does not look.
"""
import hashlib
import json
import sqlite3
from pathlib import Path

from ...settings import setting


class IntegrityError(RuntimeError):
    pass


MANUAL_SCORES = """
SELECT sa.student_id, a.name, n.name, bc.name, g.manual_score, g.extra_credit
FROM grade g
JOIN submitted_notebook sn ON g.notebook_id = sn.id
JOIN submitted_assignment sa ON sn.assignment_id = sa.id
JOIN notebook n ON sn.notebook_id = n.id
JOIN assignment a ON n.assignment_id = a.id
JOIN base_cell bc ON g.cell_id = bc.id
WHERE g.manual_score IS NOT NULL OR g.extra_credit IS NOT NULL
"""


def state_dir():
    return Path(setting("PADDLECOURSE_STATE_DIR")).expanduser()


def record_path(course_dir):
    key = hashlib.sha256(str(Path(course_dir).resolve()).encode()).hexdigest()[:20]
    return state_dir() / f"course-{key}.json"


def _sha(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def manual_scores(course_dir):
    """{"student/assignment/notebook/grade_id": [manual_score, extra_credit]} read from the gradebook."""
    db = Path(course_dir) / "gradebook.db"
    if not db.exists():
        return {}
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = connection.execute(MANUAL_SCORES).fetchall()
    except sqlite3.DatabaseError:
        return {"(gradebook)": ["unreadable", None]}
    finally:
        connection.close()
    return {f"{s}/{a}/{n}/{c}": [m, e] for s, a, n, c, m, e in rows}


def snapshot(course_dir):
    course_dir = Path(course_dir).resolve()
    config = course_dir / "nbgrader_config.py"
    source = course_dir / "source"
    return {
        "course": str(course_dir),
        "config": _sha(config) if config.exists() else None,
        "source": {p.relative_to(source).as_posix(): _sha(p) for p in sorted(source.rglob("*")) if p.is_file()}
        if source.exists() else {},
        "manual_scores": manual_scores(course_dir),
    }


def record(course_dir):
    """Record the course directory as it is now (the instructor's own state)."""
    path = record_path(course_dir)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.write_text(json.dumps(snapshot(course_dir), indent=1, sort_keys=True), encoding="utf-8")
    return path


def differences(course_dir):
    """What changed since the last record, as sentences; [] when nothing did."""
    path = record_path(course_dir)
    if not path.exists():
        return [f"there is no record of this course directory ({path}); if it is as you left it, "
                "run `paddlecourse course trust` once"]
    was, now = json.loads(path.read_text(encoding="utf-8")), snapshot(course_dir)
    found = []
    if was["config"] != now["config"]:
        found.append("nbgrader_config.py changed (nbgrader runs it in your process)")
    for name in sorted(set(was["source"]) | set(now["source"])):
        if name not in now["source"]:
            found.append(f"source/{name} was removed")
        elif name not in was["source"]:
            found.append(f"source/{name} is new")
        elif was["source"][name] != now["source"][name]:
            found.append(f"source/{name} changed")
    for key in sorted(set(was["manual_scores"]) | set(now["manual_scores"])):
        before, after = was["manual_scores"].get(key), now["manual_scores"].get(key)
        if before != after:
            found.append(f"manual score {key}: recorded {before}, gradebook now {after} - not set by you "
                         "through paddlecourse; if you set it in formgrader, run `paddlecourse course trust`")
    return found


def verify(course_dir):
    """Stop loudly (IntegrityError) when the course directory is not as the instructor left it."""
    found = differences(course_dir)
    if found:
        raise IntegrityError("The course directory changed since it was last recorded - stopping before "
                             "nbgrader runs:\n  - " + "\n  - ".join(found) +
                             "\nIf every change is yours, run `paddlecourse course trust` and try again.")
