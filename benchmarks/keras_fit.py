"""keras_fit: one epoch of model.fit for a 784-256-10 MLP on 20,000 synthetic examples, batch 64 (313 steps),
and for the issue's small CNN (Conv2D 16 3x3 relu, MaxPooling2D, Flatten, Dropout 0.2, Dense 10 on 28x28x1;
4,096 examples, batch 64), each against the same training written by hand in numpy (the floor); and the
per-step overhead of fit on a 1-unit Dense with batch 1 against a bare tf.function train step. The fit parts
run unchanged under TensorFlow:

    python -m tinytf.bench.keras_fit                                   # tinytf: graph fit, eager fit, numpy
    python -m tinytf.bench.keras_fit --compare [/path/to/tf-venv/bin/python]   # and TensorFlow's, one table
    /path/to/tf-venv/bin/python benchmarks/keras_fit.py tensorflow      # TensorFlow's fit alone

Prints seconds per epoch (best of `rounds`), the BLAS thread setting and the machine load."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

N, FEATURES, HIDDEN, CLASSES, BATCH = 20_000, 784, 256, 10, 64


def data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((N, FEATURES)).astype(np.float32)
    y = rng.integers(0, CLASSES, N).astype(np.int32)
    init = [rng.standard_normal((FEATURES, HIDDEN)).astype(np.float32) * 0.05, np.zeros(HIDDEN, np.float32),
            rng.standard_normal((HIDDEN, CLASSES)).astype(np.float32) * 0.05, np.zeros(CLASSES, np.float32)]
    return x, y, init


def fit_epoch_seconds(tf, run_eagerly=False, rounds=3) -> float:
    """Best time of one fit epoch (after a first epoch that traces)."""
    return best_seconds({"fit": mlp_fit_epoch(tf, run_eagerly)}, rounds)["fit"]


def mlp_fit_epoch(tf, run_eagerly=False):
    """A function running one fit epoch of the MLP, after a first epoch that traces."""
    keras = tf.keras
    x, y, init = data()
    model = keras.Sequential([keras.Input((FEATURES,)), keras.layers.Dense(HIDDEN, activation="relu"),
                              keras.layers.Dense(CLASSES)])
    return _fit_epoch(keras, model, x, y, init, run_eagerly)


def _fit_epoch(keras, model, x, y, init, run_eagerly):
    """Compile `model` from `init` with SGD and softmax cross-entropy, run a first epoch that traces, and return
    a function running one more."""
    model.set_weights(init)
    model.compile(optimizer=keras.optimizers.SGD(0.01),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), run_eagerly=run_eagerly)
    model.fit(x, y, batch_size=BATCH, epochs=1, shuffle=False, verbose=0)
    return lambda: model.fit(x, y, batch_size=BATCH, epochs=1, shuffle=False, verbose=0)


def best_seconds(runs: dict, rounds=3) -> dict:
    """{name: function} -> {name: best wall seconds of one call}; the functions take turns in every round, so a
    change of load on the shared machine falls on all of them."""
    best = {name: float("inf") for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def numpy_epoch_seconds(rounds=3) -> float:
    return best_seconds({"numpy": mlp_numpy_epoch()}, rounds)["numpy"]


def mlp_numpy_epoch():
    """The same epoch by hand: forward, softmax cross-entropy, backward and SGD per batch, in numpy (a function
    running one, after a first one)."""
    x, y, init = data()
    w1, b1, w2, b2 = [p.copy() for p in init]
    lr = np.float32(0.01)

    def epoch():
        nonlocal w1, b1, w2, b2  # updated in place (-=), as an optimizer would
        for start in range(0, N, BATCH):
            xb, yb = x[start:start + BATCH], y[start:start + BATCH]
            n = len(xb)
            pre = xb @ w1 + b1
            hidden = np.maximum(pre, 0)
            logits = hidden @ w2 + b2
            exp = np.exp(logits - logits.max(axis=1, keepdims=True))
            probs = exp / exp.sum(axis=1, keepdims=True)
            probs[np.arange(n), yb] -= 1
            probs /= n
            dhidden = probs @ w2.T
            dhidden[pre <= 0] = 0
            w2 -= lr * (hidden.T @ probs)
            b2 -= lr * probs.sum(axis=0)
            w1 -= lr * (xb.T @ dhidden)
            b1 -= lr * dhidden.sum(axis=0)

    epoch()
    return epoch


CNN_N, CNN_FILTERS = 4096, 16


def cnn_data():
    rng = np.random.default_rng(1)
    x = rng.random((CNN_N, 28, 28, 1), dtype=np.float32)
    y = rng.integers(0, CLASSES, CNN_N).astype(np.int32)
    init = [rng.standard_normal((3, 3, 1, CNN_FILTERS)).astype(np.float32) * 0.3, np.zeros(CNN_FILTERS, np.float32),
            rng.standard_normal((13 * 13 * CNN_FILTERS, CLASSES)).astype(np.float32) * 0.02,
            np.zeros(CLASSES, np.float32)]
    return x, y, init


def cnn_fit_epoch_seconds(tf, run_eagerly=False, rounds=3) -> float:
    return best_seconds({"fit": cnn_fit_epoch(tf, run_eagerly)}, rounds)["fit"]


def cnn_fit_epoch(tf, run_eagerly=False):
    """A function running one fit epoch of the CNN, after a first epoch that traces."""
    keras = tf.keras
    x, y, init = cnn_data()
    model = keras.Sequential([keras.Input((28, 28, 1)), keras.layers.Conv2D(CNN_FILTERS, 3, activation="relu"),
                              keras.layers.MaxPooling2D(), keras.layers.Flatten(), keras.layers.Dropout(0.2),
                              keras.layers.Dense(CLASSES)])
    return _fit_epoch(keras, model, x, y, init, run_eagerly)


def cnn_numpy_epoch_seconds(rounds=3) -> float:
    return best_seconds({"numpy": cnn_numpy_epoch()}, rounds)["numpy"]


def cnn_numpy_epoch():
    """The CNN's epoch by hand: im2col convolution, relu, 2x2 max pooling, dropout, dense, softmax
    cross-entropy, and their gradients, SGD per batch (a function running one, after a first one)."""
    x, y, init = cnn_data()
    kernel, bias, w, b = [p.copy() for p in init]
    lr, rate = np.float32(0.01), 0.2
    rng = np.random.default_rng(2)
    k2 = kernel.reshape(9, CNN_FILTERS)

    def epoch():
        nonlocal k2, bias, w, b  # updated in place (-=), as an optimizer would
        for start in range(0, CNN_N, BATCH):
            xb, yb = x[start:start + BATCH, :, :, 0], y[start:start + BATCH]
            n = len(xb)
            windows = np.lib.stride_tricks.sliding_window_view(xb, (3, 3), axis=(1, 2))  # n, 26, 26, 3, 3
            cols = windows.reshape(n * 26 * 26, 9)
            pre = (cols @ k2 + bias).reshape(n, 26, 26, CNN_FILTERS)
            act = np.maximum(pre, 0)
            blocks = act.reshape(n, 13, 2, 13, 2, CNN_FILTERS)
            pooled = blocks.max(axis=(2, 4))
            keep = (rng.random(pooled.shape) >= rate).astype(np.float32) / (1 - rate)
            flat = (pooled * keep).reshape(n, -1)
            logits = flat @ w + b
            exp = np.exp(logits - logits.max(axis=1, keepdims=True))
            probs = exp / exp.sum(axis=1, keepdims=True)
            probs[np.arange(n), yb] -= 1
            probs /= n
            dflat = (probs @ w.T).reshape(pooled.shape) * keep
            w -= lr * (flat.T @ probs)
            b -= lr * probs.sum(axis=0)
            winner = blocks == pooled[:, :, None, :, None, :]
            dact = (winner * dflat[:, :, None, :, None, :]).reshape(n, 26, 26, CNN_FILTERS)
            dpre = (dact * (pre > 0)).reshape(n * 26 * 26, CNN_FILTERS)
            k2 -= lr * (cols.T @ dpre)
            bias -= lr * dpre.sum(axis=0)

    epoch()
    return epoch


def step_overhead_seconds(tf, steps=2000, rounds=5) -> dict:
    """Per-step seconds of fit and of a bare tf.function train step, for a 1-unit Dense on batch 1: wall time and
    this process's CPU time (which a loaded machine disturbs less), each the best of `rounds` rounds in which
    the two alternate."""
    keras = tf.keras
    x = np.ones((steps, 1), np.float32)
    y = np.zeros((steps, 1), np.float32)
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
    model.fit(x[:4], y[:4], batch_size=1, epochs=1, shuffle=False, verbose=0)
    bare = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    optimizer = keras.optimizers.SGD(0.01)

    @tf.function
    def train_step(xb, yb):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(bare(xb, training=True) - yb))
        grads = tape.gradient(loss, bare.trainable_variables)
        optimizer.apply_gradients(zip(grads, bare.trainable_variables))
        return loss

    xs = [tf.constant(x[i:i + 1]) for i in range(steps)]
    ys = [tf.constant(y[i:i + 1]) for i in range(steps)]
    train_step(xs[0], ys[0])

    def fit():
        model.fit(x, y, batch_size=1, epochs=1, shuffle=False, verbose=0)

    def bare_steps():
        for xb, yb in zip(xs, ys):
            train_step(xb, yb)

    best = {"fit_step": float("inf"), "bare_step": float("inf"), "fit_step_cpu": float("inf"),
            "bare_step_cpu": float("inf")}
    for _ in range(rounds):
        for name, run in (("fit_step", fit), ("bare_step", bare_steps)):
            wall, cpu = time.perf_counter(), time.process_time()
            run()
            best[name] = min(best[name], (time.perf_counter() - wall) / steps)
            best[name + "_cpu"] = min(best[name + "_cpu"], (time.process_time() - cpu) / steps)
    return best


def measure(tf, library: str) -> dict:
    """Every figure of this benchmark for one library (tinytf adds its eager fit and the numpy floors)."""
    if library == "tinytf":  # each fit and its numpy floor take turns
        figures = best_seconds({"mlp_fit": mlp_fit_epoch(tf), "mlp_numpy": mlp_numpy_epoch()})
        figures.update(best_seconds({"cnn_fit": cnn_fit_epoch(tf), "cnn_numpy": cnn_numpy_epoch()}))
        figures["mlp_fit_eager"] = fit_epoch_seconds(tf, run_eagerly=True, rounds=1)
    else:
        figures = {"mlp_fit": fit_epoch_seconds(tf), "cnn_fit": cnn_fit_epoch_seconds(tf)}
    figures.update(step_overhead_seconds(tf))
    return figures


def _other_library(python: str) -> dict:
    """TensorFlow's figures, measured by `python` (a TF environment) running this file, right after ours."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"
    done = subprocess.run([python, os.path.abspath(__file__), "tensorflow", "--json"], capture_output=True,
                          text=True, cwd=tempfile.gettempdir(), env=env, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(ours: dict, theirs: dict | None) -> str:
    """The figures side by side, with the issue's ratios."""
    tf_mlp = f"{theirs['mlp_fit']:.3f} s" if theirs else "-"
    tf_cnn = f"{theirs['cnn_fit']:.3f} s" if theirs else "-"
    tf_step = f"{theirs['fit_step'] * 1e6:.0f} us" if theirs else "-"
    rows = ["| measurement | tinytf | numpy by hand | TF 2.21 fit | tinytf / numpy | tinytf / TF |",
            "|---|---|---|---|---|---|"]
    for name, key, floor in (("MLP fit, one epoch", "mlp_fit", "mlp_numpy"), ("CNN fit, one epoch", "cnn_fit",
                                                                            "cnn_numpy")):
        versus_tf = f"{ours[key] / theirs[key]:.2f}" if theirs else "-"
        rows.append(f"| {name} | {ours[key]:.3f} s | {ours[floor]:.3f} s | {tf_mlp if key == 'mlp_fit' else tf_cnn} "
                    f"| {ours[key] / ours[floor]:.2f} | {versus_tf} |")
    overhead = (ours["fit_step"] - ours["bare_step"]) * 1e6
    step_versus_tf = f"{ours['fit_step'] / theirs['fit_step']:.2f}" if theirs else "-"
    rows.append(f"| 1-unit Dense, batch 1: fit step | {ours['fit_step'] * 1e6:.0f} us (bare tf.function step "
                f"{ours['bare_step'] * 1e6:.0f} us, overhead {overhead:.0f} us) | - | {tf_step} | - | "
                f"{step_versus_tf} |")
    cpu_overhead = (ours["fit_step_cpu"] - ours["bare_step_cpu"]) * 1e6
    rows.append(f"| same, CPU time of this process | {ours['fit_step_cpu'] * 1e6:.0f} us (bare "
                f"{ours['bare_step_cpu'] * 1e6:.0f} us, overhead {cpu_overhead:.0f} us) | - | - | - | - |")
    rows.append(f"| MLP fit run_eagerly, one epoch | {ours['mlp_fit_eager']:.3f} s | - | - | "
                f"{ours['mlp_fit_eager'] / ours['mlp_numpy']:.2f} | - |")
    return "\n".join(rows)


def main(argv) -> None:
    """`keras_fit.py [tinytf|tensorflow] [--json] [--compare [PYTHON]]`: --compare runs TensorFlow's side with
    PYTHON (default /work/tfenv/bin/python or $TF_PYTHON) right after tinytf's, and prints one table."""
    args = [a for a in argv if not a.startswith("--")]
    library = args[0] if args and args[0] in ("tinytf", "tensorflow") else "tinytf"
    as_json = "--json" in argv
    compare = None
    if "--compare" in argv:
        after = argv[argv.index("--compare") + 1:]
        compare = after[0] if after and not after[0].startswith("--") else os.environ.get(
            "TF_PYTHON", "/work/tfenv/bin/python")
    tf = importlib.import_module(library)
    if not as_json:
        print(f"BLAS threads: OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')} "
              f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}; load average before: "
              f"{os.getloadavg()}")
    figures = measure(tf, library)
    if as_json:
        print(json.dumps(figures))
        return
    theirs = _other_library(compare) if compare else None
    print(f"load average after: {os.getloadavg()}")
    if library == "tinytf":
        print(table(figures, theirs))
    else:
        print(json.dumps(figures))


if __name__ == "__main__":
    main(sys.argv[1:])
