"""The course's two models, and the call each mode makes of a Layer (eager, to_static, jit.load, the predictor)."""
import copy
import os
import tempfile

from ..language import _

INFERENCE_MODES = ("eager", "to_static", "jit.load", "predictor")
PREDICTOR_VARIANTS = ("predictor", "predictor (no IR passes)", "predictor (no oneDNN)")
TRAINING_MODES = ("eager", "to_static")


def wide_shallow_mlp(in_features=784, hidden=256, classes=10):
    """784-256-10: two big Linear layers, few ops (the seed articles' MLP)."""
    import paddle.nn as nn

    return nn.Sequential(nn.Linear(in_features, hidden), nn.ReLU(), nn.Linear(hidden, classes))


def deep_narrow_mlp(in_features=784, width=64, linear_layers=20, classes=10):
    """784-64x19-10: 20 small Linear layers and 19 ReLUs, many small ops."""
    import paddle.nn as nn

    layers = [nn.Linear(in_features, width), nn.ReLU()]
    for _layer in range(linear_layers - 2):
        layers += [nn.Linear(width, width), nn.ReLU()]
    layers.append(nn.Linear(width, classes))
    return nn.Sequential(*layers)


def _in_features(layer):
    for parameter in layer.parameters():
        if len(parameter.shape) == 2:
            return int(parameter.shape[0])  # Paddle's Linear weight is [in, out]
    raise ValueError(_("could not find the input width: give in_features=..."))


def _static_copy(layer, in_features, train):
    """A to_static copy of ``layer`` with the same weights (to_static changes the layer it is given)."""
    import paddle
    from paddle.static import InputSpec

    twin = copy.deepcopy(layer)
    if train:
        twin.train()
    else:
        twin.eval()
    spec = [InputSpec([None, in_features], "float32", name="x")]
    return paddle.jit.to_static(twin, input_spec=spec, full_graph=True)


def make_predictor(prefix, threads=1, ir_optim=True, onednn=True):
    """A ``paddle.inference`` predictor for ``prefix.json`` + ``prefix.pdiparams``, with its log lines off."""
    import paddle.inference as inference

    config = inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    config.switch_ir_optim(ir_optim)
    config.set_cpu_math_library_num_threads(threads)
    if not onednn:
        # disable_onednn() is missing on 3.0.0; disable_mkldnn() works on 3.0.0, 3.2.2 and 3.3.1, the releases the course was run on
        config.disable_mkldnn()
    config.disable_glog_info()  # else every pass prints a "--- Running PIR pass" line
    return inference.create_predictor(config)


def _predictor_call(predictor):
    input_handle = predictor.get_input_handle(predictor.get_input_names()[0])
    output_handle = predictor.get_output_handle(predictor.get_output_names()[0])

    def call(x):
        input_handle.reshape(list(x.shape))
        input_handle.copy_from_cpu(x)
        predictor.run()
        return output_handle.copy_to_cpu()

    return call


def inference_calls(layer, modes=INFERENCE_MODES, in_features=None, folder=None):
    """numpy in -> numpy out callables, one per mode, all with ``layer``'s weights.

    Modes: "eager", "to_static", "jit.load", and the predictor variants in
    PREDICTOR_VARIANTS. Exported files go to ``folder`` (a fresh temporary
    folder when None; the caller deletes it).
    """
    import paddle

    unknown = set(modes) - set(INFERENCE_MODES) - set(PREDICTOR_VARIANTS)
    if unknown:
        raise ValueError(_("unknown modes {modes}; choose from {known}").format(
            modes=sorted(unknown), known=INFERENCE_MODES + PREDICTOR_VARIANTS[1:]))
    in_features = in_features or _in_features(layer)
    layer.eval()
    calls = {}

    def eager_call(model):
        def call(x):
            with paddle.no_grad():
                return model(paddle.to_tensor(x)).numpy()

        return call

    needs_export = any(m != "eager" for m in modes)
    static_layer = _static_copy(layer, in_features, train=False) if needs_export else None
    prefix = None
    if any(m == "jit.load" or m.startswith("predictor") for m in modes):
        folder = folder or tempfile.mkdtemp(prefix="paddlecourse-perf-")
        prefix = os.path.join(folder, "model")
        paddle.jit.save(static_layer, prefix)
    for mode in modes:
        if mode == "eager":
            calls[mode] = eager_call(layer)
        elif mode == "to_static":
            calls[mode] = eager_call(static_layer)
        elif mode == "jit.load":
            loaded = paddle.jit.load(prefix)
            loaded.eval()
            calls[mode] = eager_call(loaded)
        else:
            predictor = make_predictor(prefix, ir_optim=mode != "predictor (no IR passes)",
                                       onednn=mode != "predictor (no oneDNN)")
            calls[mode] = _predictor_call(predictor)
    return calls


def training_steps(layer, modes=TRAINING_MODES, in_features=None, learning_rate=1e-3):
    """One training step per mode (forward, cross-entropy, backward, Adam step, loss to Python).

    Each mode trains its own copy of ``layer``, starting from the same weights.
    Returns {mode: step(x, y) -> float loss}.
    """
    import paddle
    import paddle.nn.functional as F

    unknown = set(modes) - set(TRAINING_MODES)
    if unknown:
        raise ValueError(_("unknown training modes {modes}; choose from {known}").format(
            modes=sorted(unknown), known=TRAINING_MODES))
    in_features = in_features or _in_features(layer)
    steps = {}
    for mode in modes:
        if mode == "eager":
            model = copy.deepcopy(layer)
            model.train()
        else:
            model = _static_copy(layer, in_features, train=True)
        optimizer = paddle.optimizer.Adam(learning_rate=learning_rate, parameters=model.parameters())

        def step(x, y, model=model, optimizer=optimizer):
            loss = F.cross_entropy(model(paddle.to_tensor(x)), paddle.to_tensor(y)).mean()
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
            return float(loss)

        steps[mode] = step
    return steps
