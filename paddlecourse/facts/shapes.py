"""Lesson 01's statements about shapes (every `print(t.shape)` of the course shows them)."""
from ..language import N_
from .fact import Fact

SHAPE_REPR = '''
import paddle
observed = repr(paddle.ones([5, 3]).shape)
'''

SHAPE_TUPLE = '''
import paddle
observed = paddle.ones([5, 3]).shape == (5, 3)
'''

FACTS = [
    Fact("01", N_("section 1, y_static's shape"), N_("a shape prints as paddle.Size([5, 3])"), SHAPE_REPR,
         "paddle.Size([5, 3])"),
    Fact("01", N_("section 1, y_static's shape"), N_("a shape equals the tuple of its sizes"), SHAPE_TUPLE, True),
]
