"""Lesson 02's statements about turning tensors into Python numbers."""
from ..language import N_
from .fact import Fact

FLOAT_RULES = '''
import paddle

def outcome(make):
    try:
        return repr(make())
    except Exception as error:
        return "%s: %s" % (type(error).__name__, str(error).strip().splitlines()[-1] if str(error).strip() else "")

w = paddle.to_tensor([3.0], stop_gradient=False)
loss = (w * w).sum()
loss.backward()
observed = {"float(loss)": outcome(lambda: float(loss)),
            "float(w.grad)": outcome(lambda: float(w.grad)),
            "float(2 elements)": outcome(lambda: float(paddle.to_tensor([1.0, 2.0])))}
'''

FACTS = [
    Fact("02", N_("section 2, float() of a gradient"),
         N_("float() takes a 0-d tensor; a 1-element, 1-d grad is a TypeError (use .item()); 2 elements fail"),
         FLOAT_RULES, {"float(loss)": "9.0",
                       "float(w.grad)": "TypeError: only 0-dimensional arrays can be converted to Python scalars",
                       "float(2 elements)": "AssertionError: only one element variable can be converted to float."}),
]
