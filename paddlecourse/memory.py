"""Memory estimator: how many bytes a model's training state needs, and what Paddle really keeps.

The rule of thumb taught in lesson 07::

    training-state bytes ≈ parameters × bytes per value × optimizer multiplier

where the multiplier counts the copies of the parameters that training keeps:
the weights themselves, one gradient each, and the optimizer's own state
(none for plain SGD, one velocity for Momentum, two moments for Adam).
Activations - the tensors autograd keeps for backward - come on top, and grow
with the batch size; :func:`activation_bytes` counts them op by op on a real Layer
(a Linear keeps its input, a ReLU its output), and :func:`measured_activation_bytes`
reads Paddle's own allocator counter to check it.

Sizes are reported in both decimal megabytes (1 MB = 10**6 B, what the seed
articles quote) and binary mebibytes (1 MiB = 2**20 B, what `top` and most
memory tools show).
"""
import unicodedata
from dataclasses import dataclass

from .language import _

BYTES_PER_VALUE = {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2, "int8": 1}

# Copies of the parameters that training keeps: weights + gradients + optimizer state.
OPTIMIZER_MULTIPLIERS = {
    "none": 1,  # inference: weights only
    "sgd": 2,  # weights + gradients
    "momentum": 3,  # + one velocity per parameter
    "adam": 4,  # + first and second moments per parameter
    "adamw": 4,  # Adam with decoupled weight decay: same state as Adam
}


def _width(text):
    """Columns ``text`` takes in a <pre>: a Chinese character takes two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


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
        raise ValueError(_("no multiplier for optimizer {optimizer}; known: {known}").format(
            optimizer=repr(optimizer), known=known))
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
        # Translators: {count} is the number of parameters, e.g. 109,386; the rest is a formula
        lines = [_("{count} parameters × {bytes} B ({dtype}) × {multiplier} ({optimizer}) = {total}").format(
            count=f"{self.parameters:,}", bytes=self.bytes_per_value, dtype=self.dtype, multiplier=self.multiplier,
            optimizer=self.optimizer, total=format_bytes(self.total_bytes))]
        # Translators: the rows of the memory estimate, padded to one column
        rows = [(_("weights"), self.weight_bytes), (_("gradients"), self.gradient_bytes),
                (_("optimizer state"), self.optimizer_state_bytes)]
        width = max(15, *(_width(label) for label, _bytes in rows))
        lines += [f"  {label}{' ' * (width + 2 - _width(label))}{format_bytes(nbytes)}" for label, nbytes in rows]
        return "\n".join(lines)

    def _repr_pretty_(self, printer, cycle):
        printer.text(str(self))


def estimate_training_memory(model_or_count, dtype="float32", optimizer="adam"):
    """Estimate weights + gradients + optimizer state for a Layer or a parameter count.

    >>> estimate_training_memory(1.1e8, "float32", "adam").total_bytes
    1760000000
    """
    if dtype not in BYTES_PER_VALUE:
        raise ValueError(_("unknown dtype {dtype}; known: {known}").format(dtype=repr(dtype),
                                                                            known=", ".join(BYTES_PER_VALUE)))
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


@dataclass(frozen=True)
class SavedTensor:
    """One tensor autograd keeps for backward: who saved it, how big it is, and what it is to that layer."""

    layer: str  # the innermost sublayer that was running when the op saved it, e.g. "1 (ReLU)"
    role: str  # "its input", "its output", "the model's output" or "other"
    shape: tuple
    dtype: str
    nbytes: int


def _tensor_bytes(tensor):
    return int(tensor.numel()) * tensor.element_size()


def _layer_label(name, sub):
    return f"{name} ({type(sub).__name__})" if name else type(sub).__name__


def saved_for_backward(layer, example_input):
    """What autograd really keeps after one forward pass of ``layer`` on ``example_input``, op by op.

    Runs the forward pass with gradients on, inside ``paddle.autograd.saved_tensors_hooks``:
    every tensor an op saves for its backward passes through the hook once. A tensor
    saved by two ops (a ReLU's output is also the next Linear's input) is counted once;
    parameters, buffers and ``example_input`` itself (you hold it anyway) are left out.
    The model's output is added last: the loss needs it, even where no op saved it.
    Returns a list of :class:`SavedTensor`, in the order the forward pass made them.
    """
    import paddle

    running = []  # stack of sublayer labels: the innermost one is running now
    inputs_of, outputs_of = {}, {}  # label -> data pointers of its inputs / outputs
    saved = []  # (label, tensor) in saving order

    def pointers(values):
        values = values if isinstance(values, (list, tuple)) else [values]
        return {v.data_ptr() for v in values if isinstance(v, paddle.Tensor) and int(v.numel()) > 0}

    def before(label):
        def hook(_layer, inputs):
            running.append(label)
            inputs_of.setdefault(label, set()).update(pointers(inputs))
        return hook

    def after(label):
        def hook(_layer, _inputs, output):
            outputs_of.setdefault(label, set()).update(pointers(output))
            running.pop()
        return hook

    def pack(tensor):
        saved.append((running[-1] if running else "(top level)", tensor))
        return tensor

    handles = []
    for name, sub in layer.named_sublayers(include_self=True):
        label = _layer_label(name, sub)
        handles.append(sub.register_forward_pre_hook(before(label)))
        handles.append(sub.register_forward_post_hook(after(label)))
    try:
        with paddle.autograd.saved_tensors_hooks(pack, lambda tensor: tensor):
            output = layer(example_input)
    finally:
        for handle in handles:
            handle.remove()

    excluded = pointers(list(layer.parameters()) + list(layer.buffers())) | pointers(example_input)
    seen, kept = set(excluded), []

    def describe(label, tensor, role):
        return SavedTensor(label, role, tuple(int(d) for d in tensor.shape), str(tensor.dtype).replace("paddle.", ""),
                           _tensor_bytes(tensor))

    for label, tensor in saved:
        if not isinstance(tensor, paddle.Tensor) or int(tensor.numel()) == 0 or tensor.data_ptr() in seen:
            continue
        seen.add(tensor.data_ptr())
        ptr = tensor.data_ptr()
        role = ("its output" if ptr in outputs_of.get(label, ()) else
                "its input" if ptr in inputs_of.get(label, ()) else "other")
        kept.append(describe(label, tensor, role))
    for tensor in (output if isinstance(output, (list, tuple)) else [output]):
        if isinstance(tensor, paddle.Tensor) and int(tensor.numel()) > 0 and tensor.data_ptr() not in seen:
            seen.add(tensor.data_ptr())
            kept.append(describe("(output)", tensor, "the model's output"))
    return kept


def activation_bytes(layer, example_input):
    """Bytes a training forward pass of ``example_input`` keeps alive until backward (the activations).

    Counts what autograd really saves, op by op (:func:`saved_for_backward`): a Linear or
    Conv keeps its input, a ReLU its output, Dropout its mask, BatchNorm its input and batch
    statistics; a tensor two ops share is counted once, plus the model's output. The input
    batch itself is not included (you hold it anyway). On Paddle 3.3.1's CPU build this
    matches the allocator's own counter (:func:`measured_activation_bytes`) to within 1 %
    for the course's MLP and conv nets.
    """
    return sum(item.nbytes for item in saved_for_backward(layer, example_input))


def every_output_bytes(layer, example_input):
    """The old rule of thumb: the outputs of every leaf sublayer, added up.

    It is NOT what autograd keeps (a Linear's output that goes straight into a ReLU is
    freed; a Dropout's mask is kept though it is no layer's output). Lesson 07 shows it
    beside :func:`activation_bytes`; for a Linear-ReLU stack it counts about twice too much.
    """
    import paddle

    leaves = [sub for sub in layer.sublayers(include_self=True) if not sub.sublayers()]
    sizes = []

    def record(_layer, _inputs, output):
        outputs = output if isinstance(output, (list, tuple)) else [output]
        sizes.extend(_tensor_bytes(t) for t in outputs if isinstance(t, paddle.Tensor))

    handles = [leaf.register_forward_post_hook(record) for leaf in leaves]
    try:
        with paddle.no_grad():
            layer(example_input)
    finally:
        for handle in handles:
            handle.remove()
    return sum(sizes)


def allocated_bytes():
    """Bytes Paddle's CPU allocator holds right now (its own counter).

    Paddle 3.3.1's public ``paddle.device.max_memory_allocated`` refuses CPU builds, so this
    reads the counter Paddle keeps internally (``paddle.base.core.host_memory_stat_current_value``).
    """
    from paddle.base import core

    return int(core.host_memory_stat_current_value("Allocated", 0))


def measured_activation_bytes(layer, example_input):
    """What one training forward pass really adds to Paddle's CPU allocator, its output kept.

    The allocator's counter (:func:`allocated_bytes`) is read before and after ``layer(example_input)``
    with gradients on; the difference is what the autograd graph and the output hold until
    backward. This is the measurement :func:`activation_bytes` is checked against.
    """
    import gc

    gc.collect()
    before = allocated_bytes()
    output = layer(example_input)
    gc.collect()
    held = allocated_bytes() - before
    del output
    return held


def import_paddle_peak_mib(python=None):
    """Peak resident memory (MiB) of a fresh Python process that only runs ``import paddle``.

    Run in a subprocess so that nothing this notebook already loaded counts. What it
    gives depends on the machine and on what else the environment holds (Paddle imports
    some optional packages when they are installed), so it is yours to measure.
    """
    import os
    import subprocess
    import sys

    env = dict(os.environ, GLOG_minloglevel="2")
    done = subprocess.run([python or sys.executable, "-c", _PEAK_AFTER_IMPORT], capture_output=True, text=True,
                          env=env, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(_("`import paddle` failed in a fresh process: {error}").format(
            error=done.stderr.strip().splitlines()[-1]))
    return int(done.stdout.strip().splitlines()[-1]) / 2**20


# Linux: VmHWM in /proc/self/status is this process's own peak. (getrusage's ru_maxrss is not: a child
# started from a notebook inherits the kernel's peak across fork and exec, so it reported the kernel's size.)
# Elsewhere ru_maxrss is the fallback: kilobytes on Linux, bytes on macOS.
_PEAK_AFTER_IMPORT = """
import sys, paddle
try:
    with open("/proc/self/status") as status:
        kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    print(kb * 1024)
except (OSError, StopIteration):
    import resource
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(peak if sys.platform == "darwin" else peak * 1024)
"""
