"""Lesson 07's statements about the paddle.inference predictor."""
from ..language import N_
from .fact import Fact

ONEDNN_SWITCH = '''
import paddle.inference as inference
observed = [name for name in ("disable_mkldnn", "disable_onednn") if hasattr(inference.Config, name)]
'''

PASS_COUNT = '''
from paddlecourse import perf
observed = len(perf.predictor_pass_log(perf.wide_shallow_mlp()))
'''

FACTS = [
    Fact("07", N_("section 1c, the predictor's pass log"),
         N_("the predictor runs 42 IR passes on the wide-shallow model (43 on some CPUs)"), PASS_COUNT, 42,
         also_fine=(43,)),
    Fact("07", N_("section 3, where the predictor's speed comes from (Deeper)"),
         N_("a predictor's Config switches oneDNN off with disable_onednn() (older name: disable_mkldnn())"),
         ONEDNN_SWITCH, ["disable_mkldnn", "disable_onednn"]),
]
