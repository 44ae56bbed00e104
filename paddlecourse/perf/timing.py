"""Timing any callables fairly: warm-up, interleaved rounds in a rotating order, medians with their spread."""
import time
from dataclasses import dataclass, field
from statistics import median

from ..language import _


@dataclass(frozen=True)
class Settings:
    """How long to measure. More rounds and calls: narrower spread, longer wait."""

    rounds: int = 5  # interleaved rounds; the median is taken over these
    calls: int = 20  # timed calls of each contender per round
    warmup: int = 5  # untimed calls of each contender before round 1
    batch_sizes: tuple = (1, 64, 256)
    seed: int = 0


QUICK = Settings()  # the lesson's default: a few seconds per model on one CPU
PRECISE = Settings(rounds=9, calls=100, warmup=30)  # minutes; for a quiet machine and a real decision


def rotated_orders(names, rounds):
    """The order contenders run in, per round: round r starts at contender r (mod n).

    Over n rounds every contender runs once in every position, so "who runs
    first in a round" does not favour anyone.
    """
    names = list(names)
    n = len(names)
    return [names[r % n:] + names[: r % n] for r in range(rounds)]


@dataclass
class Timings:
    """Seconds per call, one number per round (the mean of that round's calls), per contender."""

    seconds: dict = field(default_factory=dict)  # name -> [round mean, ...]
    orders: list = field(default_factory=list)  # the order of each round

    @property
    def names(self):
        return list(self.seconds)

    def median(self, name):
        """Median over rounds of the mean time per call, in seconds."""
        return median(self.seconds[name])

    def low_high(self, name):
        """Fastest and slowest round mean, in seconds."""
        values = self.seconds[name]
        return min(values), max(values)

    def spread(self, name):
        """(slowest - fastest round) / median: 0.1 means the rounds disagreed by 10 %."""
        low, high = self.low_high(name)
        return (high - low) / self.median(name)

    def round_ratios(self, name, baseline):
        """Per round: baseline time / this contender's time (above 1 = faster than baseline)."""
        return [b / t for b, t in zip(self.seconds[baseline], self.seconds[name])]

    def speedup(self, name, baseline):
        """Median over rounds of baseline time / this time, and its (low, high) over rounds."""
        ratios = self.round_ratios(name, baseline)
        return median(ratios), (min(ratios), max(ratios))


TOO_SPREAD = 2.0  # the widest round range of a ratio, as high / low, that still supports a conclusion


def too_spread(low, high, limit=TOO_SPREAD):
    """Is a ratio's round range [low-high] too wide to conclude from?

    The rule: a range whose highest round is more than ``limit`` (2) times its lowest supports no
    conclusion, neither "faster" nor "slower" nor "about the same", wherever it lies. Rounds that far apart
    were disturbed by something other than the modes: in lesson 07's stored run, 35 of its 36 ranges were
    within 1.9x, while on a busy machine ``to_static`` came out 2.02x [1.36-3.26] where a quiet run gave 1.01x.
    A narrow range that straddles 1 is not too spread: it says "no clear difference".
    """
    return high > limit * low


SPREAD_MARK = "*"  # beside a figure too_spread() rejects


def spread_note(limit=TOO_SPREAD):
    """The sentence printed under figures marked with SPREAD_MARK: what the mark means, why, what to do."""
    # Translators: under benchmark figures (a table, a ratio); {mark} is "*", {limit} a number such as 2
    return _("{mark} too spread to conclude from: the marked figure's lowest and highest rounds are more than "
             "{limit}x apart, which usually means the machine was busy (other processes took the CPU between "
             "rounds); run the cell again when the machine is quiet, or with more rounds."
             ).format(mark=SPREAD_MARK, limit=f"{limit:g}")


def time_interleaved(contenders, rounds=5, calls=20, warmup=5, clock=time.perf_counter):
    """Time several zero-argument callables fairly; return :class:`Timings`.

    ``contenders`` maps a name to a callable. Each is called ``warmup`` times
    untimed; then, for each of ``rounds`` rounds, in a rotating order, each is
    called ``calls`` times back to back and the mean time per call is kept.
    """
    if rounds < 1 or calls < 1 or warmup < 0:
        raise ValueError(_("rounds and calls must be at least 1, warmup at least 0"))
    if not contenders:
        raise ValueError(_("nothing to time: give at least one contender"))
    for run in contenders.values():
        for _call in range(warmup):
            run()
    timings = Timings(seconds={name: [] for name in contenders})
    for order in rotated_orders(contenders, rounds):
        timings.orders.append(order)
        for name in order:
            run = contenders[name]
            start = clock()
            for _call in range(calls):
                run()
            timings.seconds[name].append((clock() - start) / calls)
    return timings
