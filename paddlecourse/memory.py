"""Memory estimator: how many bytes a model's training state needs, and what Paddle really keeps.

The rule of thumb taught in lesson 07::

    training-state bytes ≈ parameters × bytes per value × optimizer multiplier

where the multiplier counts the copies of the parameters that training keeps:
the weights themselves, one gradient each, and the optimizer's own state
(none for plain SGD, one velocity for Momentum, two moments for Adam).
Activations - the layer outputs kept for backward - come on top, and grow
with the batch size; :func:`activation_bytes` measures them on a real Layer.

Sizes are reported in both decimal megabytes (1 MB = 10**6 B, what the seed
articles quote) and binary mebibytes (1 MiB = 2**20 B, what `top` and most
memory tools show).
"""
from dataclasses import dataclass

BYTES_PER_VALUE = {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2, "int8": 1}

# Copies of the parameters that training keeps: weights + gradients + optimizer state.
OPTIMIZER_MULTIPLIERS = {
    "none": 1,  # inference: weights only
    "sgd": 2,  # weights + gradients
    "momentum": 3,  # + one velocity per parameter
    "adam": 4,  # + first and second moments per parameter
    "adamw": 4,  # Adam with decoupled weight decay: same state as Adam
}


def _megabytes(nbytes):
    return nbytes / 1e6


def _mebibytes(nbytes):
    return nbytes / 2**20


def format_bytes(nbytes):
    """'2,143,272 B = 2.14 MB = 2.04 MiB' (or GB/GiB for large sizes)."""
    if nbytes >= 1e9:
        return f"{nbytes:,.0f} B = {nbytes / 1e9:.2f} GB = {nbytes / 2**30:.2f} GiB"
    return f"{nbytes:,.0f} B = {_megabytes(nbytes):.2f} MB = {_mebibytes(nbytes):.2f} MiB"


def count_parameters(layer, trainable_only=False):
    """The number of values in a Layer's parameters (what `summary` calls Total params)."""
    total = 0
    for parameter in layer.parameters():
        if trainable_only and parameter.stop_gradient:
            continue
        total += int(parameter.numel())
    return total


def parameter_bytes(layer):
    """Bytes held by a Layer's parameters, read from each parameter's own dtype."""
    return sum(int(p.numel()) * p.element_size() for p in layer.parameters())


def optimizer_multiplier(optimizer):
    """The multiplier for an optimizer name ('adam') or class or instance (paddle.optimizer.Adam)."""
    if isinstance(optimizer, str):
        key = optimizer
    else:
        key = (optimizer if isinstance(optimizer, type) else type(optimizer)).__name__
    key = key.lower()
    if key not in OPTIMIZER_MULTIPLIERS:
        known = ", ".join(sorted(OPTIMIZER_MULTIPLIERS))
        raise ValueError(f"no multiplier for optimizer {optimizer!r}; known: {known}")
    return OPTIMIZER_MULTIPLIERS[key]


@dataclass(frozen=True)
class MemoryEstimate:
    """The training-state estimate for one model: parameters × bytes × multiplier."""

    parameters: int
    dtype: str
    optimizer: str

    @property
    def bytes_per_value(self):
        return BYTES_PER_VALUE[self.dtype]

    @property
    def multiplier(self):
        return OPTIMIZER_MULTIPLIERS[self.optimizer]

    @property
    def weight_bytes(self):
        return self.parameters * self.bytes_per_value

    @property
    def gradient_bytes(self):
        return 0 if self.optimizer == "none" else self.weight_bytes

    @property
    def optimizer_state_bytes(self):
        return self.total_bytes - self.weight_bytes - self.gradient_bytes

    @property
    def total_bytes(self):
        return self.weight_bytes * self.multiplier

    def __str__(self):
        lines = [
            f"{self.parameters:,} parameters × {self.bytes_per_value} B ({self.dtype}) × {self.multiplier} "
            f"({self.optimizer}) = {format_bytes(self.total_bytes)}",
            f"  weights          {format_bytes(self.weight_bytes)}",
            f"  gradients        {format_bytes(self.gradient_bytes)}",
            f"  optimizer state  {format_bytes(self.optimizer_state_bytes)}",
        ]
        return "\n".join(lines)

    def _repr_pretty_(self, printer, cycle):
        printer.text(str(self))


def estimate_training_memory(model_or_count, dtype="float32", optimizer="adam"):
    """Estimate weights + gradients + optimizer state for a Layer or a parameter count.

    >>> estimate_training_memory(1.1e8, "float32", "adam").total_bytes
    1760000000
    """
    if dtype not in BYTES_PER_VALUE:
        raise ValueError(f"unknown dtype {dtype!r}; known: {', '.join(BYTES_PER_VALUE)}")
    if isinstance(model_or_count, (int, float)):
        count = int(round(model_or_count))
    else:
        count = count_parameters(model_or_count)
    name = optimizer if isinstance(optimizer, str) else type(optimizer).__name__
    optimizer_multiplier(name)  # raises a clear error for unknown optimizers
    return MemoryEstimate(parameters=count, dtype=dtype, optimizer=name.lower())


def measured_training_bytes(layer, optimizer, example_input):
    """What Paddle really holds after one training step: weights, gradients, optimizer state.

    Runs one forward/backward/step on ``example_input`` (this changes the
    weights), then adds up the bytes of every parameter, every gradient and every
    tensor in ``optimizer.state_dict()``. Returns a dict of the three parts and
    their total.
    """
    import paddle

    loss = layer(example_input).mean()
    loss.backward()
    gradient_bytes = sum(int(p.grad.numel()) * p.grad.element_size() for p in layer.parameters() if p.grad is not None)
    optimizer.step()
    state_bytes = sum(
        int(value.numel()) * value.element_size()
        for value in optimizer.state_dict().values()
        if isinstance(value, paddle.Tensor)
    )
    optimizer.clear_grad()
    weights = parameter_bytes(layer)
    return {
        "weights": weights,
        "gradients": gradient_bytes,
        "optimizer_state": state_bytes,
        "total": weights + gradient_bytes + state_bytes,
    }


def activation_bytes(layer, example_input):
    """Bytes of the outputs of every leaf sublayer for one forward pass of ``example_input``.

    These are the activations a training step keeps alive until backward. The
    count grows linearly with the batch size, while the parameter memory does not
    change at all. (Paddle may keep a little more or less: some ops save their
    inputs, some outputs are freed early; this is the usual first estimate.)
    """
    import paddle

    leaves = [sub for sub in layer.sublayers(include_self=True) if not sub.sublayers()]
    sizes = []

    def record(_layer, _inputs, output):
        outputs = output if isinstance(output, (list, tuple)) else [output]
        for tensor in outputs:
            if isinstance(tensor, paddle.Tensor):
                sizes.append(int(tensor.numel()) * tensor.element_size())

    handles = [leaf.register_forward_post_hook(record) for leaf in leaves]
    try:
        with paddle.no_grad():
            layer(example_input)
    finally:
        for handle in handles:
            handle.remove()
    return sum(sizes)
