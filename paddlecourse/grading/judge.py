"""Judging a submission outside the student's kernel.

Up to three sandboxed runs per submission, and a decision made by none of them:

1. **The student's run** (untrusted). The submission, normalised (one copy of each graded cell,
   locked cells put back from source/, test cells WITHOUT their hidden tests), runs in the
   sandbox. After each answer cell a report cell prints the names that the instructor's
   solution cell defines, as plain data (``answers.encode``); a pure function answer (the hidden
   tests call it with literal arguments only) is called with those arguments and its results are
   reported, and the calls the visible checks make are recorded by their arguments. Two kinds of
   answer are reported as what the tests need of them: a model ``paddle.jit.load`` returned, and the
   files an answer wrote at a path, as the files' contents (``models.py``); a Layer class whose forward
   is the answer (lesson 06 ex4) as its eval-mode forward exported as a program, plus its train-mode
   outputs on the exercise's input (``layer_classes.py``). The hidden tests never enter this run, so
   nothing in it can read or print them.
2. **The answer run** (untrusted; only when a function or class answer is handed lesson objects:
   a model, a loader, an export path). The instructor's notebook with the student's cells for those
   exercises (every other answer as the solution has it) and a recorder after each: every call's
   arguments (fingerprint), result and effects on its arguments are recorded (``effects.py``).
   Only those records come back - none of its outputs, none of its verdicts - and a hidden part
   is in that run only where it calls the recorded answer itself.
3. **The judge's run** (trusted code only). The instructor's own notebook from source/ runs in
   a fresh sandboxed kernel: lesson cells and solution cells as the instructor wrote them, then,
   after each solution cell, the names it defines are deleted and rebound to fresh objects
   rebuilt from the student's report (``reports.rebuild``; files at a path replace the solution's), pure functions to stand-ins that return
   what the student's function returned for those arguments, and recorded answers to stand-ins that
   replay the records call by call (``effects.bind``). Then the test cells run, visible checks and
   hidden tests together, each hidden part keeping the random generators as it found them. No
   student code runs here: no hook, patched module, lying object or redefined lesson global exists
   in this kernel.
4. **The decision** is made in the grader's process, which never unpickles or imports
   anything from a submission: a test cell scores its points when the judge's run of it
   raised nothing. Its outputs (stderr and execute_results dropped, error text cut to one line,
   hidden lines never quoted) become the test cell's outputs in the notebook nbgrader records, so
   nbgrader's own SaveAutoGrades writes exactly that score into the gradebook.

Every run's lines are read only when they carry the run's nonce (runner.py). A submission that is a
symbolic link, that ``collect`` found a link in, or that holds hidden-test regions (the instructor's
source notebook) is not run at all: it scores 0 and is listed "needs a look".
"""
import ast
import copy
import dataclasses
import hashlib
import json
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell

from . import effects, sandbox
from .answers import MARKER, Unsupported, encode
from .feedback import failing_line, hidden_line_numbers

# The cells the grader adds to a run (reading, rebinding, recording, replaying answers) carry this key
# in their metadata, saying what they do: they run on a time limit of their own, and if one fails the
# submission is listed "needs a look" - never scored with whatever values were left in the kernel.
TRUSTED = "paddlecourse-trusted"
HIDDEN = re.compile(r"^[ \t]*#+ *BEGIN HIDDEN TESTS.*?^[ \t]*#+ *END HIDDEN TESTS[^\n]*\n?", re.M | re.S)
REPORT_TAG = "paddlecourse-report"
MAX_NOTEBOOK_BYTES = 20 << 20
# grade_class judges several submissions at once in threads, and CPython 3.11's AST constructor
# keeps its recursion depth in state shared by all threads: two parses at once can fail with
# "SystemError: AST constructor recursion depth mismatch" (python/cpython#106905). One at a time.
_PARSING = threading.Lock()


def _parse(source):
    with _PARSING:
        return ast.parse(source)


def _grader(cell):
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def is_answer(cell):
    return bool(_grader(cell).get("solution"))


def is_test(cell):
    grader = _grader(cell)
    return bool(grader.get("grade")) and not grader.get("solution") and cell.get("cell_type") == "code"


def is_locked(cell):
    grader = _grader(cell)
    return bool(grader.get("locked")) and not grader.get("solution")


def without_hidden_tests(source):
    return HIDDEN.sub("", source)


def _lines(source):
    return [line.rstrip() for line in source.splitlines() if line.strip()]


def defined_names(source):
    """Top-level names a solution cell binds: (data names, function names). Imports are left alone."""
    try:
        tree = _parse(source)
    except SyntaxError:
        return [], []
    data, functions = [], []

    def targets(node):
        return [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            functions.append(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                data += targets(target)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            data += targets(node.target)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            data += targets(node.target)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    data += targets(item.optional_vars)
    seen = set()
    data = [n for n in data if not (n in seen or seen.add(n)) and n not in functions]
    return data, functions


def _body(source):
    try:
        return _parse(source).body
    except SyntaxError:
        return []


def literal_calls(sources, functions):
    """{function: [{"args": [...], "kwargs": {...}}]} for every call with literal arguments in ``sources``."""
    calls = {name: [] for name in functions}
    for source in sources:
        try:
            tree = _parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in calls:
                try:
                    args = [encode(ast.literal_eval(a)) for a in node.args]
                    kwargs = {k.arg: encode(ast.literal_eval(k.value)) for k in node.keywords if k.arg}
                except (ValueError, TypeError, SyntaxError, Unsupported):
                    continue
                entry = {"args": args, "kwargs": kwargs}
                if entry not in calls[node.func.id]:
                    calls[node.func.id].append(entry)
    return calls


@dataclass
class Judgement:
    """The trusted outcome for one submitted notebook."""

    notebook: str
    cells: list = field(default_factory=list)    # the notebook nbgrader records (dicts)
    passed: dict = field(default_factory=dict)   # test grade id -> bool
    notes: list = field(default_factory=list)    # told to the student in the feedback, and to the instructor
    needs_look: list = field(default_factory=list)  # reasons an instructor should look by hand
    unreadable: str = ""
    seconds: float = 0.0
    student_seconds: float = 0.0
    judge_seconds: float = 0.0
    sandboxed: bool = True

    def to_json(self):
        return json.dumps(self.__dict__)

    @classmethod
    def from_json(cls, text):
        return cls(**json.loads(text))


# ---------------------------------------------------------------- reading and normalising a submission

def read_submission(path):
    """The submitted notebook as a dict, or raise ValueError with a reason a person can read."""
    path = Path(path)
    size = path.stat().st_size
    if size > MAX_NOTEBOOK_BYTES:
        raise ValueError(f"the notebook is {size / 1e6:.0f} MB, over the {MAX_NOTEBOOK_BYTES >> 20} MB limit")
    try:
        notebook = json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("the file is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"the file is not valid notebook JSON ({error.msg}, line {error.lineno})") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise ValueError("the file is JSON but not a notebook (no list of cells)")
    for cell in notebook["cells"]:
        if not isinstance(cell, dict) or cell.get("cell_type") not in ("code", "markdown", "raw"):
            raise ValueError("a cell of the notebook is damaged")
        source = cell.get("source", "")
        cell["source"] = "".join(source) if isinstance(source, list) else str(source)
        if not isinstance(cell.get("metadata"), dict):
            cell["metadata"] = {}
    return notebook


def _plain(cell_type, source, metadata=None, attachments=None):
    cell = new_code_cell(source) if cell_type == "code" else new_markdown_cell(source)
    if metadata:
        cell.metadata.update(copy.deepcopy(metadata))
    if cell_type == "markdown" and _attachments_ok(attachments):
        cell.attachments = copy.deepcopy(attachments)  # a pasted picture: without it the notebook no longer converts
    return cell


def _attachments_ok(attachments):
    """A markdown cell's attachments in nbformat's shape: {name: {mime type: base64 text}}, nothing else."""
    return bool(attachments) and isinstance(attachments, dict) and all(
        isinstance(name, str) and isinstance(data, dict) and data
        and all(isinstance(k, str) and isinstance(v, str) for k, v in data.items())
        for name, data in attachments.items())


def _trusted(source, what):
    cell = _plain("code", source)
    cell.metadata[TRUSTED] = what
    return cell


def normalise(submitted, source):
    """The student's run: (cells, notes). One copy of each graded cell (the last), locked and test
    cells from source/ (tests without hidden tests), missing ones put back, nbgrader metadata only
    as the instructor wrote it, and a report cell after each answer."""
    by_id = {_grader(c).get("grade_id"): c for c in source.cells if _grader(c).get("grade_id")}
    notes = []
    counts = {}
    for cell in submitted["cells"]:
        grade_id = _grader(cell).get("grade_id")
        if grade_id in by_id:
            counts[grade_id] = counts.get(grade_id, 0) + 1
    for grade_id, count in counts.items():
        if count > 1:
            notes.append(f"Cell {grade_id} appears {count} times in your notebook; the last copy was graded.")
    seen = {}
    for index, cell in enumerate(submitted["cells"]):
        grade_id = _grader(cell).get("grade_id")
        if grade_id in by_id:
            seen[grade_id] = index
    cells, placed = [], set()
    for index, cell in enumerate(submitted["cells"]):
        grade_id = _grader(cell).get("grade_id")
        if grade_id in by_id:
            if seen[grade_id] != index:
                continue  # an earlier copy
            original = by_id[grade_id]
            placed.add(grade_id)
            if is_answer(original):
                cells.append(_plain(original.cell_type, cell.get("source", ""), original.metadata,
                                    cell.get("attachments")))
                if original.cell_type == "code":
                    cells.append(_plain("code", "", {"tags": [REPORT_TAG], REPORT_TAG: grade_id}))
            elif is_test(original):
                if _lines(cell.get("source", "")) not in (_lines(original.source),
                                                          _lines(without_hidden_tests(original.source))):
                    notes.append(f"Test cell {grade_id} was changed; the instructor's version was graded.")
                restored = _plain("code", without_hidden_tests(original.source), original.metadata)
                cells.append(restored)
            else:
                cells.append(_plain(original.cell_type, original.source, original.metadata,
                                    original.get("attachments")))
        else:
            if grade_id:
                notes.append(f"A cell claims the unknown grade id {grade_id!r}; it ran as a plain cell.")
            cells.append(_plain(cell.get("cell_type") if cell.get("cell_type") == "code" else "markdown",
                                cell.get("source", ""), attachments=cell.get("attachments")))
    # cells the student deleted go back after the nearest earlier cell of the source that is present
    order = [_grader(c).get("grade_id") for c in source.cells]
    for position, grade_id in enumerate(order):
        if not grade_id or grade_id in placed:
            continue
        original = by_id[grade_id]
        if is_answer(original):
            notes.append(f"The answer cell {grade_id} is missing; its exercise scores 0.")
            placed.add(grade_id)
            continue
        if is_test(original):
            notes.append(f"Test cell {grade_id} was missing; it was put back and graded.")
            new = _plain("code", without_hidden_tests(original.source), original.metadata)
        else:
            new = _plain(original.cell_type, original.source, original.metadata, original.get("attachments"))
        anchor = next((g for g in reversed(order[:position]) if g in placed), None)
        at = 0
        for i, cell in enumerate(cells):
            if anchor and _grader(cell).get("grade_id") == anchor:
                at = i + 1
                if i + 1 < len(cells) and cells[i + 1].metadata.get(REPORT_TAG):
                    at = i + 2
        cells.insert(at, new)
        placed.add(grade_id)
    return cells, notes


# ---------------------------------------------------------------- the two runs

MAX_LINE = 40 << 20   # one line the runner writes (a cell's outputs are cut to 64 KiB inside)
MAX_DEPTH = 64        # nesting of a record the judge is handed (answers.decode recurses)


def _depth_ok(value, limit=MAX_DEPTH):
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(item, dict):
            stack += [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            stack += [(v, depth + 1) for v in item]
    return True


def _parse_line(line):
    """One JSON object from the sandbox, or None: malformed, too deep (a RecursionError in json) or too long."""
    if len(line) > MAX_LINE:
        return None
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) and _depth_ok(record) else None


def _run(cells, limits, use_sandbox, kernel, files=None, records=None):
    """Run code cells in the sandbox; returns (outputs by cell index, why it stopped or '', the Result).

    Only lines carrying this run's nonce are read (the kernel can write to the sandbox's stdout, but
    never learns the nonce); ``result.records`` holds the records an answer run's kernel appended to
    the file ``records`` (claims: parsed here, never trusted)."""
    code = [index for index, cell in enumerate(cells) if cell.cell_type == "code"]
    nonce = secrets.token_hex(16)
    own = {str(k): limits.trusted_seconds for k, index in enumerate(code) if cells[index].metadata.get(TRUSTED)}
    job = {"cells": [cells[index].source for index in code], "kernel": kernel, "cell_timeout": limits.cell_seconds,
           "cell_bytes": limits.cell_output_bytes, "nonce": nonce, "files": files or {}, "records": records,
           "cell_timeouts": own, "answer_seconds": limits.answer_seconds,
           "trusted_cell_bytes": limits.output_bytes}   # a report may carry a model
    result = sandbox.run_python("paddlecourse.grading.runner", json.dumps(job).encode(), limits, use_sandbox)
    outputs, stopped, done, found, stopped_at, statuses = {}, "", False, [], None, {}
    for line in result.stdout.decode("utf-8", "replace").splitlines():
        record = _parse_line(line)
        if record is None or record.get("nonce") != nonce:
            continue
        if isinstance(record.get("index"), int) and 0 <= record["index"] < len(code) \
                and isinstance(record.get("outputs"), list):
            outputs[code[record["index"]]] = [o for o in record["outputs"] if isinstance(o, dict)]
            statuses[code[record["index"]]] = str(record.get("status", ""))
        elif isinstance(record.get("record"), str):
            claim = _parse_line(record["record"])
            if claim is not None:
                found.append(claim)
        elif record.get("stopped"):
            stopped = str(record["stopped"])[:300]
            if isinstance(record.get("at"), int) and 0 <= record["at"] < len(code):
                stopped_at = code[record["at"]]
        elif record.get("done"):
            done = True
    if result.timed_out:
        stopped = f"the notebook ran over its {limits.notebook_seconds} s limit and was stopped"
    elif result.truncated:
        stopped = f"it printed more than {limits.output_bytes >> 20} MB and was stopped"
    elif not done and not stopped:
        stopped = f"the run ended unexpectedly (exit {result.returncode})"
    result.records = found
    result.statuses = statuses   # each code cell's execute_reply status, by cell index
    result.trusted_failures = _trusted_failures(cells, outputs, stopped, stopped_at)
    return outputs, stopped, result


def _trusted_failures(cells, outputs, stopped, stopped_at):
    """[(cell index, what it does, why it failed)] for the grader's own cells that raised or were stopped."""
    failures = []
    for index, cell in enumerate(cells):
        what = cell.metadata.get(TRUSTED)
        if not what or index not in outputs:
            continue
        errors = [o for o in outputs[index] if o.get("output_type") == "error"]
        if index == stopped_at:
            failures.append((index, what, f"stopped: {stopped}"))
        elif errors:
            failures.append((index, what, f"it raised {str(errors[0].get('ename'))[:80]}"))
    return failures


def _report_of(outputs):
    text = "".join(o.get("text", "") for o in outputs
                   if o.get("output_type") == "stream" and o.get("name") == "stdout")
    found = [line for line in text.splitlines() if line.startswith(MARKER)]
    if not found:
        return None
    return _parse_line(found[-1][len(MARKER):])


BIND = '''\
# paddlecourse judge: the names this solution defines, rebound to the submission's reported answers.
# First they go: a step stopped after this line leaves no solution value behind to be graded.
for _pc_name in {names!r}:
    globals().pop(_pc_name, None)
from paddlecourse.grading.answers import replay as _pc_replay
from paddlecourse.grading.reports import rebuild as _pc_decode
import json as _pc_json
_pc_report = _pc_json.loads({report!r})
if {files_at!r}:   # the files the solution wrote at that path go, the student's take their place
    __import__("paddlecourse.grading.models", fromlist=["models"]).restore_files(globals()[{files_at!r}],
                                                                                 _pc_report.get("files"))
_pc_answers = _pc_report.get("answers") if isinstance(_pc_report.get("answers"), dict) else {{}}
for _pc_name in sorted(_pc_answers, key=lambda n: str(_pc_answers[n]).startswith("{{'value': {{'t': 'value'")):
    _pc_entry = _pc_answers[_pc_name]   # programs first, then the values that point into them
    if _pc_name in {data!r} and isinstance(_pc_entry, dict) and "value" in _pc_entry:
        try:
            globals()[_pc_name] = _pc_decode(_pc_entry["value"], globals())
        except Exception as _pc_error:
            print(f"{{_pc_name}}: the reported answer does not rebuild ({{type(_pc_error).__name__}})")
for _pc_name in {functions!r}:
    globals()[_pc_name] = (lambda name, calls: lambda *args, **kwargs: _pc_replay(calls, name, args, kwargs))(
        _pc_name, _pc_report.get("calls", {{}}))
del _pc_report, _pc_answers
'''

RECORD = '''\
# paddlecourse answer run: every call of these answers is recorded (grading/effects.py)
from paddlecourse.grading.effects import record as _pc_record
_pc_record(globals(), {names!r})
del _pc_record
'''

REPLAY = '''\
# paddlecourse judge: these answers replay what the submission's code did when it ran (grading/effects.py)
from paddlecourse.grading import effects as _pc_effects
_pc_replayer_{slot} = _pc_effects.bind(globals(), {functions!r}, {datasets!r}, {path!r})
'''

END = '''\
# paddlecourse judge: the tests of these answers are over; the lesson goes on with the instructor's own
_pc_effects.end(globals(), {names!r}, _pc_replayer_{slot})
'''

RECORDS_FILE = "paddlecourse-records.json"
ANSWER_RUN_BYTES = 96 << 20   # read back from an answer run: records of models' states and files
MAX_RECORDS = 20_000


@dataclass
class Plan:
    '''How each answer of a notebook is judged, decided from the instructor's notebook alone.'''

    data: dict = field(default_factory=dict)      # grade id -> data names (reported by the student's run)
    literal: dict = field(default_factory=dict)   # grade id -> functions replayed by their literal arguments
    effects: dict = field(default_factory=dict)   # grade id -> (functions, Dataset classes) replayed by record
    observe: dict = field(default_factory=dict)   # grade id -> {Layer class: what its tests need of it}
    files_at: dict = field(default_factory=dict)  # grade id -> the name of the path whose files are the answer

    def recorded_names(self):
        return {n for functions, datasets in self.effects.values() for n in [*functions, *datasets]}


def name_uses(source, names):
    '''(names mentioned in ``source``, those mentioned other than as a by-name call with literal arguments).'''
    try:
        tree = _parse(source)
    except SyntaxError:
        return set(), set()
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    used, not_literal = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in names:
            used.add(node.id)
            call = parents.get(node)
            literal = isinstance(call, ast.Call) and call.func is node
            for value in ([*call.args, *[k.value for k in call.keywords]] if literal else []):
                try:
                    ast.literal_eval(value)
                except (ValueError, TypeError, SyntaxError):
                    literal = False
            if not literal:
                not_literal.add(node.id)
    return used, not_literal


SAVE_RANDOM = "_pc_random = __import__('paddlecourse.grading.effects', fromlist=['random_state']).random_state()"
RESTORE_RANDOM = "__import__('paddlecourse.grading.effects', fromlist=['random_state']).restore_random_state(_pc_random)"


def _continued_lines(source):
    """Line numbers (1-based) that begin inside a string started on an earlier line: never re-indented."""
    import io
    import tokenize

    inside = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.STRING and token.end[0] > token.start[0]:
                inside |= set(range(token.start[0] + 1, token.end[0] + 1))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return inside


def neutral_hidden(source):
    """A test cell whose hidden part leaves the random generators as it found them (try/finally, markers kept
    on their lines). The student's notebook never ran the hidden tests: with this the judge's run, and the
    answer run that holds some of them, draw the same random numbers after each test as that notebook did."""
    lines = source.split("\n")
    begin = next((i for i, line in enumerate(lines) if "BEGIN HIDDEN TESTS" in line), None)
    end = next((i for i, line in enumerate(lines) if "END HIDDEN TESTS" in line), None)
    if begin is None or end is None or end < begin:
        return source
    continued = _continued_lines(source)
    body = [line if (number + 1) in continued else "    " + line
            for number, line in enumerate(lines[begin + 1:end], start=begin + 1)]
    indent = lines[begin][:len(lines[begin]) - len(lines[begin].lstrip())]
    if indent:  # a hidden region inside a block: left as it is
        return source
    return "\n".join(lines[:begin] + [SAVE_RANDOM, "try:  " + lines[begin].strip()] + body + ["    pass",
                      "finally:  " + lines[end].strip(), "    " + RESTORE_RANDOM] + lines[end + 1:])


def _hidden_part(source):
    return "\n".join(HIDDEN.findall(source))


def plan_for(source):
    '''The Plan of an instructor's notebook: data answers are reported; a function the tests call only
    with literal arguments is replayed by them; any other function, and a Dataset class, is recorded in
    the answer run and replayed by its effects. The answer cell's metadata adds two kinds, in
    ``{"paddlecourse": {...}}``: ``"observe"`` names a Layer class whose forward is the answer and what its
    tests need of it (``layer_classes.py``); ``"files_at"`` names the path whose files are part of the answer.
    A class answer with neither is reported as data, which the judge refuses: "needs a look".'''
    plan = Plan()
    tests = [c.source for c in source.cells if is_test(c)]
    for cell in source.cells:
        if not (is_answer(cell) and cell.cell_type == "code"):
            continue
        grade_id = _grader(cell)["grade_id"]
        data, functions = defined_names(cell.source)
        authored = cell.metadata.get("paddlecourse", {})
        if authored.get("files_at"):
            plan.files_at[grade_id] = str(authored["files_at"])
        observed = {name: how for name, how in (authored.get("observe") or {}).items() if name in functions}
        if observed:
            plan.observe[grade_id] = observed
            data, functions = data + list(observed), [f for f in functions if f not in observed]
        plan.data[grade_id] = data
        if not functions:
            continue
        classes = {node.name: [ast.unparse(b) for b in node.bases] for node in _body(cell.source)
                   if isinstance(node, ast.ClassDef)}
        hidden_used, hidden_not_literal = set(), set()
        for test in tests:
            u, n = name_uses(_hidden_part(test), functions)
            hidden_used, hidden_not_literal = hidden_used | u, hidden_not_literal | n
        if not classes and set(functions) <= hidden_used and not (set(functions) & hidden_not_literal):
            # a pure function of plain data: the hidden tests call it, with literals only (reported); the visible
            # checks' calls are recorded in the student's run, which holds no hidden test; replayed by arguments
            plan.literal[grade_id] = functions
        elif any(not any("Dataset" in base for base in bases) for bases in classes.values()):
            plan.data[grade_id] = data + functions   # a class no metadata describes: refused as data
        else:
            plan.effects[grade_id] = ([f for f in functions if f not in classes], [f for f in functions if f in classes])
    return plan


def _judge_cells(source, reports, plan, last_use):
    cells, test_index, slots = [], {}, {}
    for cell in source.cells:
        grade_id = _grader(cell).get("grade_id")
        cells.append(_plain(cell.cell_type, neutral_hidden(cell.source) if is_test(cell) else cell.source,
                            cell.metadata))
        if grade_id in plan.data:
            data, functions = plan.data[grade_id], plan.literal.get(grade_id, [])
            report = reports.get(grade_id) or {}
            cells.append(_trusted(BIND.format(report=json.dumps(report), names=data + functions, data=data,
                                              functions=functions, files_at=plan.files_at.get(grade_id, "")),
                                  f"rebinding the answers of {grade_id}"))
        if grade_id in plan.effects:
            functions, datasets = plan.effects[grade_id]
            slots[grade_id] = len(cells)
            cells.append(_trusted(REPLAY.format(slot=slots[grade_id], functions=functions, datasets=datasets,
                                                path=RECORDS_FILE), f"replaying the answers of {grade_id}"))
            if grade_id not in last_use:  # no test uses it: the lesson goes on with the instructor's own
                cells.append(_trusted(END.format(slot=slots[grade_id], names=functions + datasets),
                                      f"ending the replay of {grade_id}"))
        if is_test(cell):
            test_index[grade_id] = len(cells) - 1
            for answer_id, test_id in last_use.items():
                if test_id == grade_id and answer_id in slots:
                    functions, datasets = plan.effects[answer_id]
                    cells.append(_trusted(END.format(slot=slots[answer_id], names=functions + datasets),
                                          f"ending the replay of {answer_id}"))
    return cells, test_index


def _last_uses(source, plan):
    '''{answer grade id: the last test cell that mentions one of its recorded names}.'''
    last = {}
    groups = {g: [*f, *d] for g, (f, d) in plan.effects.items()}
    for cell in source.cells:
        if is_test(cell):
            for answer_id, names in groups.items():
                if name_uses(cell.source, set(names))[0]:
                    last[answer_id] = _grader(cell).get("grade_id")
    return last


def _answer_run_cells(source, students_source, plan):
    '''The answer run: the instructor's notebook with the student's cells for the recorded answers
    (every other answer as the solution has it), a recorder after each, and the test cells up to the last
    that uses them - a hidden part only where it calls them itself (its calls must be recorded), so
    nothing else hidden is ever in that kernel.'''
    names = plan.recorded_names()
    cells, index, last = [], {}, 0
    for cell in source.cells:
        grade_id = _grader(cell).get("grade_id")
        if grade_id in plan.effects:
            cells.append(_plain("code", students_source.get(grade_id, "")))
            functions, datasets = plan.effects[grade_id]
            cells.append(_trusted(RECORD.format(names=functions + datasets), f"recording the answers of {grade_id}"))
        elif is_test(cell):
            uses = name_uses(cell.source, names)[0]
            keep_hidden = bool(name_uses(_hidden_part(cell.source), names)[0])
            text = neutral_hidden(cell.source) if keep_hidden else without_hidden_tests(cell.source)
            cells.append(_plain("code", text))
            if uses:
                index[grade_id] = len(cells) - 1
                last = len(cells)
        else:
            cells.append(_plain(cell.cell_type, cell.source, cell.metadata))
    return cells[:last], index


def _checked_records(records, names):
    '''The answer run's records the judge is handed: entries of the recorded names only, at most MAX_RECORDS.'''
    kept = [r for r in records if isinstance(r, dict) and r.get("name") in names]
    return kept[:MAX_RECORDS]


def _not_judged():
    return [{"output_type": "error", "ename": "NotJudged", "evalue": "This test could not be run; your instructor "
             "will look at it.", "traceback": ["NotJudged: This test could not be run."]}]


# hidden tests, not solution markers: a learner may paste a solution cell from the course's solutions/ (catch-up
# strips its markers, a copy by hand keeps them), but no student's notebook holds a hidden test
_INSTRUCTORS_MARKS = re.compile(r"^[ \t]*#+ *(BEGIN|END) HIDDEN TESTS", re.M)
REFUSED_MARK = ".paddlecourse-refused"


def refusal(path, submitted):
    """Why a submission is not the student's own work to grade ('' when it may be graded): a symbolic link
    (nbgrader's collect copies what a link points at - source/ included), a submission `collect` found
    links in, or a notebook that holds hidden-test regions (the instructor's source notebook)."""
    path = Path(path)
    if path.is_symlink() or any(p.is_symlink() for p in list(path.parents)[:3]) or \
            (path.exists() and not path.is_file()):
        return "the submitted notebook is a symbolic link (or not a plain file); only a student's own file is graded"
    mark = path.parent / REFUSED_MARK
    if mark.is_file() and not mark.is_symlink():
        return mark.read_text(encoding="utf-8", errors="replace")[:300].strip() or "collect refused this submission"
    for cell in submitted.get("cells", []):
        if _INSTRUCTORS_MARKS.search(cell.get("source", "")):
            return ("the notebook holds hidden-test regions: it is the instructor's source notebook (a copy of "
                    "source/ or solutions/, for example through a symbolic link in the exchange), not the student's work")
    return ""


def _refused(judgement, source, reason, start):
    """A judgement of nothing: every test scores 0, and the reason goes to the instructor."""
    judgement.needs_look.append(f"not graded: {reason}")
    cells = [new_markdown_cell("**Notes from grading**\n\n- This notebook was not graded; your instructor will "
                               "look at it by hand.")]
    for cell in source.cells:
        if is_answer(cell):
            continue
        grade_id = _grader(cell).get("grade_id")
        if is_test(cell):
            new = _plain("code", without_hidden_tests(cell.source), cell.metadata)
            new.outputs = [{"output_type": "error", "ename": "NotJudged", "evalue": "This notebook was not graded.",
                            "traceback": ["NotJudged: This notebook was not graded."]}]
            judgement.passed[grade_id] = False
        else:
            new = _plain(cell.cell_type, cell.source, cell.metadata)
        cells.append(new)
    judgement.cells = [json.loads(json.dumps(c)) for c in cells]
    judgement.seconds = time.monotonic() - start
    return judgement


def _verdict_outputs(outputs, source):
    """What the feedback shows of the judge's run of a test cell: no stderr, errors cut to one
    line, and a failure inside the hidden tests only says that a hidden test failed."""
    from .feedback import HideHiddenTests

    hidden = hidden_line_numbers(source)
    kept, failed = [], False
    for output in outputs:
        kind = output.get("output_type")
        if kind == "stream" and output.get("name") == "stderr":
            continue  # a warning costs nothing
        if kind == "execute_result":
            continue  # nbgrader would read a number there as a partial score: the grade is pass or fail
        if kind == "error":
            failed = True
            line = failing_line(output.get("traceback", []))
            ename, evalue = str(output.get("ename", "Error")), str(output.get("evalue", ""))
            visible_check = line is None and ename == "CheckFailed"
            if hidden and not visible_check and (line is None or line in hidden):
                ename, evalue = "HiddenTestFailed", HideHiddenTests.message
            kept.append({"output_type": "error", "ename": ename, "evalue": evalue[:2000],
                         "traceback": [f"{ename}: {evalue[:2000]}"]})
            continue
        kept.append(output)
    return kept, failed


def judge_notebook(submitted_path, source_path, limits=None, use_sandbox=True, kernel="paddlecourse"):
    """Judge one submitted notebook against the instructor's source notebook; returns a Judgement."""
    limits = limits or sandbox.Limits()
    start = time.monotonic()
    name = Path(source_path).name
    judgement = Judgement(notebook=name, sandboxed=use_sandbox)
    source = nbformat.read(source_path, as_version=4)
    refused = refusal(submitted_path, {"cells": []})   # a link is refused before anything reads what it points at
    if refused:
        return _refused(judgement, source, refused, start)
    try:
        submitted = read_submission(submitted_path)
    except (OSError, ValueError) as error:
        judgement.unreadable = str(error)
        judgement.needs_look.append(f"unreadable notebook: {error}")
        return judgement
    refused = refusal(submitted_path, submitted)
    if refused:
        return _refused(judgement, source, refused, start)
    plan = plan_for(source)
    calls = literal_calls([c.source for c in source.cells if is_test(c)],
                          [f for functions in plan.literal.values() for f in functions])

    cells, judgement.notes = normalise(submitted, source)
    for cell in cells:
        grade_id = cell.metadata.get(REPORT_TAG)
        if grade_id:
            data, functions = plan.data.get(grade_id, []), plan.literal.get(grade_id, [])
            wanted = json.dumps({f: calls[f] for f in functions})
            how = json.dumps({"observe": plan.observe.get(grade_id, {}), "files_at": plan.files_at.get(grade_id)})
            cell.source = ("from paddlecourse.grading.reports import report as _pc_report\n"
                           "from paddlecourse.grading.answers import record_calls as _pc_rc\n"
                           f"_pc_report(globals(), {data!r}, __import__('json').loads({wanted!r}), "
                           f"**__import__('json').loads({how!r}))\n"
                           f"_pc_rc(globals(), {functions!r})\n"
                           "del _pc_report, _pc_rc")
            cell.metadata[TRUSTED] = f"reading the answers of {grade_id}"
    # the reports may carry models and the files an answer wrote: room for them, as in the answer run
    student_limits = dataclasses.replace(limits, output_bytes=max(limits.output_bytes, ANSWER_RUN_BYTES))
    outputs, stopped, run = _run(cells, student_limits, use_sandbox, kernel, records=effects.RECORDS)
    judgement.student_seconds = run.seconds
    if stopped:
        judgement.needs_look.append(f"the student's run stopped: {stopped}; answers after that point were not run")
    _look_at_failed_steps(judgement, run, "the student's run")
    reports = {}
    for index, cell in enumerate(cells):
        grade_id = cell.metadata.get(REPORT_TAG)
        if grade_id and index in outputs:
            reports[grade_id] = _report_of(outputs[index])
            if reports[grade_id] is None and not any(what == cell.metadata.get(TRUSTED) for _, what, _ in
                                                     run.trusted_failures):
                # the report cell ran and said nothing: its print went elsewhere (a replaced sys.stdout)
                judgement.needs_look.append(f"{grade_id}: its answers could not be read (the grader's report "
                                            "printed nothing; does the notebook replace sys.stdout?)")
    literal_of = {f: g for g, functions in plan.literal.items() for f in functions}
    for claim in run.records[:MAX_RECORDS]:   # calls the visible checks made, by their literal arguments
        grade_id = literal_of.get(claim.get("name"))
        if grade_id and isinstance(reports.get(grade_id), dict) and isinstance(claim.get("args"), dict):
            found = reports[grade_id].setdefault("calls", {})
            if isinstance(found, dict) and isinstance(found.setdefault(claim["name"], []), list):
                found[claim["name"]].append({k: claim[k] for k in ("args", "value", "raised", "unsupported")
                                             if k in claim})
    for grade_id, report in reports.items():
        for function, entries in ((report or {}).get("calls") or {}).items():
            for entry in entries if isinstance(entries, list) else []:
                if isinstance(entry, dict) and entry.get("unsupported"):
                    judgement.needs_look.append(f"{grade_id}: `{function}` returned {str(entry['unsupported'])[:80]}; "
                                                "the judge takes only plain data")
        for answer_name, entry in ((report or {}).get("answers") or {}).items():
            if isinstance(entry, dict) and entry.get("unsupported"):
                judgement.needs_look.append(
                    f"{grade_id}: `{answer_name}` is {str(entry['unsupported'])[:80]}; the judge takes only plain data "
                    "(numbers, strings, lists, sets, dicts, arrays, tensors, InputSpecs, static programs, "
                    "loaded models)")

    # function and Dataset answers the tests hand lesson objects: the answer run records what they did
    records = []
    if plan.effects:
        students_source = {_grader(c).get("grade_id"): c.source for c in cells if is_answer(c)}
        answer_cells, answer_index = _answer_run_cells(source, students_source, plan)
        answer_limits = dataclasses.replace(limits, output_bytes=max(limits.output_bytes, ANSWER_RUN_BYTES))
        _, answer_stopped, answer_run = _run(answer_cells, answer_limits, use_sandbox, kernel, records=effects.RECORDS)
        judgement.judge_seconds += answer_run.seconds
        records = _checked_records(answer_run.records, plan.recorded_names())
        _look_at_failed_steps(judgement, answer_run, "the run of your function answers")
        if answer_stopped:
            judgement.needs_look.append(f"the run of your function answers stopped ({answer_stopped}); "
                                        "calls after that point were not recorded and their tests score 0")
        if answer_index:
            judgement.notes.append(
                "Tests " + ", ".join(sorted(answer_index)) + " use your function or class answers with the lesson's "
                "objects: your code ran in a sandbox of its own on the lesson's set-up, what it returned and did to "
                "its arguments was recorded, and the tests were judged on that record.")
    observed = {name for names in plan.observe.values() for name in names}
    observed_tests = sorted(_grader(c)["grade_id"] for c in source.cells if is_test(c) and observed
                            and name_uses(c.source, observed)[0])
    if observed_tests:
        judgement.notes.append(
            ("Tests " if len(observed_tests) > 1 else "Test ") + ", ".join(observed_tests) +
            (" use" if len(observed_tests) > 1 else " uses") + " your class through what was observed of it in "
            "your run: its forward in eval mode exported as a program (run with the test's own weights and "
            "inputs), and its outputs in train mode on the exercise's input.")

    last_use = _last_uses(source, plan)
    judge_cells, test_index = _judge_cells(source, reports, plan, last_use)
    judged, judge_stopped, judge_run = _run(judge_cells, limits, use_sandbox, kernel,
                                            files={RECORDS_FILE: json.dumps(records)} if plan.effects else None)
    judgement.judge_seconds += judge_run.seconds
    if judge_stopped:
        judgement.needs_look.append(f"the judge's run did not finish ({judge_stopped}); unfinished tests score 0")
    if _look_at_failed_steps(judgement, judge_run, "the judge's run"):
        # after a step that did not rebind or replay the answers, the kernel may hold anything (the
        # instructor's own values): no test from there on is judged
        first = min(index for index, _, _ in judge_run.trusted_failures)
        for where in [w for w in test_index.values() if isinstance(w, int) and w > first]:
            judged.pop(where, None)

    # the notebook nbgrader records: the student's run, report cells gone, test cells as judged
    final = []
    for index, cell in enumerate(cells):
        if cell.metadata.get(REPORT_TAG):
            continue
        grade_id = _grader(cell).get("grade_id")
        original = next((c for c in source.cells if _grader(c).get("grade_id") == grade_id), None) if grade_id else None
        if original is not None and is_test(original):
            cell = _plain("code", original.source, original.metadata)
            where = test_index.get(grade_id)
            if where is None or where not in judged:
                outputs_, failed = _not_judged(), True
            else:
                outputs_, failed = _verdict_outputs(judged[where], neutral_hidden(original.source))
            cell.outputs = outputs_
            judgement.passed[grade_id] = not failed
        elif cell.cell_type == "code":
            cell.outputs = [o for o in outputs.get(index, []) if o.get("output_type") != "error"] + \
                [o for o in outputs.get(index, []) if o.get("output_type") == "error"][:1]
            for output in cell.outputs:
                if output.get("output_type") == "error":
                    output["traceback"] = [f"{output.get('ename')}: {str(output.get('evalue'))[:500]}"]
        final.append(cell)
    if judgement.notes or judgement.needs_look:
        lines = [f"- {note}" for note in judgement.notes]
        lines += [f"- Your instructor will look at this by hand: {reason}" for reason in judgement.needs_look]
        final.insert(0, new_markdown_cell("**Notes from grading**\n\n" + "\n".join(lines)))
    judgement.cells = [json.loads(json.dumps(c)) for c in _sanitised(final)]
    judgement.seconds = time.monotonic() - start
    return judgement


def _sanitised(cells):
    """The recorded notebook with nothing a student wrote left active where formgrader and the feedback
    render it: in every code cell's outputs (the student's run made them) scripts, JavaScript and other
    active outputs are removed and HTML is cleaned by nbconvert's SanitizeHTML (bleach); markdown is
    cleaned the same way except the lesson's own locked cells, put back from the instructor's source.
    The notes cell quotes grade ids and reports from the submission, so it is cleaned too."""
    from nbconvert.preprocessors.sanitize import SanitizeHTML

    cleaner = SanitizeHTML()
    for cell in cells:
        if cell.cell_type == "code":
            cell.outputs = cleaner.sanitize_code_outputs([nbformat.from_dict(o) for o in cell.outputs])
        elif cell.cell_type in ("markdown", "raw") and not is_locked(cell):
            cell.source = cleaner.sanitize_html_tags(cell.source)
    return cells


def _look_at_failed_steps(judgement, run, which):
    """List each of the grader's own steps that failed in ``run``; True if any did."""
    for _, what, why in run.trusted_failures:
        judgement.needs_look.append(f"a grading step failed in {which}: {what} ({why}); "
                                    "the tests that depend on it are not scored until you look")
    return bool(run.trusted_failures)


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# ---------------------------------------------------------------- inside nbgrader's autograde

from nbgrader.preprocessors import NbGraderPreprocessor  # noqa: E402


class ApplyJudgement(NbGraderPreprocessor):
    """nbgrader's autograde step, in place of its Execute: the notebook becomes the judged one.

    The judgement was made beforehand (``paddlecourse course grade``, in parallel, written to the
    private folder named by PADDLECOURSE_JUDGEMENTS); a plain ``nbgrader autograde`` without it
    judges here, one submission at a time, sandboxed unless PADDLECOURSE_SANDBOX=off.
    """

    def preprocess(self, nb, resources):
        info = resources.get("nbgrader", {})
        student, assignment, notebook = info.get("student"), info.get("assignment"), info.get("notebook")
        folder = os.environ.get("PADDLECOURSE_JUDGEMENTS")
        saved = Path(folder) / str(student) / f"{notebook}.json" if folder else None
        if saved is not None and saved.exists():
            judgement = Judgement.from_json(saved.read_text(encoding="utf-8"))
        else:
            use_sandbox = os.environ.get("PADDLECOURSE_SANDBOX", "on") != "off"
            if use_sandbox and not sandbox.available():
                raise sandbox.SandboxMissing("bubblewrap is missing; " + sandbox.RISK)
            course = Path.cwd()
            judgement = judge_notebook(course / "submitted" / student / assignment / f"{notebook}.ipynb",
                                       course / "source" / assignment / f"{notebook}.ipynb",
                                       use_sandbox=use_sandbox)
        if judgement.unreadable:
            raise ValueError(f"unreadable notebook: {judgement.unreadable}")
        nb.cells = [nbformat.from_dict(cell) for cell in judgement.cells]
        return nb, resources
