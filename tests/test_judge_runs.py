"""A class's judge's runs are shared only between submissions whose judge input is the same, and only
when the run finished: a stopped run is made again for the next submission (judge_runs.py).

The real thing is in test_nbgrader_e2e.py (a class of eighteen, graded with sharing, every score exact);
here the memo's rules, with a run function that counts its calls."""
import threading
from types import SimpleNamespace

from nbformat.v4 import new_code_cell

from paddlecourse.teach.grading.judge_runs import JudgeRuns
from paddlecourse.teach.grading.sandbox import Limits


def counting_run(stop_first=False):
    calls = []

    def run(cells, limits, use_sandbox, kernel, files=None):
        calls.append([c.source for c in cells])
        stopped = "the kernel died" if stop_first and len(calls) == 1 else ""
        return {0: [{"output_type": "stream", "name": "stdout", "text": "ok"}]}, stopped, \
            SimpleNamespace(trusted_failures=[], seconds=1.0)
    return run, calls


def cells(answer):
    return [new_code_cell("import paddlecourse"), new_code_cell(f"answer = {answer!r}")]


def test_the_same_answers_share_one_run_and_get_their_own_copy_of_its_outputs():
    run, calls = counting_run()
    runs = JudgeRuns()
    first = runs.run(run, cells(3), Limits(), True, "paddlecourse")
    again = runs.run(run, cells(3), Limits(), True, "paddlecourse")   # new cells, new random ids
    assert len(calls) == 1 and (runs.ran, runs.reused) == (1, 1)
    assert first[3] is False and again[3] is True and again[0] == first[0]
    again[0][0].append("changed")
    assert len(runs.run(run, cells(3), Limits(), True, "paddlecourse")[0][0]) == 1


def test_different_answers_limits_or_files_each_get_a_run():
    run, calls = counting_run()
    runs = JudgeRuns()
    runs.run(run, cells(3), Limits(), True, "paddlecourse")
    runs.run(run, cells(4), Limits(), True, "paddlecourse")
    runs.run(run, cells(3), Limits(cell_seconds=99), True, "paddlecourse")
    runs.run(run, cells(3), Limits(), True, "paddlecourse", files={"records.jsonl": "[]"})
    runs.run(run, cells(3), Limits(), False, "paddlecourse")
    assert len(calls) == 5 and runs.reused == 0


def test_a_run_that_stopped_is_not_handed_on():
    run, calls = counting_run(stop_first=True)
    runs = JudgeRuns()
    assert runs.run(run, cells(3), Limits(), True, "paddlecourse")[1] == "the kernel died"
    assert runs.run(run, cells(3), Limits(), True, "paddlecourse")[1] == ""
    assert len(calls) == 2 and runs.reused == 0
    assert runs.run(run, cells(3), Limits(), True, "paddlecourse")[3] is True


def test_a_run_with_a_failed_grading_step_is_not_handed_on():
    runs = JudgeRuns()
    calls = []

    def run(cells, limits, use_sandbox, kernel, files=None):
        calls.append(1)
        return {}, "", SimpleNamespace(trusted_failures=[(3, "rebinding", "timeout")], seconds=1.0)
    runs.run(run, cells(3), Limits(), True, "paddlecourse")
    runs.run(run, cells(3), Limits(), True, "paddlecourse")
    assert len(calls) == 2


def test_the_same_answers_at_once_wait_for_one_run():
    started, release = threading.Event(), threading.Event()
    calls = []

    def slow(cells, limits, use_sandbox, kernel, files=None):
        calls.append(1)
        started.set()
        release.wait(10)
        return {}, "", SimpleNamespace(trusted_failures=[], seconds=1.0)
    runs = JudgeRuns()
    results = []
    threads = [threading.Thread(target=lambda: results.append(runs.run(slow, cells(3), Limits(), True, "k")))
               for _ in range(3)]
    for thread in threads:
        thread.start()
    started.wait(10)
    release.set()
    for thread in threads:
        thread.join(10)
    assert len(calls) == 1 and sorted(r[3] for r in results) == [False, True, True]
