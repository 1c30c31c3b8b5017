"""Workloads of the convolution variants (issue 15 part 2): a depthwise convolution and a transposed one,
forward and the gradients for input and filters, each built with `tf` (tinytf, or TensorFlow itself for the
`--compare tensorflow` twin), with a hand-written numpy baseline of the forward pass + gradients."""

from __future__ import annotations

import numpy as np

import tinytf

from .workloads import Workload


def _loss_and_grads(tf, op):
    """op(x, f), reduced to sum(y * y) / 2, and its gradients for x and f (= op's two gradients applied to y)."""
    def step(x, f):
        with tf.GradientTape() as tape:
            tape.watch([x, f])
            y = op(x, f)
            loss = tf.reduce_sum(y * y) * 0.5
        return loss, tape.gradient(loss, [x, f])

    return step


def depthwise(batch: int = 32, tf=tinytf) -> Workload:
    """A 3x3 depthwise convolution, SAME, channel multiplier 2, on a batch x 32x32x16 input (MobileNet's block
    shape): forward + the gradients for input and filters."""
    rng = np.random.default_rng(0)
    images = rng.standard_normal((batch, 32, 32, 16)).astype(np.float32)
    filters = rng.standard_normal((3, 3, 16, 2)).astype(np.float32) * 0.3
    step = _loss_and_grads(tf, lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME"))

    def depthwise_np(x, f):
        n, h, w, c = x.shape
        padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
        y = np.zeros((n, h, w, c, 2), np.float32)
        for i in range(3):
            for j in range(3):
                y += padded[:, i:i + h, j:j + w, :, None] * f[i, j]
        dx_padded = np.zeros_like(padded)
        df = np.empty_like(f)
        for i in range(3):
            for j in range(3):
                dx_padded[:, i:i + h, j:j + w] += np.einsum("nhwcm,cm->nhwc", y, f[i, j])
                df[i, j] = np.einsum("nhwc,nhwcm->cm", padded[:, i:i + h, j:j + w], y)
        return np.float32(0.5) * np.sum(y * y), [dx_padded[:, 1:-1, 1:-1], df]

    return Workload("depthwise", f"depthwise conv 3x3x16x2 SAME on {batch}x32x32x16: forward + gradients", step,
                    (tf.constant(images), tf.constant(filters)), numpy_fn=depthwise_np,
                    numpy_args=(images, filters))


def conv_transpose(batch: int = 32, tf=tinytf) -> Workload:
    """A 3x3 stride-2 SAME transposed convolution, batch x 16x16x32 -> batch x 32x32x16 (a decoder's upsampling
    step): forward + the gradients for input and filters."""
    rng = np.random.default_rng(0)
    images = rng.standard_normal((batch, 16, 16, 32)).astype(np.float32)
    filters = rng.standard_normal((3, 3, 16, 32)).astype(np.float32) * 0.1
    step = _loss_and_grads(tf, lambda x, f: tf.nn.conv2d_transpose(x, f, [batch, 32, 32, 16], 2, "SAME"))

    def conv_transpose_np(x, f):
        # SAME, 16 -> 32, window 3, stride 2: the convolution of the output pads 0 before and 1 after
        n = x.shape[0]
        full = np.zeros((n, 33, 33, 16), np.float32)
        for i in range(3):
            for j in range(3):
                full[:, i:i + 32:2, j:j + 32:2] += x @ f[i, j].T
        y = full[:, :32, :32]
        padded = np.pad(y, ((0, 0), (0, 1), (0, 1), (0, 0)))
        dx = np.zeros_like(x)
        df = np.empty_like(f)
        for i in range(3):
            for j in range(3):
                window = padded[:, i:i + 32:2, j:j + 32:2]  # (n, 16, 16, 16): what the convolution reads
                dx += window @ f[i, j]
                df[i, j] = window.reshape(-1, 16).T @ x.reshape(-1, 32)
        return np.float32(0.5) * np.sum(y * y), [dx, df]

    return Workload("conv_transpose", f"conv2d_transpose 3x3 stride 2 SAME, {batch}x16x16x32 -> 32x32x16: forward "
                    "+ gradients", step, (tf.constant(images), tf.constant(filters)), numpy_fn=conv_transpose_np,
                    numpy_args=(images, filters))


WORKLOADS = {"depthwise": depthwise, "conv_transpose": conv_transpose}
