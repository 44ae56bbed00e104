"""The decision helper's state (no browser): answers in, recommendation and reasons out; the view's wiring."""
import itertools

import pytest

from paddlecourse.widgets.decision import BOTTLENECKS, DEPLOY_CHOICES, Decision, DecisionWidget


def test_default_is_still_changing_python_there_not_measured():
    rec = Decision().recommendation()
    assert rec.develop == "dynamic (eager)"
    assert rec.deploy == "measure first"
    assert "harness" in rec.first_step


@pytest.mark.parametrize("bottleneck", BOTTLENECKS)
@pytest.mark.parametrize("changing", [True, False])
def test_no_python_always_requires_an_export(bottleneck, changing):
    rec = Decision(model_changing=changing, python_at_deploy=False, bottleneck=bottleneck).recommendation()
    assert rec.deploy == "export required"
    assert any("no Python" in r for r in rec.reasons)


def test_still_changing_without_python_says_smoke_test_now():
    rec = Decision(model_changing=True, python_at_deploy=False).recommendation()
    assert "smoke test" in rec.first_step


@pytest.mark.parametrize("bottleneck,deploy", [("not measured", "measure first"), ("data loading", "eager"),
                                               ("many small ops", "predictor"), ("big ops", "predictor"),
                                               ("fast enough", "eager")])
def test_with_python_the_bottleneck_decides(bottleneck, deploy):
    assert Decision(python_at_deploy=True, bottleneck=bottleneck).recommendation().deploy == deploy


def test_every_combination_explains_each_answer():
    for changing, python, bottleneck in itertools.product([True, False], [True, False], BOTTLENECKS):
        rec = Decision(changing, python, bottleneck).recommendation()
        assert rec.deploy in DEPLOY_CHOICES
        assert rec.develop.startswith("dynamic")  # lesson 07: never "train static" by default
        assert len(rec.reasons) == 3 and all(r.strip() for r in rec.reasons)
        assert rec.first_step


def test_answer_changes_state_and_rejects_nonsense():
    decision = Decision()
    assert decision.answer(python_at_deploy=False).deploy == "export required"
    assert decision.python_at_deploy is False
    with pytest.raises(ValueError, match="unknown question"):
        decision.answer(gpu=True)
    with pytest.raises(ValueError, match="bottleneck"):
        decision.answer(bottleneck="the GPU")
    with pytest.raises(ValueError, match="True or False"):
        decision.answer(model_changing="yes")


def test_static_forms_show_answers_and_recommendation():
    decision = Decision(model_changing=False, python_at_deploy=True, bottleneck="big ops")
    text = decision.text()
    assert "2. Is there Python where it is deployed? yes" in text
    assert "deploy: predictor" in text
    assert 'class="pc-deploy">predictor<' in decision.html()


def test_widget_buttons_drive_the_state():
    widget = DecisionWidget()
    assert "pc-deploy\">measure first<" in widget.output.value
    widget.choose("no Python")
    assert widget.decision.python_at_deploy is False
    assert "export required" in widget.output.value
    widget.choose("Python there")
    widget.choose("data loading")
    assert widget.decision.recommendation().deploy == "eager"
    widget.toggles["bottleneck"].value = "big ops"  # what a click does
    assert "pc-deploy\">predictor<" in widget.output.value
    with pytest.raises(ValueError):
        widget.choose("turbo")


def test_widget_labels_are_distinct_and_bundle_has_text():
    labels = [label for labels in DecisionWidget.LABELS.values() for label in labels]
    assert len(labels) == len(set(labels))
    bundle = DecisionWidget(Decision(python_at_deploy=False))._repr_mimebundle_()
    assert "deploy: export required" in bundle["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_chosen_answers_say_so_in_text_not_shade_alone():
    widget = DecisionWidget()
    labels = widget.toggles["python_at_deploy"]._options_labels
    assert labels == ("✓ Python there", "no Python")
    widget.choose("no Python")
    assert widget.toggles["python_at_deploy"]._options_labels == ("Python there", "✓ no Python")
    assert widget.toggles["python_at_deploy"].value == "no Python"  # relabelling kept the choice
    assert widget.decision.recommendation().deploy == "export required"
    tooltips = widget.toggles["bottleneck"].tooltips
    assert tooltips[0] == "3. Where is the bottleneck? not measured"  # each button names its question
