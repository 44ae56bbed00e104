"""Eager vs to_static vs jit.load vs the paddle.inference predictor, measured side by side in one run.

Not a test: it prints what it measured. Usage (from the repository root):

    python benchmarks/compare_modes.py                 # perf.PRECISE: a few minutes
    python benchmarks/compare_modes.py --quick         # perf.QUICK: what lesson 07 runs
    python benchmarks/compare_modes.py --json out.json # also keep every number
    python benchmarks/compare_modes.py --memory-only   # activations: counted op by op vs Paddle's counter

Prints, per model, task, batch size and mode: the median time per call with its
fastest-slowest round, and the speed-up over eager (median of per-round ratios)
with its range, plus the machine's load average before and after, since another
busy program widens every range.
"""
import argparse
import dataclasses
import json
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("GLOG_minloglevel", "2")


def load_average():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "n/a"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="use perf.QUICK instead of perf.PRECISE")
    parser.add_argument("--json", help="write every measured row to this file")
    parser.add_argument("--no-training", action="store_true", help="inference only")
    parser.add_argument("--memory-only", action="store_true",
                        help="only compare memory.activation_bytes with Paddle's allocator counter")
    args = parser.parse_args()

    import paddlecourse

    paddle = paddlecourse.setup()
    from paddlecourse import perf

    if args.memory_only:
        print_activation_check(paddle)
        return

    settings = perf.QUICK if args.quick else perf.PRECISE
    print(f"paddle {paddle.__version__}, python {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"FLAGS_paddle_num_threads={paddle.get_flags(['FLAGS_paddle_num_threads'])['FLAGS_paddle_num_threads']}")
    print(f"settings: {settings}")
    print(f"load average before: {load_average()}")
    started = time.perf_counter()
    models = {"wide-shallow": perf.wide_shallow_mlp(), "deep-narrow": perf.deep_narrow_mlp()}
    result = perf.compare_inference(models, settings)
    variants = perf.compare_inference({"wide-shallow": models["wide-shallow"]},
                                      dataclasses.replace(settings, batch_sizes=(256,)),
                                      modes=perf.PREDICTOR_VARIANTS)
    # Own label: these rows come from their own interleaved rounds (eager included), so they are compared
    # with each other, and the main sweep's "predictor" row keeps a unique key.
    result.rows += [dataclasses.replace(r, model="wide (passes)") for r in variants.rows]
    if not args.no_training:
        result = result + perf.compare_training(models, settings)
    print(result.table())
    print(f"load average after: {load_average()}; wall time {time.perf_counter() - started:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"settings": dataclasses.asdict(settings), "rows": [dataclasses.asdict(r) for r in result.rows]},
                      f, indent=1)


def print_activation_check(paddle):
    """Activations of the course models, counted op by op and read from Paddle's CPU allocator counter."""
    from paddlecourse import memory, perf

    paddle.seed(0)
    models = {"wide-shallow": perf.wide_shallow_mlp(), "deep-narrow": perf.deep_narrow_mlp()}
    print(f"{'model':<13} {'batch':>5} {'counted B':>12} {'allocator B':>12} {'every-output rule B':>20}")
    for name, model in models.items():
        model.train()
        for batch in (1, 64, 256):
            x = paddle.randn([batch, 784])
            counted = memory.activation_bytes(model, x)
            measured = memory.measured_activation_bytes(model, x)
            print(f"{name:<13} {batch:>5} {counted:>12,} {measured:>12,} {memory.every_output_bytes(model, x):>20,}")


if __name__ == "__main__":
    main()
