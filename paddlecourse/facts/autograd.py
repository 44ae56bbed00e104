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
            "float(2 elements)": outcome(lambda: float(paddle.to_tensor([1.0, 2.0])))}
'''

# Paddle's float() of a 1-element, 1-d tensor is NumPy's float() of its array: NumPy 2.4 ended the deprecation
FLOAT_OF_A_GRAD = '''
import warnings
import numpy as np
import paddle
from packaging.version import Version

w = paddle.to_tensor([3.0], stop_gradient=False)
(w * w).sum().backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        outcome = repr(float(w.grad))
    except TypeError as error:
        outcome = "TypeError: %s" % error
said = [str(c.message).split(". ")[0] for c in caught if issubclass(c.category, DeprecationWarning)]
observed = {"numpy": "2.4 or later" if Version(np.__version__) >= Version("2.4") else "before 2.4",
            "float(w.grad)": outcome, "DeprecationWarning": said[:1]}
'''

FACTS = [
    Fact("02", N_("section 2, float() of a gradient"),
         N_("float() takes a 0-d tensor; a tensor of 2 elements fails with an AssertionError"),
         FLOAT_RULES, {"float(loss)": "9.0",
                       "float(2 elements)": "AssertionError: only one element variable can be converted to float."}),
    Fact("02", N_("section 2, float() of a gradient"),
         N_("float() of a 1-element, 1-d grad: a TypeError from NumPy 2.4 on; NumPy 1.26-2.3 return the number "
            "with a DeprecationWarning"),
         FLOAT_OF_A_GRAD, {"numpy": "2.4 or later", "DeprecationWarning": [],
                           "float(w.grad)": "TypeError: only 0-dimensional arrays can be converted to Python scalars"},
         also_fine=({"numpy": "before 2.4", "float(w.grad)": "6.0",
                     "DeprecationWarning": ["Conversion of an array with ndim > 0 to a scalar is deprecated, and will "
                                            "error in future"]},)),
]
