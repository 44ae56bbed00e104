"""Answers as plain data: only exact types travel, and the judge rebuilds fresh objects of those types."""
import json

import numpy as np
import paddle
import pytest

from paddlecourse.grading.answers import Unsupported, decode, encode, replay


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
