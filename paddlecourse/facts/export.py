"""Lessons 06 and 08's statements about paddle.jit.save and the warnings a wrong export gives."""
from ..language import N_
from .fact import Fact

JIT_SAVE_FILES = '''
import os, tempfile
import paddle
folder = tempfile.mkdtemp()
paddle.jit.save(paddle.nn.Linear(3, 2), os.path.join(folder, "tiny"),
                input_spec=[paddle.static.InputSpec(shape=[None, 3], dtype="float32", name="x")])
observed = sorted(os.listdir(folder))
'''

DOES_NOT_EXIST = '''
import os, tempfile, warnings
import paddle
from paddle.static import InputSpec
layer = paddle.jit.to_static(paddle.nn.Linear(4, 2))       # SOT: the default to_static
layer(paddle.ones([5, 4]))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    paddle.jit.save(layer, os.path.join(tempfile.mkdtemp(), "model"), input_spec=[InputSpec([None, 4], "float32", "x")])
found = [str(w.message) for w in caught if "does not exists" in str(w.message)]
observed = found[0] if found else "no such warning"
'''

SOT_INPUT_SPEC = '''
import warnings
import paddle
from paddle.static import InputSpec
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    paddle.jit.to_static(paddle.nn.Linear(4, 2), input_spec=[InputSpec([None, 4], "float32", "x")])
found = [str(w.message).splitlines()[0] for w in caught if "input_spec" in str(w.message)]
observed = found[0] if found else "no such warning"
'''

FACTS = [
    Fact("06", N_("section 2, jit.save"), N_("paddle.jit.save writes a .json program and a .pdiparams file"),
         JIT_SAVE_FILES, ["tiny.json", "tiny.pdiparams"]),
    Fact("06", N_("section 3b, the default converter keeps the shape of the last call"),
         N_("jit.save of a called SOT function with another input name warns `The tensor `x` does not exists …`"),
         DOES_NOT_EXIST, "The tensor `x` does not exists. Please make sure the name of InputSpec or example Tensor in "
                         "input_spec is the same as the name of InputSpec in `to_static` decorated on the Layer.forward "
                         "method."),
    Fact("08", N_("section 3.3, an exported model that is silently wrong"),
         N_("the export of a called SOT function warns `The tensor `x` does not exists …` and nothing else"),
         DOES_NOT_EXIST, "The tensor `x` does not exists. Please make sure the name of InputSpec or example Tensor in "
                         "input_spec is the same as the name of InputSpec in `to_static` decorated on the Layer.forward "
                         "method."),
    Fact("06", N_("section 3b, input_spec without full_graph=True"),
         N_("to_static(..., input_spec=...) without full_graph=True warns that input_spec has no effect"),
         SOT_INPUT_SPEC, "full_graph=False don't support input_spec arguments. It will not produce any effect."),
]
