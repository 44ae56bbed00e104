"""The memory estimator: its arithmetic, and that it matches what Paddle's optimizers really keep."""
import pytest

from paddlecourse import memory


def mlp(*widths):
    import paddle.nn as nn

    layers = []
    for a, b in zip(widths[:-1], widths[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers[:-1])


def test_784_512_256_10_example():
    model = mlp(784, 512, 256, 10)
    assert memory.count_parameters(model) == 535_818
    assert memory.parameter_bytes(model) == 2_143_272
    estimate = memory.estimate_training_memory(model, "float32", "adam")
    assert estimate.weight_bytes == 2_143_272
    assert estimate.total_bytes == 4 * 2_143_272 == 8_573_088
    assert "8.57 MB" in str(estimate) and "8.18 MiB" in str(estimate)


def test_110_million_parameters_with_adam():
    estimate = memory.estimate_training_memory(1.1e8, "float32", "adam")
    assert estimate.total_bytes == 1_760_000_000
    assert "1.76 GB" in str(estimate) and "1.64 GiB" in str(estimate)


@pytest.mark.parametrize("name,multiplier", [("none", 1), ("sgd", 2), ("momentum", 3), ("adam", 4), ("AdamW", 4)])
def test_multipliers_by_name(name, multiplier):
    assert memory.optimizer_multiplier(name) == multiplier


def test_multiplier_from_a_paddle_class_and_unknown_names():
    import paddle

    assert memory.optimizer_multiplier(paddle.optimizer.Momentum) == 3
    with pytest.raises(ValueError, match="known"):
        memory.optimizer_multiplier("lamb-ish")
    with pytest.raises(ValueError, match="dtype"):
        memory.estimate_training_memory(10, "float8", "sgd")


def test_parts_add_up():
    estimate = memory.estimate_training_memory(1000, "float16", "momentum")
    assert estimate.weight_bytes == 2000
    assert (estimate.weight_bytes, estimate.gradient_bytes, estimate.optimizer_state_bytes) == (2000, 2000, 2000)
    inference = memory.estimate_training_memory(1000, "float32", "none")
    assert (inference.gradient_bytes, inference.optimizer_state_bytes, inference.total_bytes) == (0, 0, 4000)


@pytest.mark.parametrize("optimizer,expected_state", [("SGD", 0), ("Momentum", 1), ("Adam", 2)])
def test_estimate_matches_paddles_real_optimizer_state(optimizer, expected_state):
    """Per parameter Paddle keeps 0 (SGD), 1 (Momentum) or 2 (Adam) extra copies; Adam adds two
    scalar beta-power accumulators per parameter tensor (a few bytes)."""
    import paddle

    paddle.seed(0)
    model = mlp(20, 8, 3)
    optimizer_class = getattr(paddle.optimizer, optimizer)
    opt = optimizer_class(learning_rate=0.01, parameters=model.parameters())
    measured = memory.measured_training_bytes(model, opt, paddle.randn([5, 20]))
    weights = memory.parameter_bytes(model)
    assert measured["weights"] == weights and measured["gradients"] == weights
    extra = measured["optimizer_state"] - expected_state * weights
    assert 0 <= extra <= 2 * 4 * len(model.parameters())
    estimate = memory.estimate_training_memory(model, "float32", optimizer)
    assert measured["total"] == pytest.approx(estimate.total_bytes, abs=64)


def test_activations_grow_with_the_batch_and_parameters_do_not():
    import paddle

    model = mlp(784, 512, 256, 10)
    per_sample = 512 + 512 + 256 + 256 + 10  # outputs of Linear, ReLU, Linear, ReLU, Linear
    assert memory.activation_bytes(model, paddle.zeros([1, 784])) == per_sample * 4
    assert memory.activation_bytes(model, paddle.zeros([64, 784])) == 64 * per_sample * 4
    assert memory.count_parameters(model) == 535_818
    # hooks are removed afterwards: a plain forward adds nothing
    assert all(not sub._forward_post_hooks for sub in model.sublayers())


def test_format_bytes():
    assert memory.format_bytes(2_143_272) == "2,143,272 B = 2.14 MB = 2.04 MiB"
    assert memory.format_bytes(1_760_000_000).endswith("1.76 GB = 1.64 GiB")
