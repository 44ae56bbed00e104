"""Lesson 03: every likely wrong answer is rejected with a message that points at the fix.

One real course kernel runs solutions/03 top to bottom; each exercise's wrong answers are tried in
place of its answer cell (then the visible part of its check cell, as a learner runs it), and the
real solution is put back before the next exercise.
"""
from pathlib import Path

from wrong_answers import lesson_kernel, try_all

ROOT = Path(__file__).resolve().parent.parent


def epoch_function(body, name="sgd_epoch_fixed"):
    """A learner's epoch function: `body` is the loop's inside, one statement per line."""
    inner = "\n".join("        " + line for line in body)
    return (f"def {name}(model, loader, optimizer):\n    model.train()\n    losses = []\n"
            f"    for images, labels in loader:\n{inner}\n    return float(np.mean(losses))\n")


FORWARD = "loss = loss_fn(model(images), labels)"
LOG = "losses.append(loss.item())"

EX1_WRONG = {
    "the untouched stub": ("def sgd_epoch_fixed(model, loader, optimizer):\n    raise NotImplementedError()\n",
                           ["`sgd_epoch_fixed` still has its placeholder"]),
    "no clear_grad (the broken loop)": (epoch_function([FORWARD, "loss.backward()", "optimizer.step()", LOG]),
                                        ["clear_grad()", "Gradients add up"]),
    "clear_grad between backward and step": (
        epoch_function([FORWARD, "loss.backward()", "optimizer.clear_grad()", "optimizer.step()", LOG]),
        ["clear_grad()"]),
    "no step()": (epoch_function([FORWARD, "loss.backward()", "optimizer.clear_grad()", LOG]), ["step()"]),
    "the sum of the losses": (
        epoch_function([FORWARD, "loss.backward()", "optimizer.step()", "optimizer.clear_grad()", LOG])
        .replace("return float(np.mean(losses))", "return float(np.sum(losses))"), ["mean of the batch losses"]),
    "no return": (
        epoch_function([FORWARD, "loss.backward()", "optimizer.step()", "optimizer.clear_grad()", LOG])
        .replace("    return float(np.mean(losses))\n", ""), ["returned None"]),
    "the mean in a dict": (
        epoch_function([FORWARD, "loss.backward()", "optimizer.step()", "optimizer.clear_grad()", LOG])
        .replace("return float(np.mean(losses))", "return {'loss': float(np.mean(losses))}"),
        ["is a dict, but the answer is a single number", "not a dict"]),
}
EX1_RIGHT = {
    "clear_grad at the top of the loop": epoch_function(
        ["optimizer.clear_grad()", FORWARD, "loss.backward()", "optimizer.step()", LOG]),
    "the mean as a Paddle tensor": epoch_function(
        [FORWARD, "loss.backward()", "optimizer.step()", "optimizer.clear_grad()", "losses.append(float(loss))"])
    .replace("return float(np.mean(losses))", "return paddle.to_tensor(losses).mean()"),
}


def evaluate_function(before="", after="", result="correct / total", mode_switch="model.eval()"):
    return (f"def evaluate_fixed(model, loader):\n    was_training = model.training\n    {before or 'pass'}\n"
            f"    {mode_switch}\n    correct = total = 0\n    with paddle.no_grad():\n"
            "        for images, labels in loader:\n"
            "            correct += int((model(images).argmax(axis=1) == labels).sum())\n"
            "            total += labels.shape[0]\n"
            f"    {after or 'pass'}\n    return {result}\n")


RESTORE = "if was_training: model.train()"
EX2_WRONG = {
    "the untouched stub": ("def evaluate_fixed(model, loader):\n    raise NotImplementedError()\n",
                           ["`evaluate_fixed` still has its placeholder"]),
    "still in train mode (the broken function)": (evaluate_function(mode_switch="pass", after=RESTORE),
                                                  ["which method switches it off"]),
    "eval() without switching back": (evaluate_function(), ["training again afterwards", "Remember model.training"]),
    "always train() at the end": (evaluate_function(after="model.train()"), ["stays in eval mode"]),
    "a percentage": (evaluate_function(after=RESTORE, result="100 * correct / total"), ["not a percentage"]),
    "the number of correct answers": (evaluate_function(after=RESTORE, result="correct"), ["correct / total"]),
    "no return": (evaluate_function(after=RESTORE).replace("    return correct / total\n", ""), ["returned None"]),
    "the accuracy in a dict": (evaluate_function(after=RESTORE, result="{'accuracy': correct / total}"),
                               ["is a dict, but the answer is a single number", "not a dict"]),
}
EX2_RIGHT = {"the accuracy as a Paddle tensor": evaluate_function(after=RESTORE,
                                                                  result="paddle.to_tensor(correct / total)")}


def pairs_class(getitem):
    return ("class DigitPairsFixed(paddle.io.Dataset):\n    def __init__(self, images, labels):\n"
            "        super().__init__()\n        self.images, self.labels = images, labels\n\n"
            f"    def __getitem__(self, index):\n        {getitem}\n\n"
            "    def __len__(self):\n        return len(self.labels)\n")


EX3_WRONG = {
    "the untouched stub": (pairs_class("raise NotImplementedError()"), ["`__getitem__` still has its placeholder"]),
    "the broken index - 1 on the label": (pairs_class("return self.images[index], self.labels[index - 1]"),
                                          ["the labels of items 0-7", "Compare the index"]),
    "index + 1 on the label": (pairs_class("return self.images[index], self.labels[(index + 1) % len(self.labels)]"),
                               ["the labels of items 0-7", "Compare the index"]),
    "the shift moved to the image": (pairs_class("return self.images[index - 1], self.labels[index]"),
                                     ["the image of item 5", "the image first"]),
    # the last item reads past the end: inside a DataLoader this IndexError would hang the kernel
    "index + 1 on the label, past the end": (pairs_class("return self.images[index], self.labels[index + 1]"),
                                             ["fixed_pairs[1347] raised IndexError", "not index + 1"]),
    "only the image": (pairs_class("return self.images[index]"), ["is a pair (image, label)", "return image, label"]),
    "label and image swapped": (pairs_class("return self.labels[index], self.images[index]"),
                                ["the image of item 5", "the image first"]),
    "a dict": (pairs_class("return {'image': self.images[index], 'label': self.labels[index]}"),
               ["is a pair (image, label)", "it is one dict"]),
    "nothing returned": (pairs_class("self.images[index], self.labels[index]"), ["it is None", "return image, label"]),
}
EX3_RIGHT = {"Paddle tensors": pairs_class(
    "return paddle.to_tensor(self.images[index]), paddle.to_tensor(self.labels[index])")}


lesson = lesson_kernel("03_dynamic_training_loop.ipynb")


def test_ex1_the_loss_that_goes_back_up(lesson):
    try_all(lesson, "l03-ex1", EX1_WRONG, EX1_RIGHT)


def test_ex2_an_evaluation_that_cannot_make_up_its_mind(lesson):
    try_all(lesson, "l03-ex2", EX2_WRONG, EX2_RIGHT)


def test_ex3_the_model_that_learns_nothing(lesson):
    try_all(lesson, "l03-ex3", EX3_WRONG, EX3_RIGHT)
