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
   replay the records call by call (``replaying.bind``). Then the test cells run, visible checks and
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
import dataclasses
import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbformat.v4 import new_markdown_cell

from ...settings import setting
from . import effects, sandbox
from .cells import grader, is_answer, is_locked, is_test, literal_calls, name_uses, neutral_hidden, without_hidden_tests
from .feedback import failing_line, hidden_line_numbers
from .judge_runs import JudgeRuns
from .plans import (MAX_RECORDS, RECORDS_FILE, answer_run_cells, checked_records, judge_cells,
                   last_uses, plan_for)
from .runs import report_of, run_cells
from .submission import REPORT_TAG, TRUSTED, normalise, plain_cell, read_submission, refusal


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
    judge_reused: bool = False   # the judge's run of the same answers, made for another submission
    sandboxed: bool = True

    def to_json(self):
        return json.dumps(self.__dict__)

    @classmethod
    def from_json(cls, text):
        return cls(**json.loads(text))


ANSWER_RUN_BYTES = 96 << 20   # read back from an answer run: records of models' states and files


def _not_judged():
    return [{"output_type": "error", "ename": "NotJudged", "evalue": "This test could not be run; your instructor "
             "will look at it.", "traceback": ["NotJudged: This test could not be run."]}]


def _refused(judgement, source, reason, start):
    """A judgement of nothing: every test scores 0, and the reason goes to the instructor."""
    judgement.needs_look.append(f"not graded: {reason}")
    cells = [new_markdown_cell("**Notes from grading**\n\n- This notebook was not graded; your instructor will "
                               "look at it by hand.")]
    for cell in source.cells:
        if is_answer(cell):
            continue
        grade_id = grader(cell).get("grade_id")
        if is_test(cell):
            new = plain_cell("code", without_hidden_tests(cell.source), cell.metadata)
            new.outputs = [{"output_type": "error", "ename": "NotJudged", "evalue": "This notebook was not graded.",
                            "traceback": ["NotJudged: This notebook was not graded."]}]
            judgement.passed[grade_id] = False
        else:
            new = plain_cell(cell.cell_type, cell.source, cell.metadata)
        cells.append(new)
    judgement.cells = [json.loads(json.dumps(c)) for c in cells]
    judgement.seconds = time.monotonic() - start
    return judgement


def _verdict_outputs(outputs, source, status=""):
    """What the feedback shows of the judge's run of a test cell: no stderr, errors cut to one
    line, and a failure inside the hidden tests only says that a hidden test failed.

    ``status`` is the kernel's execute_reply status: a cell that raised fails even where its error was shown
    as something else (setup() shows a skipped Deeper exercise's check as a plain line outside grading)."""
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
    if status == "error" and not failed:
        failed = True
        kept.append({"output_type": "error", "ename": "TestFailed", "evalue": "this test cell raised an error",
                     "traceback": ["TestFailed: this test cell raised an error"]})
    return kept, failed


def judge_notebook(submitted_path, source_path, limits=None, use_sandbox=True, kernel="paddlecourse",
                   judge_runs=None):
    """Judge one submitted notebook against the instructor's source notebook; returns a Judgement.

    ``judge_runs`` (a JudgeRuns, shared by a class) hands over a finished judge's run of the very same
    input instead of starting another."""
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
            cell.source = ("from paddlecourse.teach.grading.reports import report as _pc_report\n"
                           "from paddlecourse.teach.grading.answers import record_calls as _pc_rc\n"
                           f"_pc_report(globals(), {data!r}, __import__('json').loads({wanted!r}), "
                           f"**__import__('json').loads({how!r}))\n"
                           f"_pc_rc(globals(), {functions!r})\n"
                           "del _pc_report, _pc_rc")
            cell.metadata[TRUSTED] = f"reading the answers of {grade_id}"
    # the reports may carry models and the files an answer wrote: room for them, as in the answer run
    student_limits = dataclasses.replace(limits, output_bytes=max(limits.output_bytes, ANSWER_RUN_BYTES))
    outputs, stopped, run = run_cells(cells, student_limits, use_sandbox, kernel, records=effects.RECORDS)
    judgement.student_seconds = run.seconds
    if stopped:
        judgement.needs_look.append(f"the student's run stopped: {stopped}; answers after that point were not run")
    _look_at_failed_steps(judgement, run, "the student's run")
    reports = {}
    for index, cell in enumerate(cells):
        grade_id = cell.metadata.get(REPORT_TAG)
        if grade_id and index in outputs:
            reports[grade_id] = report_of(outputs[index])
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
        students_source = {grader(c).get("grade_id"): c.source for c in cells if is_answer(c)}
        answer_cells, answer_index = answer_run_cells(source, students_source, plan)
        answer_limits = dataclasses.replace(limits, output_bytes=max(limits.output_bytes, ANSWER_RUN_BYTES))
        _, answer_stopped, answer_run = run_cells(answer_cells, answer_limits, use_sandbox, kernel, records=effects.RECORDS)
        judgement.judge_seconds += answer_run.seconds
        records = checked_records(answer_run.records, plan.recorded_names())
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
    observed_tests = sorted(grader(c)["grade_id"] for c in source.cells if is_test(c) and observed
                            and name_uses(c.source, observed)[0])
    if observed_tests:
        judgement.notes.append(
            ("Tests " if len(observed_tests) > 1 else "Test ") + ", ".join(observed_tests) +
            (" use" if len(observed_tests) > 1 else " uses") + " your class through what was observed of it in "
            "your run: its forward in eval mode exported as a program (run with the test's own weights and "
            "inputs), and its outputs in train mode on the exercise's input.")

    last_use = last_uses(source, plan)
    cells_of_judge, test_index = judge_cells(source, reports, plan, last_use)
    files = {RECORDS_FILE: json.dumps(records)} if plan.effects else None
    judged, judge_stopped, judge_run, judgement.judge_reused = (judge_runs or JudgeRuns()).run(
        run_cells, cells_of_judge, limits, use_sandbox, kernel, files=files)
    if not judgement.judge_reused:
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
        grade_id = grader(cell).get("grade_id")
        original = next((c for c in source.cells if grader(c).get("grade_id") == grade_id), None) if grade_id else None
        if original is not None and is_test(original):
            cell = plain_cell("code", original.source, original.metadata)
            where = test_index.get(grade_id)
            if where is None or where not in judged:
                outputs_, failed = _not_judged(), True
            else:
                outputs_, failed = _verdict_outputs(judged[where], neutral_hidden(original.source),
                                                    getattr(judge_run, "statuses", {}).get(where, ""))
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
        folder = setting("PADDLECOURSE_JUDGEMENTS")
        saved = Path(folder) / str(student) / f"{notebook}.json" if folder else None
        if saved is not None and saved.exists():
            judgement = Judgement.from_json(saved.read_text(encoding="utf-8"))
        else:
            use_sandbox = setting("PADDLECOURSE_SANDBOX") != "off"
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
