"""A/B of the two conv2d algorithms (issue 15): im2col + GEMM against the frequency domain
(runtime/ops/fft_conv_kernels.py), for the CNN train step's two convs, each direction (forward, input
gradient, filter gradient), interleaved, CPU time and wall time per call (medians of ROUNDS rounds).

    PYTHONPATH=. python -m benchmarks.conv_algorithms [--threads N] [--step]

With --step, also the whole CNN train step (benchmarks/workloads.py, as a tf.function) by each algorithm.

CPU time (time.process_time, all threads) is the figure to trust on a loaded machine; wall time is
reported too. The thread count is the conv kernels' (`--threads` sets TINYTF_NUM_THREADS)."""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import time

import numpy as np

ROUNDS = 9
CALLS = 5
CASES = {  # name: (input NHWC, filter HWIO); SAME, stride 1, as in benchmarks/workloads.py's cnn_train_step
    "conv1 5x5x1->32 on 64x28x28": ((64, 28, 28, 1), (5, 5, 1, 32)),
    "conv2 5x5x32->64 on 64x14x14": ((64, 14, 14, 32), (5, 5, 32, 64)),
}


def _directions(x, w, g, geo):
    from runtime.ops import conv_kernels

    return {
        "forward": lambda: conv_kernels.conv2d(x, w, geo),
        "input grad": lambda: conv_kernels.conv2d_input_grad(g, w, x.shape, geo),
        "filter grad": lambda: conv_kernels.conv2d_filter_grad(x, g, w.shape, geo),
    }


def _one_round(fn, algo):
    os.environ["TINYTF_CONV_ALGO"] = algo
    fn()  # warm the thread's buffers
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(CALLS):
        fn()
    return (time.process_time() - c0) / CALLS * 1e3, (time.perf_counter() - w0) / CALLS * 1e3


def _time_step():
    import tinytf as tf
    from benchmarks import workloads

    steps = {}
    for algo in ("direct", "fft"):
        os.environ["TINYTF_CONV_ALGO"] = algo  # read at each call: each step function runs its algorithm
        w = workloads.cnn_train_step()
        steps[algo] = (tf.function(w.fn), w.args)
    times = {"direct": [], "fft": []}
    for _ in range(ROUNDS):
        for algo, (fn, step_args) in steps.items():
            times[algo].append(_one_round(functools.partial(fn, *step_args), "direct" if algo == "direct" else "auto"))
    (dc, dw), (fc, fw) = ([statistics.median(t[k] for t in times[a]) for k in (0, 1)] for a in times)
    print(f"{'cnn_train_step (tf.function)':32} {'auto vs direct':12} {dc:14.2f} {fc:11.2f} {fc / dc:6.2f} "
          f"{dw:12.2f} {fw:9.2f}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--step", action="store_true", help="also time the whole CNN train step")
    args = parser.parse_args(argv)
    if args.threads:
        os.environ["TINYTF_NUM_THREADS"] = str(args.threads)
    from runtime.ops import conv, conv_kernels, fft_conv_kernels

    print(f"load {os.getloadavg()[0]:.1f}, conv threads {conv_kernels.threads()}, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', '(unset)')}")
    print(f"{'case':32} {'direction':12} {'direct CPU ms':>14} {'fft CPU ms':>11} {'ratio':>6} "
          f"{'direct wall':>12} {'fft wall':>9}  auto picks")
    rng = np.random.default_rng(0)
    saved = os.environ.get("TINYTF_CONV_ALGO")
    try:
        for name, (x_shape, w_shape) in CASES.items():
            x = rng.standard_normal(x_shape).astype(np.float32)
            w = rng.standard_normal(w_shape).astype(np.float32)
            geo = conv.conv_geometry(x_shape[1:3], w_shape[:2], (1, 1), (1, 1), "SAME")
            g = rng.standard_normal((x_shape[0],) + geo.out_hw + (w_shape[3],)).astype(np.float32)
            os.environ["TINYTF_CONV_ALGO"] = "auto"
            picks = "fft" if fft_conv_kernels.choose(np.float32, x_shape, w_shape, geo) else "direct"
            for direction, fn in _directions(x, w, g, geo).items():
                times = {"direct": [], "fft": []}
                for _ in range(ROUNDS):  # interleaved: both see the same load
                    for algo in times:
                        times[algo].append(_one_round(fn, algo))
                (dc, dw), (fc, fw) = ([statistics.median(t[k] for t in times[a]) for k in (0, 1)] for a in times)
                print(f"{name:32} {direction:12} {dc:14.2f} {fc:11.2f} {fc / dc:6.2f} {dw:12.2f} {fw:9.2f}  {picks}")
        if args.step:
            _time_step()
    finally:
        if saved is None:
            os.environ.pop("TINYTF_CONV_ALGO", None)
        else:
            os.environ["TINYTF_CONV_ALGO"] = saved


if __name__ == "__main__":
    main()
