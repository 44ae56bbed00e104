"""A run of cells in the sandbox (``runner.py`` inside it), and what is read back of it: only lines that
carry the run's nonce, each parsed with limits on length and depth.
"""
import json
import secrets

from . import sandbox
from .answers import MARKER
from .submission import TRUSTED


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


def parse_line(line):
    """One JSON object from the sandbox, or None: malformed, too deep (a RecursionError in json) or too long."""
    if len(line) > MAX_LINE:
        return None
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) and _depth_ok(record) else None


def run_cells(cells, limits, use_sandbox, kernel, files=None, records=None):
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
    result = sandbox.run_python("paddlecourse.teach.grading.runner", json.dumps(job).encode(), limits, use_sandbox)
    outputs, stopped, done, found, stopped_at, statuses = {}, "", False, [], None, {}
    for line in result.stdout.decode("utf-8", "replace").splitlines():
        record = parse_line(line)
        if record is None or record.get("nonce") != nonce:
            continue
        if isinstance(record.get("index"), int) and 0 <= record["index"] < len(code) \
                and isinstance(record.get("outputs"), list):
            outputs[code[record["index"]]] = [o for o in record["outputs"] if isinstance(o, dict)]
            statuses[code[record["index"]]] = str(record.get("status", ""))
        elif isinstance(record.get("record"), str):
            claim = parse_line(record["record"])
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


def report_of(outputs):
    text = "".join(o.get("text", "") for o in outputs
                   if o.get("output_type") == "stream" and o.get("name") == "stdout")
    found = [line for line in text.splitlines() if line.startswith(MARKER)]
    if not found:
        return None
    return parse_line(found[-1][len(MARKER):])
