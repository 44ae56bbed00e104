"""How each answer of a notebook is judged (the Plan, decided from the instructor's notebook alone), and
the cells of the two runs that follow it: the answer run (function answers recorded where they ran) and
the judge's run (answers rebound from their reports, recorded ones replayed).
"""
import ast
import json
from dataclasses import dataclass, field

from .cells import (defined_names, grader, hidden_part, is_answer, is_test, name_uses, neutral_hidden, top_level,
                    without_hidden_tests)
from .submission import plain_cell, trusted_cell


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
        grade_id = grader(cell)["grade_id"]
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
        classes = {node.name: [ast.unparse(b) for b in node.bases] for node in top_level(cell.source)
                   if isinstance(node, ast.ClassDef)}
        hidden_used, hidden_not_literal = set(), set()
        for test in tests:
            u, n = name_uses(hidden_part(test), functions)
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


RECORDS_FILE = "paddlecourse-records.json"


MAX_RECORDS = 20_000


BIND = '''\
# paddlecourse judge: the names this solution defines, rebound to the submission's reported answers.
# First they go: a step stopped after this line leaves no solution value behind to be graded.
for _pc_name in {names!r}:
    globals().pop(_pc_name, None)
from paddlecourse.teach.grading.answers import replay as _pc_replay
from paddlecourse.teach.grading.reports import rebuild as _pc_decode
import json as _pc_json
_pc_report = _pc_json.loads({report!r})
if {files_at!r}:   # the files the solution wrote at that path go, the student's take their place
    __import__("paddlecourse.teach.grading.models", fromlist=["models"]).restore_files(globals()[{files_at!r}],
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
# paddlecourse answer run: every call of these answers is recorded (grading/recording.py)
from paddlecourse.teach.grading.recording import record as _pc_record
_pc_record(globals(), {names!r})
del _pc_record
'''


REPLAY = '''\
# paddlecourse judge: these answers replay what the submission's code did when it ran (grading/replaying.py)
from paddlecourse.teach.grading import replaying as _pc_replaying
_pc_replayer_{slot} = _pc_replaying.bind(globals(), {functions!r}, {datasets!r}, {path!r})
'''


END = '''\
# paddlecourse judge: the tests of these answers are over; the lesson goes on with the instructor's own
_pc_replaying.end(globals(), {names!r}, _pc_replayer_{slot})
'''


def judge_cells(source, reports, plan, last_use):
    cells, test_index, slots = [], {}, {}
    for cell in source.cells:
        grade_id = grader(cell).get("grade_id")
        cells.append(plain_cell(cell.cell_type, neutral_hidden(cell.source) if is_test(cell) else cell.source,
                            cell.metadata))
        if grade_id in plan.data:
            data, functions = plan.data[grade_id], plan.literal.get(grade_id, [])
            report = reports.get(grade_id) or {}
            cells.append(trusted_cell(BIND.format(report=json.dumps(report), names=data + functions, data=data,
                                              functions=functions, files_at=plan.files_at.get(grade_id, "")),
                                  f"rebinding the answers of {grade_id}"))
        if grade_id in plan.effects:
            functions, datasets = plan.effects[grade_id]
            slots[grade_id] = len(cells)
            cells.append(trusted_cell(REPLAY.format(slot=slots[grade_id], functions=functions, datasets=datasets,
                                                path=RECORDS_FILE), f"replaying the answers of {grade_id}"))
            if grade_id not in last_use:  # no test uses it: the lesson goes on with the instructor's own
                cells.append(trusted_cell(END.format(slot=slots[grade_id], names=functions + datasets),
                                      f"ending the replay of {grade_id}"))
        if is_test(cell):
            test_index[grade_id] = len(cells) - 1
            for answer_id, test_id in last_use.items():
                if test_id == grade_id and answer_id in slots:
                    functions, datasets = plan.effects[answer_id]
                    cells.append(trusted_cell(END.format(slot=slots[answer_id], names=functions + datasets),
                                          f"ending the replay of {answer_id}"))
    return cells, test_index


def last_uses(source, plan):
    '''{answer grade id: the last test cell that mentions one of its recorded names}.'''
    last = {}
    groups = {g: [*f, *d] for g, (f, d) in plan.effects.items()}
    for cell in source.cells:
        if is_test(cell):
            for answer_id, names in groups.items():
                if name_uses(cell.source, set(names))[0]:
                    last[answer_id] = grader(cell).get("grade_id")
    return last


def answer_run_cells(source, students_source, plan):
    '''The answer run: the instructor's notebook with the student's cells for the recorded answers
    (every other answer as the solution has it), a recorder after each, and the test cells up to the last
    that uses them - a hidden part only where it calls them itself (its calls must be recorded), so
    nothing else hidden is ever in that kernel.'''
    names = plan.recorded_names()
    cells, index, last = [], {}, 0
    for cell in source.cells:
        grade_id = grader(cell).get("grade_id")
        if grade_id in plan.effects:
            cells.append(plain_cell("code", students_source.get(grade_id, "")))
            functions, datasets = plan.effects[grade_id]
            cells.append(trusted_cell(RECORD.format(names=functions + datasets), f"recording the answers of {grade_id}"))
        elif is_test(cell):
            uses = name_uses(cell.source, names)[0]
            keep_hidden = bool(name_uses(hidden_part(cell.source), names)[0])
            text = neutral_hidden(cell.source) if keep_hidden else without_hidden_tests(cell.source)
            cells.append(plain_cell("code", text))
            if uses:
                index[grade_id] = len(cells) - 1
                last = len(cells)
        else:
            cells.append(plain_cell(cell.cell_type, cell.source, cell.metadata))
    return cells[:last], index


def checked_records(records, names):
    '''The answer run's records the judge is handed: entries of the recorded names only, at most MAX_RECORDS.'''
    kept = [r for r in records if isinstance(r, dict) and r.get("name") in names]
    return kept[:MAX_RECORDS]
