"""paddlecourse.datasets.Digits: the offline digits, as a paddle.io.Dataset."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
from paddlecourse.datasets import NUM_FEATURES, Digits  # noqa: E402


def test_split_sizes_cover_every_image_once():
    train, test, everything = Digits("train"), Digits("test"), Digits("all")
    assert (len(train), len(test), len(everything)) == (1348, 449, 1797)
    rows = {row.tobytes() for row in np.concatenate([train.images, test.images])}
    assert len(train) + len(test) == len(everything)
    assert rows <= {row.tobytes() for row in everything.images}


def test_items_are_scaled_pixels_and_int_labels():
    image, label = Digits("train")[0]
    assert image.shape == (NUM_FEATURES,) and image.dtype == np.float32
    assert 0.0 <= image.min() and image.max() <= 1.0
    assert label.dtype == np.int64 and 0 <= int(label) <= 9


def test_split_is_the_same_every_time_and_depends_on_seed():
    a, b = Digits("test"), Digits("test")
    assert np.array_equal(a.images, b.images) and np.array_equal(a.labels, b.labels)
    other = Digits("test", seed=1)
    assert not np.array_equal(a.labels, other.labels)


def test_every_class_is_in_both_parts():
    assert set(Digits("train").labels.tolist()) == set(range(10))
    assert set(Digits("test").labels.tolist()) == set(range(10))


def test_works_with_a_dataloader():
    loader = paddle.io.DataLoader(Digits("test"), batch_size=100, shuffle=False)
    images, labels = next(iter(loader))
    assert images.shape == [100, 64] and labels.shape == [100]
    assert str(images.dtype) == "paddle.float32" and str(labels.dtype) == "paddle.int64"
    assert len(loader) == 5


def test_unknown_part_is_refused():
    with pytest.raises(ValueError, match="part must be"):
        Digits("validation")


def test_repr_says_what_it_is():
    assert repr(Digits("train")) == "Digits('train'): 1348 images of 64 pixels, 10 classes"
