"""Checks: the one path that tells a learner (and nbgrader) whether an answer is right.

Every check prints one ✓ line when the answer is right. When it is not, it
raises ``CheckFailed`` (an ``AssertionError``, so nbgrader scores the cell 0)
whose message says what was expected, what was found, and a hint. A check never
lets an exception from its own internals reach the learner: whatever it is
given - None, a string, a ragged list, NaN, a symbolic static value, an object
that raises - it answers with a plain sentence.

Answers are compared by value, not by type: 42, 42.0, np.float32(42),
np.array([42.]) and paddle.to_tensor([42.]) are all the same answer.

Every message is in the language in force (``paddlecourse.language``): the checks' own sentences
through ``_()``, and what a lesson's code hands in - a check's name or label, ``hint=``,
``because=``, a ``check_parts`` title, a ``CheckFailed`` it raises - through ``translate()``
before it is composed, so a Chinese lesson reads Chinese where its catalogue has the entry. A
learner's variable name is never in a catalogue, so it stays as typed.

One idea per module: ``failure`` (CheckFailed and the plain-sentence guard every check wears),
``reading`` (an answer as numbers), ``values`` (the checks of one value), ``calling`` (running a
learner's function), ``parts`` (exercises of several parts).
"""
from .calling import run_answer
from .failure import PLACEHOLDERS, CheckFailed, no_answer_yet
from .parts import Parts, check_parts
from .values import check_answer, check_dtype, check_grad, check_shape, check_true, check_value, last_failure

__all__ = ["CheckFailed", "PLACEHOLDERS", "Parts", "check_answer", "check_dtype", "check_grad", "check_parts",
           "check_shape", "check_true", "check_value", "last_failure", "no_answer_yet", "run_answer"]
