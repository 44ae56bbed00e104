"""A snapshot of a static Program's block: its ops and the values between them as plain records, each with
the words a picture or a listing shows for it."""
from dataclasses import dataclass, field

from ..language import N_, ngettext

# Translators: the kinds of op in a program's summary ("3 new: 2 backward, 1 optimizer")
KIND_TEXT = {"parameter": N_("parameter"), "data": N_("data"), "constant": N_("constant"),
             "control flow": N_("control flow"), "backward": N_("backward"), "optimizer": N_("optimizer"),
             "compute": N_("compute")}

# Attributes that say where an op was created (file paths) or how it is scheduled, not what it computes.
HIDDEN_ATTRS = {"op_callstack", "op_role", "op_namescope", "chunk_id", "op_dist_attr", "struct_name"}
MAX_DRAWN_OPS = 120  # a larger program is listed as text only: a picture of it would not help


@dataclass
class ValueInfo:
    """One value (a result of an op): its number in the listing, shape and dtype."""

    number: int
    shape: tuple
    dtype: str
    producer: int  # index of the op that made it
    users: list = field(default_factory=list)  # indexes of the ops that read it

    @property
    def name(self):
        return f"%{self.number}"

    @property
    def type_text(self):
        """Shape and dtype the way PIR prints them: ``-1x784xf32``."""
        dims = "x".join(str(d) for d in self.shape)
        return f"{dims}x{self.dtype}" if dims else self.dtype


@dataclass
class OpInfo:
    """One op: its name (``pd_op.matmul``), the values it reads and makes, its attributes."""

    index: int
    name: str
    inputs: list  # value numbers, or None for a value defined outside this block
    outputs: list  # value numbers
    attrs: dict
    blocks: list  # for control flow: the op names inside each of its blocks
    new: bool = False  # appended since the snapshot this one is compared with

    @property
    def kind(self):
        """parameter / data / constant / control flow / backward / optimizer / compute."""
        if self.name == "builtin.parameter":
            return "parameter"
        if self.name == "pd_op.data":
            return "data"
        if self.name in CONSTANT_OPS:
            return "constant"
        if self.blocks:
            return "control flow"
        if self.name.endswith("_grad"):
            return "backward"
        if self.name.rstrip("_") in OPTIMIZER_OPS:
            return "optimizer"
        return "compute"

    @property
    def label(self):
        """The op's name, plus the name that says which parameter or input it is."""
        extra = self.attrs.get("parameter_name") or (self.attrs.get("name") if self.name == "pd_op.data" else None)
        return f"{self.name} '{extra}'" if extra else self.name


CONSTANT_OPS = {"pd_op.full", "pd_op.full_like", "pd_op.full_int_array", "pd_op.assign_value_"}
OPTIMIZER_OPS = {"pd_op.sgd", "pd_op.adam", "pd_op.adamw", "pd_op.momentum", "pd_op.rmsprop", "pd_op.adagrad",
                 "pd_op.lamb", "pd_op.adamax", "pd_op.adadelta"}


def _short_dtype(dtype):
    """DataType.FLOAT32 -> f32, the way PIR prints tensor types."""
    text = str(dtype).split(".")[-1].split(":")[0].lower()
    table = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "int64": "i64",
             "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "ui8", "bool": "b"}
    return table.get(text, text)


def _blocks_text(blocks):
    return ngettext("[{count} block inside]", "[{count} blocks inside]", len(blocks)).format(count=len(blocks))


def _attr_text(value):
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], bool):
        value = value[0]  # PIR stores flags as one-element lists
    text = str(value)
    if "DataType." in text:
        text = _short_dtype(value)
    return text if len(text) <= 40 else text[:37] + "..."


NOT_GIVEN = "none"  # an optional input left empty (e.g. sgd_'s master_param)
OUTSIDE = "outer"  # a value defined outside this block


def _snapshot(block):
    """Read a PIR block into (ops, values) lists of plain objects, numbering values in order.

    An op's empty result slot (e.g. the gradient of a constant, which nobody
    needs) is None in its outputs and gets no value number.
    """
    numbers = {}  # (op id, result index) -> value number
    ops, values = [], []
    for index, op in enumerate(block.ops):
        inputs = []
        for source in op.operands_source():
            producer = source.get_defining_op() if source.initialized() else None
            if not source.initialized():
                inputs.append(NOT_GIVEN)
            elif producer is None:
                inputs.append(OUTSIDE)
            else:
                inputs.append(numbers.get((producer.id(), source.index()), OUTSIDE))
        outputs = []
        for position, result in enumerate(op.results()):
            if not result.initialized():
                outputs.append(None)
                continue
            number = len(values)
            numbers[(op.id(), position)] = number
            try:
                shape, dtype = tuple(int(d) for d in result.shape), _short_dtype(result.dtype)
            except Exception:  # a value that is not a dense tensor (rare in lesson programs)
                shape, dtype = (), "?"
            values.append(ValueInfo(number, shape, dtype, index))
            outputs.append(number)
        attrs = {k: _attr_text(v) for k, v in sorted(op.attrs().items()) if k not in HIDDEN_ATTRS}
        blocks = [[inner.name() for inner in sub.ops] for sub in op.blocks()] if op.num_regions() else []
        ops.append(OpInfo(index, op.name(), inputs, outputs, attrs, blocks))
        for number in inputs:
            if isinstance(number, int):
                values[number].users.append(index)
    op_ids = [op.id() for op in block.ops]
    return ops, values, op_ids
