"""check_export(): the five-minute export smoke test, as one call and one readable report.

Given a Layer and the InputSpec you mean to deploy with, it does what a careful
engineer does before shipping a model:

1. converts and saves it with ``paddle.jit.save`` into a temporary folder;
2. loads it back with ``paddle.jit.load`` (and into a ``paddle.inference`` predictor);
3. runs eager and exported side by side at several batch sizes, twice each, in
   eval mode, and compares the numbers;
4. reads the input shapes the saved model declares and compares them with the spec;
5. names each problem it finds in plain words, with the fix.

The layer is left as it was: its train/eval mode is restored and nothing is
written outside a ``tempfile.TemporaryDirectory`` that is removed afterwards.
Every problem it reports is reproduced by a model in tests/test_export.py.

One idea per module: ``check`` (check_export), ``steps`` (saving, loading, predicting, comparing), ``report``
(what it reports), ``input_spec`` (check_input_spec).
"""
from .check import check_export
from .input_spec import check_input_spec
from .report import ExportReport, Problem, Run
from .steps import default_inputs, error_summary, saved_input_shapes

__all__ = ["ExportReport", "Problem", "Run", "check_export", "check_input_spec", "default_inputs", "error_summary",
           "saved_input_shapes"]
