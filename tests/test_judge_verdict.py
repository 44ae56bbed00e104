"""The judge's verdict on one test cell: an error output fails it, and so does a cell whose kernel reply said
"error" with no error output (setup() shows a skipped Deeper check as a plain line outside grading; inside the
sandbox it never does, NBGRADER_EXECUTION being set, but the verdict does not rest on that alone)."""
from paddlecourse.teach.grading.judge import _verdict_outputs

QUIET = {"output_type": "display_data", "data": {"text/plain": "○ l05-ex2 is a Deeper exercise, left for a second "
                                                               "pass"}, "metadata": {"paddlecourse_skipped": "l05-ex2"}}


def test_a_cell_that_printed_and_raised_nothing_passes():
    kept, failed = _verdict_outputs([{"output_type": "stream", "name": "stdout", "text": "✓ a\n"}], "check(a)", "ok")
    assert not failed and kept[0]["text"] == "✓ a\n"


def test_an_error_output_fails_the_cell():
    error = {"output_type": "error", "ename": "CheckFailed", "evalue": "`a` has no answer yet", "traceback": []}
    kept, failed = _verdict_outputs([error], "check(a)", "error")
    assert failed and [o["output_type"] for o in kept] == ["error"]


def test_a_cell_whose_reply_was_error_fails_even_without_an_error_output():
    kept, failed = _verdict_outputs([QUIET], "check(a)", "error")
    assert failed
    assert [o["output_type"] for o in kept] == ["display_data", "error"]   # nbgrader scores it 0 from the error
    kept, failed = _verdict_outputs([QUIET], "check(a)", "")   # an older run without statuses: as before
    assert not failed
