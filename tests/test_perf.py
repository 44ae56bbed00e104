"""The benchmark harness: its bookkeeping on cheap callables with a fake clock, plus one tiny real run."""
import pytest

from paddlecourse import perf


class FakeClock:
    """A clock that only moves when a contender 'works'; `drift` makes later work slower, as a busy machine does."""

    def __init__(self, drift=0.0):
        self.now = 0.0
        self.drift = drift
        self.log = []

    def __call__(self):
        return self.now

    def work(self, name, seconds):
        def run():
            self.log.append(name)
            self.now += seconds * (1.0 + self.drift * self.now)
        return run


def test_rotated_orders_put_every_contender_in_every_position():
    orders = perf.rotated_orders(["a", "b", "c"], 6)
    assert orders[:3] == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    for position in range(3):
        assert sorted(order[position] for order in orders[:3]) == ["a", "b", "c"]
    assert orders[3:] == orders[:3]


def test_round_means_medians_and_spread_on_a_fake_clock():
    clock = FakeClock()
    timings = perf.time_interleaved({"fast": clock.work("fast", 1.0), "slow": clock.work("slow", 4.0)},
                                    rounds=3, calls=10, warmup=2, clock=clock)
    assert timings.seconds["fast"] == pytest.approx([1.0] * 3)
    assert timings.seconds["slow"] == pytest.approx([4.0] * 3)
    assert timings.median("slow") == pytest.approx(4.0)
    assert timings.spread("fast") == pytest.approx(0.0)
    ratio, (low, high) = timings.speedup("fast", baseline="slow")
    assert ratio == pytest.approx(4.0) and low == pytest.approx(4.0) and high == pytest.approx(4.0)
    # 2 warm-up calls each, then 3 rounds x 10 calls each
    assert clock.log.count("fast") == 2 + 30 and clock.log.count("slow") == 2 + 30
    assert clock.log[:4] == ["fast", "fast", "slow", "slow"]


def test_interleaving_keeps_the_ratio_while_the_machine_drifts():
    """Both contenders slow down over time; per-round ratios stay near the true 2x, unlike back-to-back runs."""
    drift = 0.01
    clock = FakeClock(drift=drift)
    timings = perf.time_interleaved({"a": clock.work("a", 1.0), "b": clock.work("b", 2.0)},
                                    rounds=8, calls=5, warmup=0, clock=clock)
    ratio, (low, high) = timings.speedup("a", baseline="b")
    assert timings.median("a") > 1.5  # the machine really drifted
    assert ratio == pytest.approx(2.0, rel=0.15)
    # back to back (all of a, then all of b) the drift alone would skew the ratio far more
    sequential = FakeClock(drift=drift)
    a = perf.time_interleaved({"a": sequential.work("a", 1.0)}, rounds=8, calls=5, warmup=0, clock=sequential)
    b = perf.time_interleaved({"b": sequential.work("b", 2.0)}, rounds=8, calls=5, warmup=0, clock=sequential)
    skewed = b.median("b") / a.median("a")
    assert abs(skewed - 2.0) > 3 * abs(ratio - 2.0)


def test_spread_reports_a_noisy_round():
    clock = FakeClock()
    costs = iter([1.0] * 10 + [3.0] * 10 + [1.0] * 10)  # round 2 is slow
    timings = perf.time_interleaved({"x": lambda: clock.work("x", next(costs))()}, rounds=3, calls=10,
                                    warmup=0, clock=clock)
    assert timings.median("x") == pytest.approx(1.0)
    assert timings.low_high("x") == pytest.approx((1.0, 3.0))
    assert timings.spread("x") == pytest.approx(2.0)


@pytest.mark.parametrize("kwargs", [dict(rounds=0), dict(calls=0), dict(warmup=-1)])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ValueError):
        perf.time_interleaved({"x": lambda: None}, **kwargs)


def test_no_contenders_is_refused():
    with pytest.raises(ValueError):
        perf.time_interleaved({})


def _fake_comparison():
    rows = []
    for model in ("m1", "m2"):
        for batch in (1, 8):
            for mode, speed in (("eager", 1.0), ("predictor", 2.0)):
                rows.append(perf.Row(model, "inference", batch, mode, 1 / speed, 0.9 / speed, 1.1 / speed,
                                     speed, speed * 0.9, speed * 1.1, 0.0))
    return perf.Comparison(perf.QUICK, rows)


def test_comparison_lookup_and_table():
    comparison = _fake_comparison()
    assert comparison.models == ["m1", "m2"]
    assert comparison.modes("inference") == ["eager", "predictor"]
    assert comparison.batch_sizes() == [1, 8]
    assert comparison.speedup("m2", "inference", 8, "predictor") == 2.0
    table = comparison.table()
    assert len(table.splitlines()) == 2 + 8 + 1
    assert "2.00x" in table and "interleaved rounds" in table


def test_table_columns_fit_every_value_and_line_up():
    rows = [perf.Row("deep-narrow", "inference", 256, "predictor (no IR passes)", 1234.5678, 1000.25, 2500.75,
                     0.05, 0.01, 12.5, 0.0),
            perf.Row("m", "training", 1, "eager", 0.0123, 0.011, 0.013, 1.0, 1.0, 1.0, 0.0)]
    table = perf.Comparison(perf.QUICK, rows).table().splitlines()
    assert "1234.568 [1000.250-2500.750]" in table[2] and "0.05x [0.01-12.50]" in table[2]
    assert "0.012 [0.011-0.013]" in table[3]
    # right-aligned columns end at the same place on every line: the header's last column (the too-spread mark,
    # on the first row, comes after it)
    assert table[2].endswith("  " + perf.SPREAD_MARK) and not table[3].endswith(perf.SPREAD_MARK)
    assert len({len(line.removesuffix(perf.SPREAD_MARK).rstrip()) for line in table[:4]}) == 1, table
    assert table[0].index("ms per call") < table[0].index("speed-up")


def test_plot_draws_one_panel_per_model():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = perf.plot_speedups(_fake_comparison())
    assert len(fig.axes) == 2
    assert [a.get_title() for a in fig.axes] == ["m1 (inference)", "m2 (inference)"]
    plt.close(fig)


def test_unknown_modes_are_refused():
    layer = perf.wide_shallow_mlp(in_features=4, hidden=3, classes=2)
    with pytest.raises(ValueError, match="unknown modes"):
        perf.inference_calls(layer, modes=("eager", "turbo"))
    with pytest.raises(ValueError, match="unknown training modes"):
        perf.training_steps(layer, modes=("jit.load",))


def test_model_shapes():
    from paddlecourse.memory import count_parameters

    assert count_parameters(perf.wide_shallow_mlp()) == 203_530
    deep = perf.deep_narrow_mlp()
    assert count_parameters(deep) == 125_770
    assert sum(type(s).__name__ == "Linear" for s in deep.sublayers()) == 20


def test_one_tiny_real_run_of_every_mode(capfd):
    """All modes agree with eager, every cell is filled, and the predictor prints no pass log."""
    import paddle

    paddle.seed(0)
    tiny = perf.Settings(rounds=2, calls=2, warmup=1, batch_sizes=(1, 4))
    models = {"tiny": perf.wide_shallow_mlp(in_features=8, hidden=16, classes=3)}
    modes = perf.INFERENCE_MODES + perf.PREDICTOR_VARIANTS[1:]
    inference = perf.compare_inference(models, tiny, modes=modes)
    training = perf.compare_training(models, tiny, classes=3)
    both = inference + training
    assert both.tasks == ["inference", "training"]
    assert inference.modes() == list(modes)
    assert training.modes() == ["eager", "to_static"] and training.batch_sizes() == [4]
    assert len(inference.rows) == len(modes) * 2
    for row in both.rows:
        assert row.median_ms > 0 and row.low_ms <= row.median_ms <= row.high_ms
        assert row.speedup_low <= row.speedup <= row.speedup_high
        assert row.max_diff < 1e-4, row
    for row in both.select(mode="eager"):
        assert row.speedup == 1.0
    captured = capfd.readouterr()
    assert "Running PIR pass" not in captured.out + captured.err


def test_predictor_pass_log_is_read_and_names_the_passes():
    """Ledger row 48: the predictor's own log names constant folding, CSE, dead-code elimination and inplace."""
    passes = perf.predictor_pass_log(perf.wide_shallow_mlp(in_features=8, hidden=16, classes=3))
    for name in ("constant_folding_pass", "common_subexpression_elimination_pass", "dead_code_elimination_pass",
                 "inplace_pass", "matmul_add_act_fuse_pass", "fc_onednn_enable_pass"):
        assert name in passes, (name, passes)
    assert passes.index("constant_folding_pass") < passes.index("inplace_pass")


def test_plot_bars_carry_a_hatch_per_mode_besides_colour():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    comparison = _fake_comparison()
    for model in ("m1", "m2"):
        for batch in (1, 8):
            comparison.rows.append(perf.Row(model, "inference", batch, "jit.load", 1.0, 0.9, 1.1, 1.0, 0.9, 1.1, 0.0))
    fig = perf.plot_speedups(comparison, "inference")
    hatches = {patch.get_hatch() for patch in fig.axes[0].patches}
    assert len(hatches) == 2  # two non-eager modes on m1: two different hatches
    plt.close(fig)


def _speedup_row(mode, speedup, low, high):
    return perf.Row("wide-shallow", "inference", 256, mode, 1.0, 0.9, 1.1, speedup, low, high, 0.0)


def _eager_and(*rows):
    return perf.Comparison(perf.QUICK, [_speedup_row("eager", 1.0, 1.0, 1.0), *rows])


@pytest.mark.parametrize("low, high", [(1.0, 1.0), (2.48, 3.38), (0.99, 1.01), (0.69, 1.02), (0.40, 0.76), (1.0, 2.0)])
def test_a_narrow_range_is_not_too_spread(low, high):
    """Narrow enough, wherever it lies: clearly faster, clearly slower, or straddling 1 (no clear difference)."""
    assert not perf.too_spread(low, high)


@pytest.mark.parametrize("low, high", [(1.36, 3.26), (0.62, 1.31), (0.1, 3.0), (1.0, 2.01)])
def test_a_range_more_than_twice_as_high_as_low_is_too_spread(low, high):
    assert perf.too_spread(low, high)


def test_a_narrow_table_has_no_mark_and_no_note():
    table = _eager_and(_speedup_row("predictor", 3.01, 2.48, 3.38), _speedup_row("to_static", 0.94, 0.69, 1.02)).table()
    assert perf.SPREAD_MARK not in table and "too spread" not in table
    assert len(table.splitlines()) == 2 + 3 + 1


def test_a_too_spread_row_is_marked_and_the_table_says_why_and_what_to_do():
    """The user's busy-machine row: 2.02x [1.36-3.26] 'faster', where a quiet run gave 1.01x."""
    lines = _eager_and(_speedup_row("to_static", 2.02, 1.36, 3.26), _speedup_row("predictor", 3.01, 2.48, 3.38),
                       _speedup_row("jit.load", 0.91, 0.62, 1.31)).table().splitlines()
    rows = {line.split()[3]: line for line in lines[2:6]}
    assert rows["to_static"].endswith("2.02x [1.36-3.26]  " + perf.SPREAD_MARK)
    assert rows["jit.load"].endswith(perf.SPREAD_MARK)   # straddling 1 and too spread
    assert not rows["predictor"].endswith(perf.SPREAD_MARK) and not rows["eager"].endswith(perf.SPREAD_MARK)
    note = lines[-1]
    assert note == perf.spread_note() and lines[-2].startswith("(5 interleaved rounds")
    assert note.startswith(perf.SPREAD_MARK + " too spread to conclude from")
    assert "more than 2x apart" in note and "busy" in note and "quiet" in note and "more rounds" in note


def test_the_spread_note_speaks_chinese():
    from paddlecourse.language import speaking

    comparison = _eager_and(_speedup_row("to_static", 2.02, 1.36, 3.26))
    with speaking("zh"):
        note = comparison.table().splitlines()[-1]
    assert note.startswith(perf.SPREAD_MARK + " ") and "过于分散" in note and "2 倍" in note
    assert "too spread" not in note and "CPU" in note
    assert "too spread" in comparison.table().splitlines()[-1]   # and English again outside the block


def test_a_timings_speedup_range_is_judged_by_the_same_rule():
    """The fair-benchmark demo judges Timings.speedup's range, not a Row: the rule is the same function."""
    timings = perf.Timings(seconds={"base": [1.0, 1.0, 1.0], "fast": [0.5, 0.9, 0.2]})
    ratio, (low, high) = timings.speedup("fast", baseline="base")
    assert (low, high) == pytest.approx((1 / 0.9, 5.0)) and low > 1   # every round "faster" ...
    assert perf.too_spread(low, high)                                  # ... but too spread to say so
