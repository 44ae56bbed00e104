"""`paddlecourse verify --facts` (issue 24): the lessons' statements about Paddle, re-checked on the installed Paddle."""
from pathlib import Path

import pytest

from paddlecourse.facts import Fact, catalogue, format_report, run_facts
from paddlecourse.facts.runner import DIFFERS, HOLDS, NEEDS_A_LOOK
from paddlecourse.verify import pinned_paddle_version
from paddlecourse.lesson_index import lesson_paths

ROOT = Path(__file__).resolve().parent.parent


def test_every_fact_holds_on_the_pinned_paddle():
    import paddle

    if paddle.__version__ != pinned_paddle_version():
        pytest.skip(f"the facts are stated for Paddle {pinned_paddle_version()}, this is {paddle.__version__}")
    results = run_facts(catalogue(), jobs=2)
    report = format_report(results, paddle.__version__)
    assert all(r.verdict == HOLDS for r in results), report
    assert report.splitlines()[-1].startswith(f"paddle {paddle.__version__}: {len(results)} hold, 0 differ, 0 need a look")


def test_a_probe_that_crashes_hangs_or_raises_needs_a_look_and_the_others_still_run():
    facts = [
        Fact("00", "here", "crashes like CUDAPlace(0) on 3.0.0", "import os\nos._exit(255)", "anything"),
        Fact("00", "here", "hangs", "import time\ntime.sleep(60)\nobserved = 1", 1, timeout=3),
        Fact("01", "here", "raises", "raise ValueError('boom')", 1),
        Fact("01", "here", "sets nothing", "x = 1", 1),
        Fact("02", "here", "holds", "observed = [1, 2]", [1, 2]),
        Fact("02", "here", "differs", "observed = 'seen'", "stated"),
        Fact("02", "here", "allowed", "observed = 43", 42, also_fine=(43,)),
    ]
    results = run_facts(facts, jobs=2)
    assert [r.verdict for r in results] == [NEEDS_A_LOOK] * 4 + [HOLDS, DIFFERS, HOLDS]
    assert "status 255" in results[0].problem
    assert "3 s" in results[1].problem      # stopped at its own budget (how long that took is not asserted)
    assert "ValueError: boom" in results[2].problem
    report = format_report(results, "3.0.0")
    assert "stated:   stated" in report and "observed: seen" in report
    assert report.splitlines()[-2] == "paddle 3.0.0: 2 hold, 1 differ, 4 need a look"


def test_the_catalogue_ties_each_statement_to_a_lesson_and_covers_what_differs_between_releases():
    facts = catalogue()
    lessons = {path.name[:2] for path in lesson_paths(ROOT / "solutions")}
    assert all(fact.lesson in lessons and fact.where and "\n" not in fact.statement for fact in facts)
    probes = "\n".join(fact.probe for fact in facts)
    for topic in ("shape)", "requires_grad=True", "'place' interface", "CUDAPlace(0)", "Programming Language :: Python",
                  "jit.save", "does not exists", "input_spec", '"lable"', "not found in program", "xs[:, :3]",
                  "disable_onednn", "float(w.grad)", "pd_op.if", "predictor_pass_log",
                  # numpy's, pip's and the interpreter's part (issue: any kernel, any Python)
                  "DeprecationWarning", "PIP_TIMEOUT", "gc.collect()"):
        assert topic in probes, topic
    assert [fact.lesson for fact in catalogue(["4"])] == ["04"] * 5
    for module in (ROOT / "paddlecourse" / "facts").glob("*.py"):
        assert len(module.read_text().splitlines()) <= 400, module


def test_the_command_line_prints_one_lesson_s_facts(capsys):
    from paddlecourse.cli import main

    status = main(["verify", "--facts", "--lesson", "01"])
    out = capsys.readouterr().out
    assert out.startswith("Lesson 01 — two ways to cook") and "a shape prints as paddle.Size([5, 3])" in out
    assert (status == 0) == ("0 differ, 0 need a look" in out)
