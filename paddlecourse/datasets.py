"""Offline data for the lessons: handwritten digits as a `paddle.io.Dataset`, no download.

Where the data comes from
-------------------------
The 8x8 digit images ship inside scikit-learn (``sklearn/datasets/data/digits.csv.gz``),
loaded here with `sklearn.datasets.load_digits`, so nothing is fetched at run time.
They are the test part of the UCI "Optical Recognition of Handwritten Digits" data
set (E. Alpaydin and C. Kaynak, 1998; UCI Machine Learning Repository,
https://doi.org/10.24432/C50P49), licensed CC BY 4.0 by UCI; scikit-learn itself is
BSD-3-Clause. 1,797 images of the digits 0-9, each 8x8 pixels with values 0-16.

Online, the same code works with a bigger data set, e.g.
``paddle.vision.datasets.MNIST(mode="train", download=True)`` (28x28 images).
"""
import numpy as np
import paddle

IMAGE_SIDE = 8
NUM_FEATURES = IMAGE_SIDE * IMAGE_SIDE
NUM_CLASSES = 10
MAX_PIXEL = 16.0


def _load_arrays():
    """All 1,797 digits as (images float32 [N, 64] scaled to 0..1, labels int64 [N])."""
    from sklearn.datasets import load_digits

    bunch = load_digits()
    images = (bunch.data / MAX_PIXEL).astype("float32")
    labels = bunch.target.astype("int64")
    return images, labels


class Digits(paddle.io.Dataset):
    """Handwritten digits: item ``i`` is (pixels float32 [64] in 0..1, label int64 scalar).

    ``Digits("train")`` and ``Digits("test")`` are a fixed split (the same
    every run: a seeded shuffle, then the last ``test_fraction`` is the test
    part). ``Digits("all")`` is every image.
    """

    def __init__(self, part="train", test_fraction=0.25, seed=0):
        super().__init__()
        if part not in ("train", "test", "all"):
            raise ValueError(f"part must be 'train', 'test' or 'all', not {part!r}")
        images, labels = _load_arrays()
        order = np.random.default_rng(seed).permutation(len(labels))
        n_test = int(round(len(labels) * test_fraction))
        chosen = {"train": order[: len(order) - n_test], "test": order[len(order) - n_test:], "all": np.arange(len(labels))}
        self.part = part
        self.images = images[chosen[part]]
        self.labels = labels[chosen[part]]

    def __getitem__(self, index):
        return self.images[index], self.labels[index]

    def __len__(self):
        return len(self.labels)

    def __repr__(self):
        return f"Digits({self.part!r}): {len(self)} images of {NUM_FEATURES} pixels, {NUM_CLASSES} classes"
