"""Sealed answers: a check cell that holds a choice's digest instead of the choice itself.

A released student copy shows its check cells, so a check written as
``check_answer("mismatch_cause", mismatch_cause, "B")`` hands the answer to anyone who reads it.
With ``check_answer("mismatch_cause", mismatch_cause, sealed("l05-ex3", "6b1f..."))`` the cell holds
only a digest: the check still says right or wrong (and its hint still points the way), but the
answer is not in the notebook. Authors make the digest with ``seal(grade_id, answer)``. A whole number
sealed this way is checked with ``check_value(name, found, sealed(...))``: compared exactly, never shown.

This keeps honest readers honest; it is not what makes grading safe (a determined student can try
each option at the check). The grade comes from the hidden tests, judged outside the student's
kernel (paddlecourse.teach.grading).
"""
import hashlib
import numbers


def _canonical(answer):
    """The text a choice is digested as: case and spaces ignored, a set of choices in sorted order."""
    if isinstance(answer, str):
        return " ".join(answer.strip().lower().split())
    if isinstance(answer, (list, tuple, set, frozenset)):
        return "{" + ",".join(sorted(_canonical(a) for a in answer)) + "}"
    if isinstance(answer, bool):
        return str(answer)
    if isinstance(answer, numbers.Real):   # 294, 294.0 and numpy's 294 are one answer (check_value's sealed numbers)
        return repr(float(answer))
    return repr(answer)


def seal(grade_id, answer):
    """The digest of ``answer`` for the exercise ``grade_id`` (run this when writing a check cell)."""
    return hashlib.sha256(f"{grade_id}\x00{_canonical(answer)}".encode("utf-8")).hexdigest()


class Sealed:
    """An expected answer known only by its digest; equal to any answer with that digest."""

    def __init__(self, grade_id, digest):
        self.grade_id, self.digest = grade_id, digest

    def __eq__(self, other):
        try:
            return seal(self.grade_id, other) == self.digest
        except Exception:  # an answer that cannot be read is simply not this one
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = None

    def __repr__(self):
        return "(the sealed answer)"


def sealed(grade_id, digest):
    return Sealed(grade_id, digest)
