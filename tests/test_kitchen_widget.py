"""Kitchen (lesson 01's stepper): dynamic lines hold numbers at once, static ones only after a run."""
import os

os.environ.setdefault("GLOG_minloglevel", "2")

import numpy as np
import paddle

from paddlecourse.widgets.kitchen import NOT_YET, STATIC_LINES, Kitchen, KitchenStepper

EXPECTED = {"x": [[1, 2, 3], [-1, 0, 1]], "h": [[2, 2], [0, 0]], "y": [4, 0]}


def test_dynamic_values_appear_line_by_line():
    kitchen = Kitchen()
    assert kitchen.variables() == []
    kitchen.step()
    assert [row[0] for row in kitchen.variables()] == ["x"]
    assert kitchen.holds_numbers("x")
    kitchen.run_all_lines()
    assert kitchen.done and kitchen.step() is None
    for name, value in EXPECTED.items():
        np.testing.assert_allclose(kitchen.values[name], value)
    assert paddle.in_dynamic_mode()


def test_static_values_are_placeholders_until_run():
    kitchen = Kitchen(STATIC_LINES, "static")
    kitchen.run_all_lines()
    assert paddle.in_dynamic_mode()  # stepping never leaves the kernel in static mode
    rows = {row[0]: row for row in kitchen.variables()}
    assert rows["x"][1] == "Value" and rows["x"][2] == [-1, 3] and rows["x"][3] == "float32"
    assert rows["y"][2] == [-1]
    assert all(row[4] == NOT_YET for row in rows.values())
    assert kitchen.program_ops()[0] == "pd_op.data" and "pd_op.relu" in kitchen.program_ops()
    kitchen.run_program()
    assert kitchen.runs == 1 and kitchen.error is None
    for name, value in EXPECTED.items():
        np.testing.assert_allclose(kitchen.values[name], value)
    assert "no numbers yet" not in kitchen.text()


def test_static_run_with_part_of_the_lines_then_more():
    kitchen = Kitchen(STATIC_LINES, "static")
    kitchen.step()
    kitchen.step()
    kitchen.run_program()
    assert kitchen.holds_numbers("w")
    kitchen.step()
    assert not kitchen.holds_numbers("h") and kitchen.holds_numbers("w")


def test_run_program_before_any_line_says_so():
    kitchen = Kitchen(STATIC_LINES, "static")
    assert kitchen.run_program() == {}
    assert "step at least one line" in kitchen.error


def test_a_failing_line_is_reported_not_raised():
    kitchen = Kitchen(["x = paddle.to_tensor([1.0])", "y = x + undefined_name"])
    kitchen.run_all_lines()
    assert kitchen.position == 1 and "NameError" in kitchen.error
    assert "error:" in kitchen.text()


def test_reset_starts_over():
    kitchen = Kitchen(STATIC_LINES, "static")
    kitchen.run_all_lines()
    kitchen.run_program()
    kitchen.reset()
    assert kitchen.position == 0 and kitchen.variables() == [] and kitchen.runs == 0


def test_stepper_buttons():
    stepper = KitchenStepper()
    for _ in range(4):
        stepper.click("Step dynamic line")
        stepper.click("Step static line")
    assert stepper.buttons["Step dynamic line"].disabled
    assert 'data-name="y"' in stepper.static_view.value and NOT_YET in stepper.static_view.value
    stepper.click("Run the program")
    assert NOT_YET not in stepper.static_view.value and "[4., 0.]" in stepper.static_view.value
    stepper.click("Reset both")
    assert "no variables yet" in stepper.dynamic_view.value
    bundle = stepper._repr_mimebundle_()
    assert "text/plain" in bundle and "text/html" in bundle
