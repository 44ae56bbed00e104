"""Offline data for the lessons: handwritten digits as a `paddle.io.Dataset`, no download.

Where the data comes from
-------------------------
The 8x8 digit images ship inside scikit-learn (``sklearn/datasets/data/digits.csv.gz``),
read here straight from that file, the same arrays `sklearn.datasets.load_digits` returns,
so nothing is fetched at run time. Importing sklearn itself would pull in SciPy and add
about 75 MB to the kernel for the rest of the lesson, so only the file is used.
They are the test part of the UCI "Optical Recognition of Handwritten Digits" data
set (E. Alpaydin and C. Kaynak, 1998; UCI Machine Learning Repository,
https://doi.org/10.24432/C50P49), licensed CC BY 4.0 by UCI; scikit-learn itself is
BSD-3-Clause. 1,797 images of the digits 0-9, each 8x8 pixels with values 0-16.

Online, the same code works with a bigger data set, e.g.
``paddle.vision.datasets.MNIST(mode="train", download=True)`` (28x28 images).
"""
import numpy as np
import paddle

from .language import _

IMAGE_SIDE = 8
NUM_FEATURES = IMAGE_SIDE * IMAGE_SIDE
NUM_CLASSES = 10
MAX_PIXEL = 16.0


def _digits_file():
    """The path of scikit-learn's digits.csv.gz, found without importing sklearn (and SciPy with it)."""
    import importlib.util
    import os

    spec = importlib.util.find_spec("sklearn")
    if spec is None:
        import sklearn  # noqa: F401 - not installed: the usual ModuleNotFoundError names it
    return os.path.join(list(spec.submodule_search_locations)[0], "datasets", "data", "digits.csv.gz")


def digit_arrays():
    """All 1,797 digits, in scikit-learn's order, as (images float32 [N, 64] scaled to 0..1, labels int64 [N])."""
    import gzip

    # What sklearn.datasets.load_digits does: the last column is the digit, the 64 before it the pixels.
    with gzip.open(_digits_file(), mode="rt", encoding="utf-8") as compressed:
        data = np.loadtxt(compressed, delimiter=",")
    images = (data[:, :-1] / MAX_PIXEL).astype("float32")
    labels = data[:, -1].astype("int64")
    return images, labels


class Digits(paddle.io.Dataset):
    """Handwritten digits: item ``i`` is (pixels float32 [64] in 0..1, label int64 scalar).

    ``Digits("train")`` and ``Digits("test")`` are a fixed split (the same
    every run: a seeded shuffle, then the last ``test_fraction`` is the test
    part). ``Digits("all")`` is every image.

    ``noise`` > 0 makes it a random augmentation: each time an item is read,
    Gaussian noise of that standard deviation, drawn from NumPy's global
    generator, is added to the pixels (then clipped to 0..1). Lesson 03 uses it
    to show how DataLoader worker processes are seeded; the class lives here,
    not in the notebook, so workers started with "spawn" (macOS, Windows) can
    import it.
    """

    def __init__(self, part="train", test_fraction=0.25, seed=0, noise=0.0):
        super().__init__()
        if part not in ("train", "test", "all"):
            raise ValueError(_("part must be 'train', 'test' or 'all', not {part}").format(part=repr(part)))
        if isinstance(noise, bool) or not isinstance(noise, (int, float)) or not 0 <= noise <= 1:
            raise ValueError(_("noise is the standard deviation of the pixel noise: a number from 0 to 1, "
                               "not {noise}").format(noise=repr(noise)))
        images, labels = digit_arrays()
        order = np.random.default_rng(seed).permutation(len(labels))
        n_test = int(round(len(labels) * test_fraction))
        chosen = {"train": order[: len(order) - n_test], "test": order[len(order) - n_test:], "all": np.arange(len(labels))}
        self.part = part
        self.noise = float(noise)
        self.images = images[chosen[part]]
        self.labels = labels[chosen[part]]

    def __getitem__(self, index):
        if not self.noise:
            return self.images[index], self.labels[index]
        noisy = self.images[index] + np.random.normal(0.0, self.noise, size=NUM_FEATURES)
        return np.clip(noisy, 0.0, 1.0).astype("float32"), self.labels[index]

    def __len__(self):
        return len(self.labels)

    def __repr__(self):
        text = _("Digits({part}): {count} images of {pixels} pixels, {classes} classes").format(
            part=repr(self.part), count=len(self), pixels=NUM_FEATURES, classes=NUM_CLASSES)
        if self.noise:
            # Translators: put after "Digits('train'): 1347 images of 64 pixels, 10 classes"
            text += _(", noise {noise} on every read").format(noise=f"{self.noise:g}")
        return text
