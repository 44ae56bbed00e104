"""Answers as plain data: only exact types travel, and the judge rebuilds fresh objects of those types."""
import json
import os

import numpy as np
import paddle
import pytest

from paddlecourse.lesson_index import lesson_paths
from paddlecourse.teach.grading.answers import Unsupported, decode, encode, replay


def roundtrip(value):
    return decode(json.loads(json.dumps(encode(value))))


@pytest.mark.parametrize("value", [None, True, 3, -4, 2.5, float("inf"), "text", [1, "a"], (1, 2.0), {"b", "d"},
                                   frozenset({1}), {"k": [1, 2]}, 10 ** 30,
                                   __import__("collections").Counter("abca")])
def test_plain_values_come_back_equal_and_of_the_same_type(value):
    back = roundtrip(value)
    assert type(back) is type(value) and back == value


def test_arrays_scalars_and_tensors_keep_dtype_shape_and_gradient():
    array = np.arange(6, dtype="float32").reshape(2, 3)
    back = roundtrip(array)
    assert type(back) is np.ndarray and back.dtype == np.float32 and (back == array).all()
    scalar = roundtrip(np.float32(-4))
    assert type(scalar) is np.float32 and scalar == -4
    a = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
    (a * 3).sum().backward()
    t = roundtrip(a)
    assert type(t) is paddle.Tensor and not t.stop_gradient and t.shape == [1, 2]
    assert (t.grad.numpy() == 3).all() and (t.numpy() == a.numpy()).all()
    assert roundtrip(paddle.to_tensor([4.0])).grad is None


def test_lying_objects_never_leave_the_students_kernel():
    class EqualsEverything(float):
        def __eq__(self, other):
            return True

    class SetOfEverything(set):
        def __eq__(self, other):
            return True

    for liar in [EqualsEverything(1.0), SetOfEverything(), [EqualsEverything(1)], {"k": SetOfEverything()},
                 lambda: 1, np, object(), np.array([object()])]:
        with pytest.raises(Unsupported):
            encode(liar)


def test_forged_data_builds_nothing_but_plain_values():
    for forged in [{"t": "evil"}, {"t": "ndarray", "dtype": "|O", "shape": [1], "data": ""},
                   {"t": "int", "v": "__import__('os')"}]:
        with pytest.raises((ValueError, KeyError)):
            decode(forged)


def test_a_function_answer_is_replayed_only_for_the_recorded_arguments():
    recorded = {"train": [{"args": {"args": [encode(60)], "kwargs": {}}, "value": encode([1.0, 0.5])}]}
    assert replay(recorded, "train", (60,), {}) == [1.0, 0.5]
    with pytest.raises(AssertionError):
        replay(recorded, "train", (61,), {})


# ---------------------------------------------------------------- recorded effects (grading/effects.py)

from paddlecourse.teach.grading import effects, recording, replaying  # noqa: E402


def _records(tmp_path):
    lines = (tmp_path / effects.RECORDS).read_text().splitlines()
    (tmp_path / "handed.json").write_text(json.dumps([json.loads(line) for line in lines]))
    return str(tmp_path / "handed.json")


def _lesson():
    """What a lesson's trusted cells make, the same in both runs."""
    paddle.seed(3)
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 3), paddle.nn.Dropout(0.5), paddle.nn.Linear(3, 2))
    return model, paddle.to_tensor(np.ones((5, 4), dtype="float32"))


def test_a_training_function_is_replayed_by_its_effects_on_the_model_and_its_result(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def train(model, x, steps=3):
        optimizer = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
        losses = []
        for _ in range(steps):
            loss = model(x).mean()
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
            losses.append(float(loss))
        model.eval()
        np.random.rand()  # a call that moves a random generator the lesson reads later
        return losses

    answer_run = {"train": train}
    recording.record(answer_run, ["train"])
    model, x = _lesson()
    losses = answer_run["train"](model, x, steps=3)
    trained = {k: v.numpy().copy() for k, v in model.state_dict().items()}
    after_call = np.random.rand()

    def solution(model, x, steps=3):
        raise AssertionError("the judge never runs the answer's function for a plain result")

    judge_run = {"train": solution}
    replaying.bind(judge_run, ["train"], [], _records(tmp_path))
    np.random.seed(99)   # the judge's generator is elsewhere: the record puts it where the student's call left it
    fresh, x2 = _lesson()
    assert judge_run["train"](fresh, x2, steps=3) == losses
    assert all(np.array_equal(fresh.state_dict()[k].numpy(), trained[k]) for k in trained)
    assert not fresh.training and not any(s.training for s in fresh.sublayers())
    assert np.random.rand() == after_call
    with pytest.raises(effects.NotRecorded, match="not called this often"):
        judge_run["train"](fresh, x2, steps=3)


def test_a_call_with_other_arguments_or_a_forged_record_gets_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    answer_run = {"f": lambda model, n: n * 2}
    recording.record(answer_run, ["f"])
    model, _ = _lesson()
    answer_run["f"](model, 3)
    judge_run = {"f": None}
    replaying.bind(judge_run, ["f"], [], _records(tmp_path))
    other = paddle.nn.Linear(4, 4)
    with pytest.raises(effects.NotRecorded, match="other arguments"):
        judge_run["f"](other, 3)
    # a record claiming a file outside the path the call was given is refused, nothing is written
    forged = [{"name": "g", "call": 0, "args": effects._arguments((str(tmp_path / "out" / "model"),), {}),
               "value": encode(None), "training": {}, "layers": {},
               "files": {"0": {"written": {"../../escaped": "eA=="}, "removed": []}}, "globals": None}]
    (tmp_path / "out").mkdir()
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    judge_run = {"g": None}
    replaying.bind(judge_run, ["g"], [], str(tmp_path / "forged.json"))
    with pytest.raises(effects.NotRecorded, match="not under the path"):
        judge_run["g"](str(tmp_path / "out" / "model"))
    assert not (tmp_path.parent / "escaped").exists()


def test_files_a_call_writes_under_its_path_are_written_again_by_the_judge(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "model.json").write_text("stale")

    def export(prefix):
        with open(prefix + ".json", "w") as handle:
            handle.write("{}")
        with open(prefix + ".pdiparams", "wb") as handle:
            handle.write(b"\x00\x01")
        os.remove(prefix + ".json") if False else None

    answer_run = {"export": export}
    recording.record(answer_run, ["export"])
    answer_run["export"](str(tmp_path / "a" / "model"))
    judge_run = {"export": None}
    replaying.bind(judge_run, ["export"], [], _records(tmp_path))
    assert judge_run["export"](str(tmp_path / "b" / "model")) is None
    assert (tmp_path / "b" / "model.json").read_text() == "{}"
    assert (tmp_path / "b" / "model.pdiparams").read_bytes() == b"\x00\x01"


def test_a_raised_error_comes_back_as_its_type_without_its_message(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def stub(model):
        raise NotImplementedError()

    def leaky(model):
        raise ValueError("BEGIN HIDDEN TESTS: a message could carry what the run saw")

    answer_run = {"stub": stub, "leaky": leaky}
    recording.record(answer_run, ["stub", "leaky"])
    model, _ = _lesson()
    for name in ("stub", "leaky"):
        with pytest.raises((NotImplementedError, ValueError)):
            answer_run[name](model)
    judge_run = {"stub": None, "leaky": None}
    replaying.bind(judge_run, ["stub", "leaky"], [], _records(tmp_path))
    with pytest.raises(NotImplementedError) as stub_error:
        judge_run["stub"](model)
    assert str(stub_error.value) == ""   # run_answer tells the untouched stub by its empty message
    with pytest.raises(ValueError) as leaked:
        judge_run["leaky"](model)
    assert "HIDDEN" not in str(leaked.value)


def test_a_returned_layer_is_rebuilt_from_the_instructors_function_and_the_recorded_state(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def make():
        return paddle.nn.Sequential(paddle.nn.Linear(2, 3), paddle.nn.ReLU(), paddle.nn.Linear(3, 1))

    def student():
        paddle.seed(5)
        model = make()
        model.eval()
        return model, [1.0, 0.5]

    def wrong_shape():
        return paddle.nn.Linear(2, 1), [1.0]

    answer_run = {"train": student, "other": wrong_shape}
    recording.record(answer_run, ["train", "other"])
    model, losses = answer_run["train"]()
    answer_run["other"]()
    judge_run = {"train": lambda: (make(), [9.0]), "other": lambda: (make(), [9.0])}
    replaying.bind(judge_run, ["train", "other"], [], _records(tmp_path))
    rebuilt, back = judge_run["train"]()
    assert back == [1.0, 0.5] and not rebuilt.training
    x = paddle.ones([4, 2])
    assert np.array_equal(rebuilt(x).numpy(), model(x).numpy())
    assert judge_run["other"]()[0] is None   # another model than the exercise's: None, and the test says so


def test_a_dataset_class_is_replayed_by_its_items(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    images, labels = np.arange(12, dtype="float32").reshape(6, 2), np.arange(6, dtype="int64")

    class Pairs(paddle.io.Dataset):
        def __init__(self, images, labels):
            super().__init__()
            self.images, self.labels = images, labels

        def __getitem__(self, index):
            return self.images[index], self.labels[index - 1] if index == 5 else self.labels[index]

        def __len__(self):
            return len(self.labels)

    answer_run = {"Pairs": Pairs}
    recording.record(answer_run, ["Pairs"])
    answer_run["Pairs"](images, labels)
    judge_run = {"Pairs": None}
    replaying.bind(judge_run, [], ["Pairs"], _records(tmp_path))
    replayed = judge_run["Pairs"](images, labels)
    assert isinstance(replayed, paddle.io.Dataset) and len(replayed) == 6
    assert np.array_equal(replayed[2][0], images[2]) and int(replayed[5][1]) == 4
    batches = list(paddle.io.DataLoader(replayed, batch_size=3))
    assert len(batches) == 2
    with pytest.raises(effects.NotRecorded):
        judge_run["Pairs"](images, labels)   # constructed once when the student's code ran


def test_input_specs_come_back_as_input_specs():
    spec = paddle.static.InputSpec([None, 784], "float32", name="x")
    back = roundtrip([spec])[0]
    assert type(back) is paddle.static.InputSpec and list(back.shape) == [-1, 784]
    assert str(back.dtype) == str(spec.dtype) and back.name == "x"


def test_a_static_program_and_its_output_value_come_back_runnable(capsys):
    from paddlecourse.teach.grading.answers import MARKER
    from paddlecourse.teach.grading.reports import report

    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            a = paddle.static.data(name="a", shape=[None, 3], dtype="float32")
            z = paddle.mean(2 * a, axis=1)
        report({"main": main, "z": z, "n": 3}, ["main", "z", "n"], {})
        line = [x for x in capsys.readouterr().out.splitlines() if x.startswith(MARKER)][-1]
        answers = json.loads(line[len(MARKER):])["answers"]
        namespace = {}
        for name in sorted(answers, key=lambda n: answers[n]["value"]["t"] == "value"):  # programs first
            namespace[name] = decode(answers[name]["value"], namespace)
        program, value = namespace["main"], namespace["z"]
        assert type(program).__name__ == "Program" and program is not main and program.num_ops() == main.num_ops()
        assert sorted(op.attrs()["name"] for op in program.global_block().ops if op.name() == "pd_op.data") == ["a"]
        fetched, = paddle.static.Executor(paddle.CPUPlace()).run(
            program, feed={"a": np.ones((5, 3), dtype="float32")}, fetch_list=[value])
        assert fetched.shape == (5,) and np.allclose(fetched, 2.0)
    finally:
        paddle.disable_static()


def test_effects_that_cannot_be_recorded_fail_that_call_and_not_the_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def train(model):
        os.chdir(tmp_path / "elsewhere")   # a function may move the kernel's working folder
        model[0].weight.set_value(model[0].weight * 2)
        return 1.0

    (tmp_path / "elsewhere").mkdir()
    answer_run = {"train": train}
    recording.record(answer_run, ["train"])
    model, _ = _lesson()
    monkeypatch.setattr(effects, "MAX_ARRAY_ITEMS", 3)   # this model's weights are over it
    assert answer_run["train"](model) == 1.0
    os.chdir(tmp_path)
    judge_run = {"train": None}
    replaying.bind(judge_run, ["train"], [], _records(tmp_path))
    with pytest.raises(effects.NotRecorded, match="could not be recorded"):
        judge_run["train"](model)


def test_a_submission_that_is_a_link_or_the_source_notebook_is_refused(tmp_path):
    from paddlecourse.teach.grading.submission import REFUSED_MARK, refusal

    source = tmp_path / "source.ipynb"
    source.write_text("{}")
    folder = tmp_path / "submitted" / "ann" / "l08"
    folder.mkdir(parents=True)
    linked = folder / "nb.ipynb"
    linked.symlink_to(source)
    assert "symbolic link" in refusal(linked, {"cells": []})
    linked.unlink()
    linked.write_text("{}")
    pasted = {"cells": [{"source": "### BEGIN SOLUTION\nx = 1\n### END SOLUTION"}]}   # pasted from solutions/
    assert refusal(linked, pasted) == ""
    copied = {"cells": [{"source": "check(x)\n### BEGIN HIDDEN TESTS\nassert x == 1\n### END HIDDEN TESTS"}]}
    assert "hidden-test regions" in refusal(linked, copied)
    (folder / REFUSED_MARK).write_text("its submission in the exchange holds a symbolic link")
    assert "symbolic link" in refusal(linked, pasted)


def test_every_function_or_class_answer_is_judged_by_the_students_own_code():
    """Review finding A: a test that passed the function as an argument was judged with the instructor's own
    function. Every function or class answer of every lesson is now replayed (by arguments or by recorded
    effects) or, for a Layer class, observed in the student's run as its test needs it - none is left to the
    solution, and none is judged in a kernel where student code ran."""
    import nbformat

    from paddlecourse.teach.grading import cells, plans

    root = __import__("pathlib").Path(__file__).resolve().parent.parent
    seen = {}
    for path in lesson_paths(root / "solutions"):
        notebook = nbformat.read(path, as_version=4)
        plan = plans.plan_for(notebook)
        for cell in notebook.cells:
            if cells.is_answer(cell) and cell.cell_type == "code" and cells.defined_names(cell.source)[1]:
                grade_id = cells.grader(cell)["grade_id"]
                ways = [name for name, found in (("literal", plan.literal), ("effects", plan.effects),
                                                 ("observe", plan.observe)) if grade_id in found]
                assert len(ways) == 1, (grade_id, ways)
                seen[grade_id] = ways[0]
    assert seen == {"l01-ex3-answer": "effects", "l02-ex4-answer": "literal", "l03-ex1-answer": "effects",
                    "l03-ex2-answer": "effects", "l03-ex3-answer": "effects", "l06-ex4-answer": "observe",
                    "l07-ex3-answer": "literal", "l08-ex3-answer": "effects", "l08-ex5-answer": "effects",
                    "l08-ex7-answer": "effects", "l08-ex9-answer": "effects"}


def test_no_text_of_a_record_reaches_the_judges_messages(tmp_path, monkeypatch):
    """Records come from the student's kernel, which may have read a hidden test's source: a 'broken' or
    'unsupported' text in one is never copied into the error the judge's test shows (and the feedback)."""
    monkeypatch.chdir(tmp_path)
    secret = "assert abs(_reference - 42) < 1e-6  # HIDDEN"
    args = effects._arguments((3,), {})
    forged = [{"name": "f", "call": 0, "args": args, "broken": secret},
              {"name": "h", "call": 0, "args": args, "unsupported": secret, "value": None, "training": {},
               "layers": {}, "files": {}, "globals": None}]
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    judge_run = {"f": None, "h": None}
    replaying.bind(judge_run, ["f", "h"], [], str(tmp_path / "forged.json"))
    for name in ("f", "h"):
        with pytest.raises(effects.NotRecorded) as raised:
            judge_run[name](3)
        assert "HIDDEN" not in str(raised.value) and "_reference" not in str(raised.value), str(raised.value)
