"""The judge's runs of one class, shared between submissions that gave the same answers.

The judge's run is trusted code only: the instructor's notebook, with each answer rebound from the
student's report (and replayed from the answer run's records). Its input is therefore those cells and
files and nothing else a submission can touch; two submissions whose reports are byte for byte the same
get a judge's run that does the same. In a class many students answer alike (everyone who got it
right), so the first such run is kept and handed to the others, and a class of twenty waits for fewer
kernels.

Only a run that finished with every grading step done is kept: one that stopped (a dead kernel, a busy
machine, a limit) is not reused, and the next submission with those answers gets a run of its own.
"""
import copy
import dataclasses
import hashlib
import json
import threading


class JudgeRuns:
    """A memo of finished judge's runs, keyed by everything that run is given; safe across threads."""

    def __init__(self):
        self._lock = threading.Lock()
        self._key_locks = {}
        self._finished = {}
        self.ran = 0
        self.reused = 0

    def run(self, run_cells, cells, limits, use_sandbox, kernel, files=None):
        """``run_cells(cells, limits, use_sandbox, kernel, files=files)``, or a finished run of the same
        input made earlier; returns (outputs, stopped, result, reused?)."""
        key = _key(cells, limits, use_sandbox, kernel, files)
        with self._lock:
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:   # the same answers judged at once: the second waits for the first
            if key in self._finished:
                with self._lock:
                    self.reused += 1
                outputs, stopped, result = self._finished[key]
                return copy.deepcopy(outputs), stopped, result, True
            outputs, stopped, result = run_cells(cells, limits, use_sandbox, kernel, files=files)
            with self._lock:
                self.ran += 1
            if not stopped and not result.trusted_failures:
                self._finished[key] = (copy.deepcopy(outputs), stopped, result)
            return outputs, stopped, result, False


def _key(cells, limits, use_sandbox, kernel, files):
    # what a cell does, not its random id: each copy of a notebook gets ids of its own
    what = [{"type": cell.get("cell_type"), "source": cell.get("source"), "metadata": cell.get("metadata")}
            for cell in cells]
    text = json.dumps({"cells": what, "limits": dataclasses.asdict(limits),
                       "sandbox": bool(use_sandbox), "kernel": kernel, "files": files or {}},
                      sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
