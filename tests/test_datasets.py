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


def test_noise_is_drawn_from_numpys_global_generator_on_every_read():
    noisy = Digits("test", noise=0.1)
    clean_image = Digits("test")[3][0]
    np.random.seed(5)
    first = noisy[3][0]
    second = noisy[3][0]
    np.random.seed(5)
    again = noisy[3][0]
    assert first.dtype == np.float32 and first.shape == (NUM_FEATURES,)
    assert 0.0 <= first.min() and first.max() <= 1.0
    assert not np.array_equal(first, clean_image) and not np.array_equal(first, second)
    assert np.array_equal(first, again)  # seeding NumPy repeats the augmentation
    assert noisy[3][1] == Digits("test")[3][1]  # labels are never touched
    assert repr(noisy) == "Digits('test'): 449 images of 64 pixels, 10 classes, noise 0.1 on every read"


def test_noise_workers_repeat_when_the_main_process_seeds_numpy():
    """Workers get their seeds from NumPy's generator in the main process (paddle/io/dataloader)."""
    def worker_batches():
        loader = paddle.io.DataLoader(Digits("test", noise=0.1), batch_size=8, shuffle=False, num_workers=2)
        return [images.numpy() for (images, _labels), _ in zip(loader, range(2))]

    np.random.seed(0)
    run_1 = worker_batches()
    np.random.seed(0)
    run_2 = worker_batches()
    run_3 = worker_batches()  # the main generator moved on: new worker seeds
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(run_1, run_2))
    assert not np.array_equal(run_1[0][0], run_3[0][0])


@pytest.mark.parametrize("noise", [-0.1, 2, "a lot", None, True])
def test_odd_noise_is_refused_with_a_sentence(noise):
    with pytest.raises(ValueError, match="noise is the standard deviation"):
        Digits("train", noise=noise)
