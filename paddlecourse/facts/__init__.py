"""`paddlecourse verify --facts`: the course's own statements about Paddle, re-checked on the installed Paddle.

The lessons are checked on the pinned Paddle; a learner may have another 3.x, on which every lesson still runs.
Each lesson module here lists small facts: where the lesson states something about Paddle, what it states, and a
probe that looks at what the installed Paddle does. `run_facts()` runs every probe in a fresh Python process, so a probe that
crashes Paddle (on 3.0.0 `paddle.CUDAPlace(0)` ends the process) or hangs cannot stop the others; such a probe is
"needs a look", never "holds".
"""
from .catalogue import catalogue
from .fact import Fact
from .runner import FactResult, format_report, run_facts

__all__ = ["Fact", "FactResult", "catalogue", "format_report", "run_facts"]
