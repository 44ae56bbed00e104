"""The library's shape (issue 27): who each module is for, no import circle, and no module longer than a
reader can hold.

Three kinds of reader, three rooms, and the folders say which (the README's "For course authors" has the
map): what runs in a learner's kernel is the package's top level and its learner subpackages (checks,
export, perf, widgets); the author's tools (building, translating, the site) are ``paddlecourse/author/``;
the instructor's (grading, workshop, hub) are ``paddlecourse/teach/``. ``cli.py`` and ``__main__.py``, the
command line, stand on top of all three. A learner's kernel must stay light and safe, so the learner's room
imports nothing from the other two; the author's tools never need the instructor's. And the top level holds
nothing a learner's kernel never loads: a module there that no lesson reaches belongs in another room.

Imports are read from the source (every `import` and `from ... import`, at module level or inside a
function), so a circle hidden behind a late import counts too.
"""
import ast
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "paddlecourse"
MAX_LINES = 450
ROOMS = {"author", "teach"}   # paddlecourse/author/, paddlecourse/teach/; everything else is the learner's
COMMAND_LINE = {"cli", "__main__"}   # on top of all three
# paddlecourse/grading.py is the old name of teach/grading, kept because course directories' recorded
# nbgrader_config.py names paddlecourse.grading.judge.ApplyJudgement: the instructor's, though on top
OLD_NAMES = {"grading": "teach"}
# still over the limit, to be split; this list may only shrink (a new long file fails the test)
STILL_LONG = set()


def modules():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports_of(name, path, known):
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return imported(ast.parse(path.read_text(encoding="utf-8")), package, known) - {name}


def imported(tree, package, known):
    """The known modules a piece of code imports (relative imports read from ``package``)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target:
                found.add(target)
    return found


def circles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def room(module):
    part = module.split(".")[1] if "." in module else ""
    if part in ROOMS:
        return part
    return "command line" if part in COMMAND_LINE else OLD_NAMES.get(part, "learn")


# `paddlecourse verify --facts` and `paddlecourse lessons DIR` run in a learner's terminal, not in a lesson: its
# statements and the learner's copies of the lessons are the learner's
LEARNER_COMMANDS = {"paddlecourse.facts", "paddlecourse.lesson_copies"}


def what_a_learners_kernel_imports(known):
    """Every module a learner's kernel loads: what the lessons' code cells import (both editions, solutions
    and student copies), what the course kernel loads at start (its IPython extension), what the learner's own
    terminal commands load (LEARNER_COMMANDS), and all they import."""
    from IPython.core.inputtransformer2 import TransformerManager   # a cell's %magic and !shell lines

    cell_code = TransformerManager().transform_cell
    start = {"paddlecourse"} | LEARNER_COMMANDS
    for notebook in sorted((ROOT / "solutions").rglob("*.ipynb")) + sorted((ROOT / "lessons").rglob("*.ipynb")):
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                start |= imported(ast.parse(cell_code("".join(cell["source"]))), "paddlecourse", known)
    for path in PACKAGE.glob("*.py"):
        start |= {name for name in re.findall(r"extra_extensions=([\w.]+)", path.read_text(encoding="utf-8"))
                  if name in known}
    graph = {name: imports_of(name, path, known) for name, path in known.items()}
    reached, waiting = set(), sorted(start)
    while waiting:
        name = waiting.pop()
        if name not in reached:
            reached.add(name)
            parent = name.rpartition(".")[0]   # importing a.b.c runs a/__init__ and a/b/__init__ first
            waiting += sorted(graph[name]) + ([parent] if parent else [])
    return reached


def test_the_learners_room_imports_nothing_of_the_authors_or_the_instructors():
    known = modules()
    crossing = sorted(f"{name} -> {target}" for name, path in known.items() for target in imports_of(name, path, known)
                      if (room(name), room(target)) in {("learn", "author"), ("learn", "teach"), ("learn", "command line"),
                                                        ("author", "teach"), ("author", "command line"),
                                                        ("teach", "command line")})
    assert crossing == []
    assert {room(name) for name in known} == {"learn", "author", "teach", "command line"}


def test_each_room_is_a_folder_that_says_who_it_is_for():
    for folder in ROOMS:
        init = PACKAGE / folder / "__init__.py"
        assert init.exists() and ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), init
    # an old name is only that: it imports the room it stands for and nothing else of the course
    known = modules()
    for old, its_room in OLD_NAMES.items():
        name = f"paddlecourse.{old}"
        if name in known:
            assert {room(target) for target in imports_of(name, known[name], known)} == {its_room}, name


def test_the_names_a_course_directorys_nbgrader_config_holds_are_importable():
    """nbgrader imports the preprocessors that nbgrader_config.py names: those ``course create`` writes now, and
    the old names in course directories made before the move (paddlecourse/grading.py: the same classes)."""
    from traitlets.utils.importstring import import_item

    from paddlecourse.teach.grading import course, feedback, judge

    written = re.findall(r'"(paddlecourse\.[\w.]+)"', course.CONFIG_TEMPLATE)
    assert written == ["paddlecourse.teach.grading.judge.ApplyJudgement",
                       "paddlecourse.teach.grading.feedback.HideHiddenTests"]
    assert [import_item(name) for name in written] == [judge.ApplyJudgement, feedback.HideHiddenTests]
    assert import_item("paddlecourse.grading.judge.ApplyJudgement") is judge.ApplyJudgement
    assert import_item("paddlecourse.grading.feedback.HideHiddenTests") is feedback.HideHiddenTests


def test_the_learners_room_holds_only_what_a_learners_kernel_imports():
    """A module on top (or in checks/, widgets/, ...) that no lesson and not the course kernel ever loads
    belongs to another room: the author's and the instructor's modules of issue 27 are gone from the top
    level, and a new one cannot land there."""
    known = modules()
    reached = what_a_learners_kernel_imports(known)
    assert {"paddlecourse.checks", "paddlecourse.widgets.kitchen", "paddlecourse.perf", "paddlecourse.kernel"} <= reached
    never = sorted(name for name in known if room(name) == "learn" and name not in reached)
    assert never == [], "no lesson imports these: move them to author/ or teach/"
    on_top = {name.split(".")[1] for name in known if name.count(".") == 1 and room(name) != "learn"}
    assert on_top == ROOMS | COMMAND_LINE | set(OLD_NAMES)


def test_no_module_imports_in_a_circle():
    known = modules()
    graph = {name: imports_of(name, path, known) for name, path in known.items()}
    assert circles(graph) == []


def test_the_circle_finder_finds_one():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_is_longer_than_a_reader_can_hold():
    lengths = {path.relative_to(PACKAGE).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
               for path in PACKAGE.rglob("*.py")}
    too_long = {name for name, count in lengths.items() if count > MAX_LINES}
    assert too_long <= STILL_LONG, f"over {MAX_LINES} lines: {sorted(too_long - STILL_LONG)}; split by what a reader looks for"
    assert too_long == STILL_LONG, f"no longer over the limit, take them off STILL_LONG: {sorted(STILL_LONG - too_long)}"
