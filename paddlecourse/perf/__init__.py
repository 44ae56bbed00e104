"""Benchmark harness: is static faster *for this model, on this machine*? Measure, fairly.

Lesson 07 uses it. Fair here means:

- **warm-up**: every contender is called untimed first (first calls build
  caches, trace programs, pick kernels);
- **repeated rounds, medians and spread**: each round times many calls and keeps
  their mean; a result is the median of the round means, with the lowest and
  highest round beside it, so one noisy round cannot decide anything;
- **too spread to conclude from**: a ratio whose highest round is more than twice its lowest
  (:func:`too_spread`) is marked in the table, with a note on why and what to do;
- **interleaved**: every round times every contender, in an order that rotates
  from round to round, so a machine that slows down (another program, heat)
  slows all contenders alike, and ratios are taken *within* a round;
- **training and inference measured separately**, numpy in and numpy out, so
  every mode pays for getting data in and results out.

The core is :func:`time_interleaved` (any callables). On top of it,
:func:`compare_inference` and :func:`compare_training` time one Layer in
several modes at several batch sizes; :func:`plot_speedups` draws the ratios.
Models are exported into a temporary folder that is deleted afterwards.

One idea per module: ``timing`` (time_interleaved), ``contenders`` (the models and each mode's call),
``comparing`` (compare_inference, compare_training), ``picture`` (plot_speedups), ``passes`` (the predictor's).
"""
from .comparing import TASKS, Comparison, Row, compare_inference, compare_training
from .contenders import (INFERENCE_MODES, PREDICTOR_VARIANTS, TRAINING_MODES, deep_narrow_mlp, inference_calls,
                         make_predictor, training_steps, wide_shallow_mlp)
from .passes import ops_before_and_after_passes, predictor_pass_log, program_op_counts
from .picture import plot_speedups
from .timing import (PRECISE, QUICK, SPREAD_MARK, TOO_SPREAD, Settings, Timings, rotated_orders, spread_note,
                     time_interleaved, too_spread)

__all__ = ["Comparison", "INFERENCE_MODES", "PRECISE", "PREDICTOR_VARIANTS", "QUICK", "Row", "Settings", "TASKS",
           "TRAINING_MODES", "Timings", "compare_inference", "compare_training", "deep_narrow_mlp",
           "inference_calls", "make_predictor", "ops_before_and_after_passes", "plot_speedups",
           "predictor_pass_log", "program_op_counts", "rotated_orders", "SPREAD_MARK", "spread_note", "TOO_SPREAD",
           "time_interleaved", "too_spread", "training_steps", "wide_shallow_mlp"]
