"""Max pooling's gradient kernels (the tiled fast path from the forward's output, the relu-folded kernel) and the
relu_pool_gradient pass, against window loops, the general path, the unfused ops, and with passes off."""

import contextlib

import numpy as np
import pytest
from test_conv_kernels import _loop_max_pool_grad

import tinytf as tf
from tinytf.runtime.ops import conv, nn_grad, pool_kernels

# the pass on, whatever TINYTF_PASSES or an earlier test left in the optimizer options
# pool_filter_gradient off: it would take the fused pool gradient of these first conv layers further (its own
# tests: test_pool_filter_gradient.py)
ON = {"disable_all": False, "relu_pool_gradient": True, "pruning": True, "common_subexpression": True,
      "pool_filter_gradient": False}


@contextlib.contextmanager
def _options(**options):
    """Optimizer options for everything traced, retraced or called inside (a later call under other options
    may retrace)."""
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options(options)
    try:
        yield
    finally:
        tf.config.optimizer.set_experimental_options({key: saved.get(key, key != "disable_all") for key in options})


def _run(fn, args, **options):
    """(op types of fn's graph, its outputs) traced and run under `options`."""
    with _options(**options):
        compiled = tf.function(fn)
        ops = compiled.get_concrete_function(*args).graph.op_types()
        return ops, compiled(*args)


def _bits(a):
    """Values with the sign of zero: -0.0 and 0.0 differ."""
    return np.asarray(a, np.float32).view(np.uint32)


SHAPES = [((2, 2), (2, 8, 8, 3)), ((2, 2), (1, 7, 9, 2)), ((3, 3), (2, 9, 6, 2)), ((1, 1), (1, 3, 3, 2)),
          ((2, 3), (1, 6, 7, 4))]


@pytest.mark.parametrize("ksize,shape", SHAPES)
def test_tiled_grad_from_the_output_matches_window_loops(ksize, shape):
    rng = np.random.default_rng(3)
    x = rng.integers(-2, 3, shape).astype(np.float32)  # many ties inside windows, zeros among them
    attrs = dict(ksize=ksize, strides=ksize, padding="VALID")
    y = conv._max_pool_kernel(x, **attrs)
    g = rng.standard_normal(y.shape).astype(np.float32)
    assert pool_kernels.tiled_view(x, ksize, ksize, "VALID") is not None
    if ksize[0] == ksize[1]:
        np.testing.assert_array_equal(nn_grad._max_pool_grad_kernel(x, y, g, **attrs),
                                      _loop_max_pool_grad(x, g, ksize[0]))
    general = nn_grad._max_pool_grad_kernel(x, y, g, ksize=ksize, strides=ksize, padding="SAME") \
        if shape[1] % ksize[0] == 0 and shape[2] % ksize[1] == 0 else None
    tiled = nn_grad._max_pool_grad_kernel(x, y, g, **attrs)
    if general is not None:
        np.testing.assert_array_equal(tiled, general)
    assert np.count_nonzero(tiled) <= g.size  # one position per window at most


def test_tiled_grad_with_an_infinite_gradient_leaves_zeros_elsewhere():
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    attrs = dict(ksize=(2, 2), strides=(2, 2), padding="VALID")
    y = conv._max_pool_kernel(x, **attrs)
    g = np.array([np.inf, -np.inf, np.nan, 1], np.float32).reshape(1, 2, 2, 1)
    grad = nn_grad._max_pool_grad_kernel(x, y, g, **attrs)
    want = np.zeros_like(x)
    want[0, 1, 1, 0], want[0, 1, 3, 0], want[0, 3, 1, 0], want[0, 3, 3, 0] = np.inf, -np.inf, np.nan, 1
    np.testing.assert_array_equal(grad, want)  # TF's MaxPoolGrad: exact zeros away from the maxima


def test_relu_folded_kernel_is_bitwise_the_two_ops():
    rng = np.random.default_rng(4)
    for shape, ksize in (((3, 8, 8, 5), (2, 2)), ((2, 7, 9, 3), (2, 2)), ((2, 6, 6, 2), (3, 3))):
        x = np.maximum(rng.integers(-2, 3, shape).astype(np.float32), 0)  # relu outputs: many tied zeros
        attrs = dict(ksize=ksize, strides=ksize, padding="VALID")
        y = conv._max_pool_kernel(x, **attrs)
        g = rng.standard_normal(y.shape).astype(np.float32)
        unfused = nn_grad._max_pool_grad_kernel(x, y, g, **attrs) * (x > 0).astype(np.float32)
        fused = nn_grad._max_pool_relu_grad_kernel(x, y, g, **attrs)
        np.testing.assert_array_equal(_bits(fused), _bits(unfused))
        g[0, 0, 0, 0] = np.inf  # the kernel keeps the two ops' order: inf * 0 is NaN as before
        unfused = nn_grad._max_pool_grad_kernel(x, y, g, **attrs) * (x > 0).astype(np.float32)
        np.testing.assert_array_equal(_bits(nn_grad._max_pool_relu_grad_kernel(x, y, g, **attrs)), _bits(unfused))
        # overlapping windows take the general path
        attrs = dict(ksize=(3, 3), strides=(1, 1), padding="SAME")
        y = conv._max_pool_kernel(x, **attrs)
        g = rng.standard_normal(y.shape).astype(np.float32)
        unfused = nn_grad._max_pool_grad_kernel(x, y, g, **attrs) * (x > 0).astype(np.float32)
        np.testing.assert_array_equal(_bits(nn_grad._max_pool_relu_grad_kernel(x, y, g, **attrs)), _bits(unfused))


def _conv_relu_pool_loss(x, kernel, bias):
    with tf.GradientTape() as tape:
        tape.watch([kernel, bias])
        act = tf.nn.relu(tf.nn.conv2d(x, kernel, 1, "VALID") + bias)
        pooled = tf.nn.max_pool2d(act, 2, 2, "VALID")
        loss = tf.reduce_sum(pooled * pooled)
    return tape.gradient(loss, [kernel, bias])


def _conv_args(seed=5):
    rng = np.random.default_rng(seed)
    x = tf.constant(rng.integers(-2, 3, (2, 9, 9, 1)).astype(np.float32))  # integer data: ties in windows
    kernel = tf.constant(rng.integers(-1, 2, (3, 3, 1, 4)).astype(np.float32))
    bias = tf.constant(np.array([0, -1, 1, 0], np.float32))
    return x, kernel, bias


def test_pass_folds_relu_gradient_and_keeps_every_bit():
    args = _conv_args()
    ops, optimized = _run(_conv_relu_pool_loss, args, **ON)
    _, plain = _run(_conv_relu_pool_loss, args, disable_all=True)
    ops_without, without = _run(_conv_relu_pool_loss, args, **{**ON, "relu_pool_gradient": False})
    assert "max_pool2d_relu_grad" in ops and "max_pool2d_grad" not in ops
    assert "max_pool2d_relu_grad" not in ops_without and "max_pool2d_grad" in ops_without
    eager = _conv_relu_pool_loss(*args)
    for got in (optimized, plain, without):
        for a, b in zip(got, eager):
            np.testing.assert_array_equal(_bits(a.numpy()), _bits(b.numpy()))


def test_pass_gradient_matches_finite_differences():
    rng = np.random.default_rng(6)
    x = tf.constant(rng.standard_normal((2, 8, 8, 1)).astype(np.float64))
    kernel = rng.standard_normal((3, 3, 1, 3))
    bias = tf.constant(np.zeros(3))
    ops, grads = _run(_conv_relu_pool_loss, (x, tf.constant(kernel), bias), **ON)
    assert "max_pool2d_relu_grad" in ops
    grad = grads[0].numpy()

    def loss(k):
        act = np.maximum(conv._conv2d_kernel(x.numpy(), k, strides=(1, 1), padding="VALID", dilations=(1, 1)), 0)
        return float(np.sum(conv._max_pool_kernel(act, ksize=(2, 2), strides=(2, 2), padding="VALID") ** 2))

    eps = 1e-6
    numeric = np.zeros_like(kernel)
    for index in np.ndindex(kernel.shape):
        step = np.zeros_like(kernel)
        step[index] = eps
        numeric[index] = (loss(kernel + step) - loss(kernel - step)) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-6)


def test_pass_leaves_other_masks_alone():
    def fn(x, other):
        with tf.GradientTape() as tape:
            tape.watch(x)
            pooled = tf.nn.max_pool2d(x, 2, 2, "VALID")
            loss = tf.reduce_sum(pooled)
        g = tape.gradient(loss, x)
        return g * tf.cast(other > 0, tf.float32), g * tf.cast(x > 1, tf.float32)

    rng = np.random.default_rng(7)
    x = tf.constant(rng.standard_normal((1, 4, 4, 2)).astype(np.float32))
    other = tf.constant(rng.standard_normal((1, 4, 4, 2)).astype(np.float32))
    ops, got = _run(fn, (x, other), **ON)
    assert "max_pool2d_relu_grad" not in ops and "max_pool2d_grad" in ops
    for a, b in zip(got, fn(x, other)):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_keras_conv_relu_pool_training_step_same_with_passes_off():
    keras = tf.keras
    rng = np.random.default_rng(8)
    x = rng.random((8, 10, 10, 1), dtype=np.float32)
    y = rng.integers(0, 3, 8).astype(np.int32)

    def weights_after_fit(**options):
        saved = tf.config.optimizer.get_experimental_options()
        tf.config.optimizer.set_experimental_options(options)
        try:
            model = keras.Sequential([keras.Input((10, 10, 1)), keras.layers.Conv2D(4, 3, activation="relu"),
                                      keras.layers.MaxPooling2D(), keras.layers.Flatten(), keras.layers.Dense(3)])
            model.set_weights([rng_w.copy() for rng_w in init])
            model.compile(optimizer=keras.optimizers.SGD(0.1),
                          loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
            model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
            return model.get_weights()
        finally:
            tf.config.optimizer.set_experimental_options({k: saved.get(k, k != "disable_all") for k in options})

    init = [rng.standard_normal((3, 3, 1, 4)).astype(np.float32) * 0.5, np.zeros(4, np.float32),
            rng.standard_normal((64, 3)).astype(np.float32) * 0.1, np.zeros(3, np.float32)]
    for a, b in zip(weights_after_fit(**ON), weights_after_fit(**{**ON, "relu_pool_gradient": False})):
        np.testing.assert_array_equal(a, b)


def test_fused_gradient_exports_as_the_ops_it_replaced():
    args = _conv_args()
    with _options(**ON):
        graph = tf.function(_conv_relu_pool_loss).get_concrete_function(*args).graph
    assert "max_pool2d_relu_grad" in graph.op_types()
    ops = [node.op for node in graph.as_graph_def().node]
    assert "MaxPoolGrad" in ops and "Greater" in ops and "Mul" in ops
