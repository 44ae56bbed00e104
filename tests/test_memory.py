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


def conv_net(channels=16):
    import paddle.nn as nn

    return nn.Sequential(nn.Conv2D(3, channels, 3, padding=1), nn.BatchNorm2D(channels), nn.ReLU(),
                         nn.MaxPool2D(2), nn.Dropout(0.5), nn.Flatten(), nn.Linear(channels * 16 * 16, 10))


@pytest.mark.parametrize("name,make,shape,batches", [
    ("MLP 784-512-256-10", lambda: mlp(784, 512, 256, 10), [784], (64, 1024)),
    ("conv-BN-ReLU-pool-dropout-linear", conv_net, [3, 32, 32], (4, 32)),
])
def test_activation_bytes_matches_paddles_allocator_counter(name, make, shape, batches):
    """The estimate is checked against Paddle's own CPU allocator counter, at two batch sizes (within 10 %)."""
    import paddle

    paddle.seed(0)
    model = make()
    model.train()
    for batch in batches:
        x = paddle.randn([batch] + shape)
        counted = memory.activation_bytes(model, x)
        measured = memory.measured_activation_bytes(model, x)
        assert measured > 0, "the allocator counter did not move: it cannot check anything"
        assert abs(counted - measured) <= 0.10 * measured, (name, batch, counted, measured)


def test_autograd_keeps_what_each_backward_op_needs():
    """Linear keeps its input, ReLU its output; the pre-ReLU output is freed, so the old rule counts ~2x."""
    import paddle

    model = mlp(784, 512, 256, 10)
    batch = 1024
    kept = memory.saved_for_backward(model, paddle.zeros([batch, 784]))
    assert [(k.layer, k.role, k.shape) for k in kept] == [
        ("1 (ReLU)", "its output", (batch, 512)),
        ("3 (ReLU)", "its output", (batch, 256)),
        ("(output)", "the model's output", (batch, 10)),
    ]
    assert memory.activation_bytes(model, paddle.zeros([batch, 784])) == (512 + 256 + 10) * 4 * batch == 3_186_688
    assert memory.every_output_bytes(model, paddle.zeros([batch, 784])) == (512 + 512 + 256 + 256 + 10) * 4 * batch
    # hooks are removed afterwards: a plain forward adds nothing
    assert all(not sub._forward_post_hooks and not sub._forward_pre_hooks for sub in model.sublayers(include_self=True))


def test_a_conv_map_is_kept_once_not_twice():
    import paddle
    import paddle.nn as nn

    conv = nn.Sequential(nn.Conv2D(3, 64, kernel_size=3, padding=1), nn.ReLU())
    one_map = 64 * 224 * 224 * 4
    x = paddle.zeros([1, 3, 224, 224])
    assert memory.activation_bytes(conv, x) == one_map
    assert memory.every_output_bytes(conv, x) == 2 * one_map


def test_activations_grow_linearly_with_the_batch_and_parameters_do_not():
    import paddle

    model = mlp(784, 512, 256, 10)
    per_sample = memory.activation_bytes(model, paddle.zeros([1, 784]))
    assert memory.activation_bytes(model, paddle.zeros([64, 784])) == 64 * per_sample
    assert memory.count_parameters(model) == 535_818


def test_dropout_mask_and_batchnorm_statistics_are_counted():
    import paddle

    paddle.seed(0)
    kept = memory.saved_for_backward(conv_net(), paddle.randn([2, 3, 32, 32]))
    layers = {k.layer for k in kept}
    assert "1 (BatchNorm2D)" in layers and "2 (ReLU)" in layers and "4 (Dropout)" in layers
    assert any(k.layer == "4 (Dropout)" and k.dtype == "uint8" for k in kept)


def test_format_bytes():
    assert memory.format_bytes(2_143_272) == "2,143,272 B = 2.14 MB = 2.04 MiB"
    assert memory.format_bytes(1_760_000_000).endswith("1.76 GB = 1.64 GiB")


def test_import_paddle_floor_is_the_child_s_own_peak_not_the_parent_s():
    """A fresh process's peak after `import paddle`; a big parent (a notebook kernel) must not leak into it
    (getrusage's ru_maxrss did: on Linux a child inherits the parent's peak across fork and exec)."""
    import numpy as np

    ballast = np.ones(400 * 2**20 // 8)  # 400 MiB in this process, touched
    with open("/proc/self/status") as status:
        parent_mib = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024
    floor = memory.import_paddle_peak_mib()
    assert 50 < floor < parent_mib - 200, (floor, parent_mib)
    del ballast
