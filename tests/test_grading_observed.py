"""Answers that are not plain data, carried to the judge as what their tests need (grading/models.py,
grading/layer_classes.py): a model paddle.jit.load returned, the files an answer wrote, a Layer class.

In one process, with real Paddle: what the student's run would report goes through JSON, and the
judge's rebuilt object must behave, under lesson 06 ex4's own hidden test, as the student's class did.
"""
import base64
import json

import numpy as np
import paddle
import paddle.nn.functional as F
import pytest
from paddle.static import InputSpec

from paddlecourse.export import check_export
from paddlecourse.teach.grading import effects, layer_classes, models, reports

SPEC = [InputSpec([None, 784], "float32", "x")]
HOW = {"weights": "scorer", "input_shape": [4, 784], "input_seed": 4, "seed": 11, "calls": 2}


class Scorer(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.hidden = paddle.nn.Linear(784, 32)
        self.out = paddle.nn.Linear(32, 10)

    def forward(self, x):
        return self.out(F.dropout(F.relu(self.hidden(x)), p=0.2))


class Right(Scorer):
    def forward(self, x):
        return self.out(F.dropout(F.relu(self.hidden(x)), p=0.2, training=self.training))


class AlwaysDrops(Scorer):   # dropout in eval mode too: Paddle's export turns it off, the class does not
    def forward(self, x):
        return self.out(F.dropout(F.relu(self.hidden(x)), p=0.2, training=True))


class NeverDrops(Scorer):
    def forward(self, x):
        return self.out(F.relu(self.hidden(x)))


class Breaks(Scorer):
    def __init__(self):
        raise ValueError("no")


@pytest.fixture(scope="module")
def scorer():
    paddle.seed(2024)
    layer = Scorer()
    layer.eval()
    return layer


def through_json(value):
    return json.loads(json.dumps(value))


def lesson_06_ex4_hidden_test(FixedScorer, scorer):
    """Lesson 06 ex4's hidden test, as the judge runs it: (dropout acts in train, same layers, eval right)."""
    x4 = paddle.to_tensor(np.random.RandomState(4).randn(4, 784).astype("float32"))
    fixed = FixedScorer()
    fixed.set_state_dict(scorer.state_dict())
    fixed.train()
    paddle.seed(11)
    a, b = fixed(x4).numpy(), fixed(x4).numpy()
    fixed.eval()
    return (not np.array_equal(a, b), sorted(fixed.state_dict()) == sorted(scorer.state_dict()),
            bool(np.allclose(fixed(x4).numpy(), scorer.out(F.relu(scorer.hidden(x4))).numpy(), atol=1e-5)))


@pytest.mark.parametrize("cls, expected", [(Right, (True, True, True)), (AlwaysDrops, (True, True, False)),
                                           (NeverDrops, (False, True, True))], ids=lambda v: getattr(v, "__name__", ""))
def test_the_stand_in_fails_and_passes_the_hidden_test_as_the_class_does(cls, expected, scorer):
    assert lesson_06_ex4_hidden_test(cls, scorer) == expected   # the student's own class
    state = np.random.get_state()
    observed = through_json(layer_classes.observe(cls, {"scorer": scorer}, HOW, "FixedScorer"))
    assert np.random.get_state()[1].tolist() == state[1].tolist()   # the student's generators as they were
    stand_in = reports.rebuild(observed)
    assert stand_in.__name__ == "FixedScorer" and stand_in is not cls
    assert lesson_06_ex4_hidden_test(stand_in, scorer) == expected


def test_the_stand_in_exports_and_runs_the_students_program_on_other_inputs_and_weights(scorer):
    stand_in = reports.rebuild(through_json(layer_classes.observe(Right, {"scorer": scorer}, HOW, "FixedScorer")))
    fixed = stand_in()
    paddle.seed(5)
    other = Right()
    other.eval()
    fixed.set_state_dict(other.state_dict())
    fixed.eval()
    x = paddle.randn([3, 784])
    assert np.allclose(fixed(x).numpy(), other(x).numpy(), atol=1e-5)
    assert check_export(fixed, SPEC, batch_sizes=(1, 4, 8)).ok


def test_what_was_not_observed_raises_inside_the_test(scorer):
    stand_in = reports.rebuild(through_json(layer_classes.observe(Right, {"scorer": scorer}, HOW, "FixedScorer")))
    fixed = stand_in()
    fixed.set_state_dict(scorer.state_dict())
    fixed.train()
    x4 = paddle.to_tensor(np.random.RandomState(4).randn(4, 784).astype("float32"))
    fixed(x4), fixed(x4)
    with pytest.raises(effects.NotRecorded):
        fixed(x4)   # a third train-mode call
    with pytest.raises(effects.NotRecorded):
        stand_in()(paddle.randn([4, 784]))   # another input in train mode (a fresh instance is in train mode)
    with pytest.raises(effects.NotRecorded):
        stand_in(3)


def test_a_class_that_cannot_be_made_raises_when_the_judge_makes_it(scorer):
    stand_in = reports.rebuild(through_json(layer_classes.observe(Breaks, {"scorer": scorer}, HOW, "FixedScorer")))
    with pytest.raises(ValueError, match="raised ValueError in the sandboxed run"):
        stand_in()


def test_a_forged_observation_carries_no_text_of_its_own(scorer):
    observed = through_json(layer_classes.observe(Breaks, {"scorer": scorer}, HOW, "FixedScorer"))
    observed.update(name="<script>alert(1)</script>", raised="<img src=x onerror=alert(1)>")
    stand_in = reports.rebuild(observed)
    assert stand_in.__name__ == "scriptalert1script"
    with pytest.raises(RuntimeError) as raised:
        stand_in()
    assert "<" not in str(raised.value)


def test_a_loaded_model_travels_as_its_program_and_weights(tmp_path):
    paddle.seed(1)
    model = Right()
    model.eval()
    paddle.jit.save(model, str(tmp_path / "model"), input_spec=SPEC)
    loaded = paddle.jit.load(str(tmp_path / "model"))
    assert models.is_loaded_model(loaded) and not models.is_loaded_model(model)
    back = reports.rebuild(through_json(models.encode_loaded(loaded)))
    assert type(back).__name__ == "PirTranslatedLayer" and back is not loaded
    x = paddle.randn([2, 784])
    assert np.allclose(back(x).numpy(), model(x).numpy(), atol=1e-6)


def test_the_files_at_a_path_replace_the_solutions_and_no_pickle_is_ever_written(tmp_path):
    student, judge = tmp_path / "student", tmp_path / "judge"
    student.mkdir()
    judge.mkdir()
    (student / "model.json").write_text("{}")
    (student / "model.pdiparams.info").write_bytes(b"\x80\x04pickled")
    (student / "other.json").write_text("not at the path")
    carried = through_json(models.files_at(str(student / "model")))
    assert sorted(carried["written"]) == [".json"] and carried["named"] == [".pdiparams.info"]
    (judge / "model.json").write_text("the solution's")
    (judge / "model.pdiparams").write_text("the solution's")
    forged = {"written": {**carried["written"], ".pdparams": base64.b64encode(b"\x80\x04evil").decode()},
              "named": carried["named"]}
    models.restore_files(str(judge / "model"), forged)
    assert sorted(p.name for p in judge.iterdir()) == ["model.json", "model.pdiparams.info", "model.pdparams"]
    assert (judge / "model.json").read_text() == "{}"
    assert (judge / "model.pdiparams.info").read_bytes() == b"" and (judge / "model.pdparams").read_bytes() == b""
    with pytest.raises(ValueError):
        models.restore_files(str(judge / "model"), {"written": {"/../../escape": ""}})
    models.restore_files(str(judge / "model"), {"written": {}})
    assert list(judge.iterdir()) == []   # nothing reported: the solution's files are gone all the same
