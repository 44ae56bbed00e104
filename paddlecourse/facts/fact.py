"""What a fact is: one statement of a lesson about Paddle, and the probe that checks it."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Fact:
    """One statement a lesson makes about Paddle.

    ``probe`` is Python source run in a fresh process; it must set ``observed`` to something JSON can hold.
    The statement holds when ``observed`` equals ``stated`` (what the lesson states, measured on the pinned
    Paddle) or one of ``also_fine`` (other observations the lesson allows, e.g. a pass count that depends on the CPU).
    """

    lesson: str        # "00"
    where: str         # the section or cell that states it, as a learner finds it
    statement: str     # one line, English (translated with N_ in the lesson modules)
    probe: str
    stated: object
    also_fine: tuple = field(default=())
    timeout: float = 90.0

    def holds_for(self, observed):
        return observed == self.stated or observed in self.also_fine

