"""The workloads. Each builder returns a Workload: the tinytf function (run eagerly and as graphs), its
arguments, and the same computation written by hand in numpy (and in plain Python where that is the
natural baseline). Sizes follow the issues.

Every builder takes the library as `tf` (tinytf by default): the same program built with TensorFlow itself is
the workload's TF2 twin, which `--compare tensorflow` runs in the same process (see run.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Optional

import numpy as np

import tinytf


@dataclass
class Workload:
    name: str
    description: str
    fn: Callable  # the tinytf program
    args: tuple
    numpy_fn: Optional[Callable] = None  # the same computation, hand-written in numpy
    numpy_args: tuple = ()
    python_fn: Optional[Callable] = None  # a plain-Python baseline, where that is the natural one
    python_args: tuple = ()
    autograph: bool = True  # the tinytf program uses Python control flow that AutoGraph converts
    first_call: Optional[Callable] = None  # for trace_time: build and call a fresh function
    notes: dict = field(default_factory=dict)


def tiny_call(tf=tinytf) -> Workload:
    """One op on a scalar: measures pure call overhead."""
    def add_one(x):
        return x + 1.0

    a = np.float32(1.5)
    return Workload("tiny_call", "x + 1.0 on a float32 scalar", add_one, (tf.constant(1.5),),
                    numpy_fn=lambda s: s + 1.0, numpy_args=(a,))


def elementwise_chain(size: int = 100_000, tf=tinytf) -> Workload:
    """20 elementwise ops on `size` float32 values."""
    def chain(x):
        y = x * 1.5 + 0.5
        y = tf.tanh(y) * 2.0 - 1.0
        y = tf.sigmoid(y) + x
        y = y * y - 0.25
        y = tf.abs(y) + 1.0
        y = tf.sqrt(y) * 3.0
        y = tf.exp(-y) + x
        y = tf.maximum(y, 0.0) * 0.5
        y = y / 3.0 - x
        return tf.square(y) + 2.0

    def chain_np(x):
        y = x * np.float32(1.5) + np.float32(0.5)
        y = np.tanh(y) * np.float32(2.0) - np.float32(1.0)
        y = 1 / (1 + np.exp(-y)) + x  # sigmoid, as tinytf and the hand-written code compute it
        y = y * y - np.float32(0.25)
        y = np.abs(y) + np.float32(1.0)
        y = np.sqrt(y) * np.float32(3.0)
        y = np.exp(-y) + x
        y = np.maximum(y, np.float32(0.0)) * np.float32(0.5)
        y = y / np.float32(3.0) - x
        return np.square(y) + np.float32(2.0)

    data = np.random.default_rng(0).standard_normal(size).astype(np.float32)
    name = "elementwise_chain" if size == 100_000 else f"elementwise_chain_{_count_label(size)}"
    return Workload(name, f"20 elementwise ops on {size:,} float32", chain, (tf.constant(data),),
                    numpy_fn=chain_np, numpy_args=(data,))


def _count_label(size: int) -> str:
    return f"{size // 1_000_000}m" if size % 1_000_000 == 0 else f"{size // 1000}k"


def collatz(n: int = 27, tf=tinytf) -> Workload:
    """A scalar while loop with a branch: 111 steps of Collatz from 27, written as plain Python that
    AutoGraph turns into a while_loop node holding a cond node."""
    def steps(n):
        count = 0
        while n > 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            count += 1
        return count

    return Workload("collatz", f"collatz({n}): Python while + if (AutoGraph)", steps, (tf.constant(n),),
                    python_fn=steps, python_args=(n,))


def conv(batch: int = 32, tf=tinytf) -> Workload:
    """A 3x3x3x32 SAME conv2d + relu + 2x2 max pool on a 32x32x32x3 batch."""
    rng = np.random.default_rng(0)
    images = rng.standard_normal((batch, 32, 32, 3)).astype(np.float32)
    filters = rng.standard_normal((3, 3, 3, 32)).astype(np.float32) * 0.1

    def conv_tf(x, w):
        y = tf.nn.conv2d(x, w, strides=1, padding="SAME")
        y = tf.nn.relu(y)
        return tf.nn.max_pool2d(y, ksize=2, strides=2, padding="VALID")

    def conv_np(x, w):
        padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
        windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(1, 2))  # N,H,W,C,kh,kw
        cols = windows.transpose(0, 1, 2, 4, 5, 3).reshape(-1, 27)
        y = (cols @ w.reshape(27, 32)).reshape(x.shape[0], 32, 32, 32)
        y = np.maximum(y, 0)
        return y.reshape(x.shape[0], 16, 2, 16, 2, 32).max(axis=(2, 4))

    return Workload("conv", f"conv2d 3x3x3x32 SAME + relu + 2x2 max pool on {batch}x32x32x3", conv_tf,
                    (tf.constant(images), tf.constant(filters)), numpy_fn=conv_np, numpy_args=(images, filters))


def mlp_train_step(batch: int = 64, tf=tinytf) -> Workload:
    """One SGD step of a 784-256-10 MLP with softmax cross-entropy: forward, backward, update."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((batch, 784)).astype(np.float32)
    labels = rng.integers(0, 10, batch).astype(np.int32)
    init = [rng.standard_normal((784, 256)).astype(np.float32) * 0.05, np.zeros(256, np.float32),
            rng.standard_normal((256, 10)).astype(np.float32) * 0.05, np.zeros(10, np.float32)]
    params = [tf.Variable(p) for p in init]
    lr = 0.01

    def step_tf(x, y):
        w1, b1, w2, b2 = params
        with tf.GradientTape() as tape:
            hidden = tf.nn.relu(x @ w1 + b1)
            logits = hidden @ w2 + b2
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        grads = tape.gradient(loss, params)
        for p, g in zip(params, grads):
            p.assign_sub(lr * g)
        return loss

    np_params = [p.copy() for p in init]

    def step_np(x, y):
        w1, b1, w2, b2 = np_params
        pre = x @ w1 + b1
        hidden = np.maximum(pre, 0)
        logits = hidden @ w2 + b2
        shifted = logits - logits.max(axis=1, keepdims=True)
        exp = np.exp(shifted)
        probs = exp / exp.sum(axis=1, keepdims=True)
        n = x.shape[0]
        loss = -np.log(probs[np.arange(n), y]).mean()
        dlogits = probs
        dlogits[np.arange(n), y] -= 1
        dlogits /= n
        dw2 = hidden.T @ dlogits
        db2 = dlogits.sum(axis=0)
        dhidden = dlogits @ w2.T
        dhidden[pre <= 0] = 0
        dw1 = x.T @ dhidden
        db1 = dhidden.sum(axis=0)
        for p, g in zip(np_params, (dw1, db1, dw2, db2)):
            p -= np.float32(lr) * g
        return loss

    return Workload("mlp_train_step", f"784-256-10 MLP, batch {batch}: forward + backward + SGD", step_tf,
                    (tf.constant(x), tf.constant(labels)), numpy_fn=step_np, numpy_args=(x, labels))


def _rnn_data(steps, batch, n_in, n_hidden):
    """The inputs and initial weights of the tanh RNN workloads (the same numbers for both)."""
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((steps, batch, n_in)).astype(np.float32)
    wx = rng.standard_normal((n_in, n_hidden)).astype(np.float32) * 0.1
    wh = rng.standard_normal((n_hidden, n_hidden)).astype(np.float32) * 0.1
    return xs, wx, wh


def rnn_unroll(steps: int = 50, batch: int = 16, n_in: int = 32, n_hidden: int = 64, tf=tinytf) -> Workload:
    """A tanh RNN over `steps` steps with a TensorArray: forward pass and the gradient of the summed output."""
    xs, wx_init, wh_init = _rnn_data(steps, batch, n_in, n_hidden)
    wx, wh = tf.Variable(wx_init), tf.Variable(wh_init)

    def rnn_tf(xs):
        with tf.GradientTape() as tape:
            h = tf.zeros([batch, n_hidden])
            outputs = tf.TensorArray(tf.float32, size=steps)
            for t in tf.range(steps):
                h = tf.tanh(xs[t] @ wx + h @ wh)
                outputs = outputs.write(t, h)
            loss = tf.reduce_sum(outputs.stack())
        return loss, tape.gradient(loss, [wx, wh])

    def rnn_np(xs):
        hs = [np.zeros((batch, n_hidden), np.float32)]
        for t in range(steps):
            hs.append(np.tanh(xs[t] @ wx_init + hs[-1] @ wh_init))
        loss = sum(h.sum() for h in hs[1:])
        dwx = np.zeros_like(wx_init)
        dwh = np.zeros_like(wh_init)
        dh = np.zeros((batch, n_hidden), np.float32)
        for t in reversed(range(steps)):
            dh = dh + 1.0
            dpre = dh * (1 - hs[t + 1] ** 2)
            dwx += xs[t].T @ dpre
            dwh += hs[t].T @ dpre
            dh = dpre @ wh_init.T
        return loss, dwx, dwh

    return Workload("rnn_unroll", f"tanh RNN, {steps} steps, batch {batch}, {n_in}->{n_hidden}: forward + gradient",
                    rnn_tf, (tf.constant(xs),), numpy_fn=rnn_np, numpy_args=(xs,), autograph=True)


def rnn_forward(steps: int = 50, batch: int = 16, n_in: int = 32, n_hidden: int = 64,
                tf=tinytf) -> Workload:
    """The forward pass alone of the tanh RNN: a `for` over tf.range that AutoGraph makes one while loop."""
    xs, wx_init, wh_init = _rnn_data(steps, batch, n_in, n_hidden)
    wx, wh = tf.Variable(wx_init), tf.Variable(wh_init)

    def forward_tf(xs):
        h = tf.zeros([batch, n_hidden])
        outputs = tf.TensorArray(tf.float32, size=steps)
        for t in tf.range(steps):
            h = tf.tanh(xs[t] @ wx + h @ wh)
            outputs = outputs.write(t, h)
        return outputs.stack()

    def forward_np(xs):
        h = np.zeros((batch, n_hidden), np.float32)
        out = []
        for t in range(steps):
            h = np.tanh(xs[t] @ wx_init + h @ wh_init)
            out.append(h)
        return np.stack(out)

    return Workload("rnn_forward", f"tanh RNN forward only, {steps} steps, batch {batch}, {n_in}->{n_hidden}",
                    forward_tf, (tf.constant(xs),), numpy_fn=forward_np, numpy_args=(xs,))


def trace_time(n_ops: int = 150, tf=tinytf) -> Workload:
    """The first call of a new function of about `n_ops` ops: AutoGraph conversion, tracing, passes, codegen."""
    x = tf.constant(np.linspace(-1, 1, 16, dtype=np.float32))

    def make():
        def long_function(x):
            y = x
            for i in range(n_ops // 3):
                y = tf.tanh(y * 0.5 + float(i % 7))
            return tf.reduce_sum(y)

        return long_function

    def first_call():
        return tf.function(make())(x)

    return Workload("trace_time", f"first call of a new function of ~{n_ops} ops (convert + trace + passes + compile)",
                    make(), (x,), first_call=first_call)


def layer_norm_softmax(rows: int = 256, width: int = 512, tf=tinytf) -> Workload:
    """A layer norm (mean and variance over the last axis, scale and shift) followed by a softmax."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((rows, width)).astype(np.float32)
    gamma = (1 + 0.1 * rng.standard_normal(width)).astype(np.float32)
    beta = (0.1 * rng.standard_normal(width)).astype(np.float32)

    def block(x, gamma, beta):
        mean = tf.reduce_mean(x, axis=-1, keepdims=True)
        centered = x - mean
        variance = tf.reduce_mean(tf.square(centered), axis=-1, keepdims=True)
        y = centered * tf.math.rsqrt(variance + 1e-5) * gamma + beta
        return tf.nn.softmax(y, axis=-1)

    def block_np(x, gamma, beta):
        centered = x - x.mean(axis=-1, keepdims=True)
        variance = np.square(centered).mean(axis=-1, keepdims=True)
        y = centered / np.sqrt(variance + np.float32(1e-5)) * gamma + beta
        e = np.exp(y - y.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    args = (x, gamma, beta)
    return Workload("layer_norm_softmax", f"layer norm + softmax over the last axis of {rows}x{width} float32",
                    block, tuple(tf.constant(a) for a in args), numpy_fn=block_np, numpy_args=args)


def lstm_step(steps: int = 50, batch: int = 32, n_in: int = 64, hidden: int = 128, tf=tinytf) -> Workload:
    """An LSTM over `steps` steps (a TensorArray in a tf.range loop): forward and the gradient of the summed
    outputs for the input, recurrent and bias weights."""
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((steps, batch, n_in)).astype(np.float32)
    init = [rng.standard_normal((n_in, 4 * hidden)).astype(np.float32) * 0.1,
            rng.standard_normal((hidden, 4 * hidden)).astype(np.float32) * 0.1, np.zeros(4 * hidden, np.float32)]
    weights = [tf.Variable(w) for w in init]

    def lstm_tf(xs):
        wx, wh, b = weights
        with tf.GradientTape() as tape:
            h = tf.zeros([batch, hidden])
            c = tf.zeros([batch, hidden])
            outputs = tf.TensorArray(tf.float32, size=steps)
            for t in tf.range(steps):
                z = xs[t] @ wx + h @ wh + b
                i, f, g, o = tf.split(z, 4, axis=1)
                c = tf.sigmoid(f) * c + tf.sigmoid(i) * tf.tanh(g)
                h = tf.sigmoid(o) * tf.tanh(c)
                outputs = outputs.write(t, h)
            loss = tf.reduce_sum(outputs.stack())
        return loss, tape.gradient(loss, weights)

    def sigmoid(v):
        return 1 / (1 + np.exp(-v))

    def lstm_np(xs):
        wx, wh, b = init
        h = np.zeros((batch, hidden), np.float32)
        c = np.zeros((batch, hidden), np.float32)
        saved, loss = [], np.float32(0)
        for t in range(steps):
            z = xs[t] @ wx + h @ wh + b
            i, f, o = sigmoid(z[:, :hidden]), sigmoid(z[:, hidden:2 * hidden]), sigmoid(z[:, 3 * hidden:])
            g = np.tanh(z[:, 2 * hidden:3 * hidden])
            c_prev, h_prev = c, h
            c = f * c_prev + i * g
            tanh_c = np.tanh(c)
            h = o * tanh_c
            loss += h.sum()
            saved.append((h_prev, c_prev, i, f, g, o, tanh_c))
        grads = [np.zeros_like(w) for w in init]
        dh_next = np.zeros((batch, hidden), np.float32)
        dc_next = np.zeros((batch, hidden), np.float32)
        dz = np.empty((batch, 4 * hidden), np.float32)
        for t in reversed(range(steps)):
            h_prev, c_prev, i, f, g, o, tanh_c = saved[t]
            dh = dh_next + np.float32(1)
            dc = dh * o * (1 - tanh_c * tanh_c) + dc_next
            dz[:, :hidden] = dc * g * i * (1 - i)
            dz[:, hidden:2 * hidden] = dc * c_prev * f * (1 - f)
            dz[:, 2 * hidden:3 * hidden] = dc * i * (1 - g * g)
            dz[:, 3 * hidden:] = dh * tanh_c * o * (1 - o)
            grads[0] += xs[t].T @ dz
            grads[1] += h_prev.T @ dz
            grads[2] += dz.sum(axis=0)
            dh_next = dz @ init[1].T
            dc_next = dc * f
        return loss, grads

    return Workload("lstm_step", f"LSTM, {steps} steps, batch {batch}, {n_in}->{hidden}: forward + gradient",
                    lstm_tf, (tf.constant(xs),), numpy_fn=lstm_np, numpy_args=(xs,))


def cnn_train_step(batch: int = 64, tf=tinytf) -> Workload:
    """One SGD step of a small CNN on 28x28x1 images: conv 5x5x32 -> 2x2 max pool -> conv 5x5x64 -> 2x2 max
    pool -> dense 10, relu after each conv, softmax cross-entropy: forward, backward, update."""
    rng = np.random.default_rng(0)
    images = rng.standard_normal((batch, 28, 28, 1)).astype(np.float32)
    labels = rng.integers(0, 10, batch).astype(np.int32)
    init = [rng.standard_normal((5, 5, 1, 32)).astype(np.float32) * 0.2, np.zeros(32, np.float32),
            rng.standard_normal((5, 5, 32, 64)).astype(np.float32) * 0.035, np.zeros(64, np.float32),
            rng.standard_normal((7 * 7 * 64, 10)).astype(np.float32) * 0.02, np.zeros(10, np.float32)]
    params = [tf.Variable(p) for p in init]
    lr = 0.01

    def step(x, y):
        w1, b1, w2, b2, w3, b3 = params
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.nn.conv2d(x, w1, strides=1, padding="SAME") + b1)
            h = tf.nn.max_pool2d(h, ksize=2, strides=2, padding="VALID")
            h = tf.nn.relu(tf.nn.conv2d(h, w2, strides=1, padding="SAME") + b2)
            h = tf.nn.max_pool2d(h, ksize=2, strides=2, padding="VALID")
            logits = tf.reshape(h, [batch, 7 * 7 * 64]) @ w3 + b3
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        grads = tape.gradient(loss, params)
        for p, g in zip(params, grads):
            p.assign_sub(lr * g)
        return loss

    return Workload("cnn_train_step", f"CNN 5x5x32-pool-5x5x64-pool-dense10 on {batch}x28x28x1: forward + "
                    "backward + SGD", step, (tf.constant(images), tf.constant(labels)))


ALL = {"tiny_call": tiny_call, "elementwise_chain": elementwise_chain,
       "elementwise_chain_10k": partial(elementwise_chain, 10_000),
       "elementwise_chain_1m": partial(elementwise_chain, 1_000_000), "layer_norm_softmax": layer_norm_softmax,
       "mlp_train_step": mlp_train_step, "collatz": collatz, "rnn_forward": rnn_forward, "rnn_unroll": rnn_unroll,
       "lstm_step": lstm_step, "conv": conv, "cnn_train_step": cnn_train_step, "trace_time": trace_time}

from .conv_variant_workloads import WORKLOADS as _CONV_VARIANTS  # noqa: E402  (they build on Workload above)

ALL.update(_CONV_VARIANTS)
