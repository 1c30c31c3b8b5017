"""TF's "NumPy API on TensorFlow" guide (tensorflow.org/guide/tf_numpy), its code cells as programs: numpy behavior,
ND arrays, type promotion (with and without prefer_float32), broadcasting, NumPy indexing, the example model, NumPy
interoperability and operator precedence, tf interoperability, gradients and batch jacobians, tf.function tracing,
vectorized per-example gradients and device placement. Printed texts are compared as TF 2.21 prints them."""

from __future__ import annotations

import numpy as np

from . import outcome, program
from .tnp_values import _behavior_off, _plain


def _guide(tf, body):
    tnp = tf.experimental.numpy
    tnp.experimental_enable_numpy_behavior()
    try:
        return body(tf, tnp)
    finally:
        tnp.experimental_enable_numpy_behavior(prefer_float32=False)
        _behavior_off(tf)


@program
def p_tnp_guide_nd_array_and_promotion(tf):
    def body(tf, tnp):
        x = tnp.ones([5, 3], dtype=tnp.float32)
        out = {"shape": str(x.shape), "dtype": x.dtype.name, "ndim": x.ndim, "size": int(x.size), "T": _plain(x.T[0])}
        values = [tnp.asarray(1, dtype=d) for d in (tnp.int32, tnp.int64, tnp.float32, tnp.float64)]
        out["sums"] = ["%s + %s => %s" % (v1.dtype.name, v2.dtype.name, (v1 + v2).dtype.name)
                       for i, v1 in enumerate(values) for v2 in values[i + 1:]]
        out["asarray_int"] = tnp.asarray(1).dtype.name
        out["asarray_float"] = tnp.asarray(1.0).dtype.name
        tnp.experimental_enable_numpy_behavior(prefer_float32=True)
        out["prefer32"] = [tnp.asarray(1.0).dtype.name, tnp.add(1.0, 2.0).dtype.name]
        tnp.experimental_enable_numpy_behavior(prefer_float32=False)
        out["prefer64"] = [tnp.asarray(1.0).dtype.name, tnp.add(1.0, 2.0).dtype.name]
        return out
    return _guide(tf, body)


@program
def p_tnp_guide_broadcasting_and_indexing(tf):
    def body(tf, tnp):
        x, y, z = tnp.ones([2, 3]), tnp.ones([3]), tnp.ones([1, 2, 1])
        out = {"broadcast": "Broadcasting shapes %s, %s and %s gives shape %s" % (
            x.shape, y.shape, z.shape, (x + y + z).shape)}
        x = tnp.arange(24).reshape(2, 3, 4)
        out["basic"] = _plain(x[1, tnp.newaxis, 1:3, ...])
        out["boolean"] = _plain(x[:, (True, False, True)])
        out["advanced"] = _plain(x[1, (0, 0, 1), tnp.asarray([0, 1, 1])])
        out["list"] = _plain(x[[1, 0], ..., [-1, 2]])
        out["mask"] = _plain(x[x > 20])

        def mutate():
            tnp.arange(6)[1] = -1
        out["mutation"] = outcome(mutate, "")
        return out
    return _guide(tf, body)


class _Model:
    """The guide's example model: a ReLU layer and a linear projection, weights drawn on the first predict."""

    def __init__(self, tnp):
        self.tnp = tnp
        self.weights = None

    def predict(self, inputs):
        tnp = self.tnp
        if self.weights is None:
            size = inputs.shape[1]
            stddev = tnp.sqrt(size).astype(tnp.float32)
            w1 = tnp.random.randn(size, 64).astype(tnp.float32) / stddev
            bias = tnp.random.randn(64).astype(tnp.float32)
            w2 = tnp.random.randn(64, 2).astype(tnp.float32) / 8
            self.weights = (w1, bias, w2)
        else:
            w1, bias, w2 = self.weights
        y = tnp.matmul(inputs, w1) + bias
        y = tnp.maximum(y, 0)  # Relu
        return tnp.matmul(y, w2)  # Linear projection


@program
def p_tnp_guide_example_model(tf):
    def body(tf, tnp):
        tnp.random.seed(1)
        model = _Model(tnp)
        first = model.predict(tnp.ones([2, 32], dtype=tnp.float32))
        second = model.predict(tnp.ones([2, 32], dtype=tnp.float32))
        return {"first": _plain(first), "again": _plain(second)}
    return _guide(tf, body)


@program
def p_tnp_guide_numpy_interoperability(tf):
    def body(tf, tnp):
        np_sum = np.sum(tnp.ones([2, 3]))
        tnp_sum = tnp.sum(np.ones([2, 3]))
        x = tnp.ones([2]) + np.ones([2])
        tf_sum = tf.reduce_sum(tnp.ones([2, 3], tnp.float32))
        tnp_tf_sum = tnp.sum(tf.ones([2, 3]))
        return {"np_sum": [float(np_sum), type(np_sum).__name__], "tnp_sum": _plain(tnp_sum),
                "precedence": [_plain(x), isinstance(x, tf.Tensor)], "tf_sum": _plain(tf_sum),
                "tnp_of_tf": _plain(tnp_tf_sum), "asarray_numpy": _plain(np.asarray(tnp.ones([2]))),
                "convert": _plain(tf.convert_to_tensor(tnp.asarray([1, 2])))}
    return _guide(tf, body)


@program
def p_tnp_guide_gradients_and_tracing(tf):
    def body(tf, tnp):
        tnp.random.seed(2)
        model = _Model(tnp)
        model.predict(tnp.ones([2, 32], dtype=tnp.float32))

        def create_batch(batch_size=8):
            return (tnp.random.randn(batch_size, 32).astype(tnp.float32),
                    tnp.random.randn(batch_size, 2).astype(tnp.float32))

        def compute_gradients(model, inputs, labels):
            with tf.GradientTape() as tape:
                tape.watch(model.weights)
                prediction = model.predict(inputs)
                loss = tnp.sum(tnp.square(prediction - labels))
            return tape.gradient(loss, model.weights)

        inputs, labels = create_batch()
        gradients = compute_gradients(model, inputs, labels)

        def prediction_batch_jacobian(inputs):
            with tf.GradientTape() as tape:
                tape.watch(inputs)
                prediction = model.predict(inputs)
            return prediction, tape.batch_jacobian(prediction, inputs)

        inp_batch = tnp.ones([4, 32], tnp.float32)
        prediction, jacobian = prediction_batch_jacobian(inp_batch)
        traced = tf.function(model.predict)
        eager_out = model.predict(inputs)
        return {"gradients": _plain(list(gradients)), "shapes": [list(g.shape) for g in gradients],
                "jacobian_shape": [list(prediction.shape), list(jacobian.shape)],
                "jacobian": _plain(jacobian[0, :, :4]),
                "traced_equal": bool(tnp.allclose(traced(inputs), eager_out)),
                "traced_sum": float(tnp.sum(traced(inputs)))}
    return _guide(tf, body)


@program
def p_tnp_guide_vectorized_per_example_gradients(tf):
    def body(tf, tnp):
        tnp.random.seed(3)
        model = _Model(tnp)
        model.predict(tnp.ones([2, 32], dtype=tnp.float32))
        inputs = tnp.random.randn(4, 32).astype(tnp.float32)
        labels = tnp.random.randn(4, 2).astype(tnp.float32)

        def per_example_gradient(inputs, labels):
            inputs = tnp.expand_dims(inputs, 0)
            labels = tnp.expand_dims(labels, 0)
            with tf.GradientTape() as tape:
                tape.watch(model.weights)
                loss = tnp.sum(tnp.square(model.predict(inputs) - labels))
            return tape.gradient(loss, model.weights)

        grads = tf.vectorized_map(lambda x: per_example_gradient(*x), (inputs, labels))
        with tf.device("/device:CPU:0"):
            on_cpu = tnp.copy(tnp.ones([2]))
        return {"shapes": [list(g.shape) for g in grads], "first": _plain(grads[2][1]),
                "device": on_cpu.device.endswith("CPU:0")}
    return _guide(tf, body)


@program
def p_tnp_module_docstring(tf):
    """The examples of tf.experimental.numpy's module docstring (with numpy behavior on: TF cannot switch it off, so
    its recorder, which ran the guide's programs first, records them so)."""
    def body(tf, tnp):
        return {
            "ones_plus_numpy": _plain(tnp.ones([2, 1]) + np.ones([1, 2])),
            "int16_plus_uint8": _plain(tnp.ones([1, 2], dtype=tnp.int16) + tnp.ones([2, 1], dtype=tnp.uint8)),
            "np_sum": float(np.sum(tnp.ones([1, 2]) + np.ones([2, 1]))),
            "tnp_sum_tf": _plain(tnp.sum(tnp.ones([1, 2]) + tf.ones([2, 1]))),
            "tnp_sum_tf32": _plain(tnp.sum(tnp.ones([1, 2], tnp.float32) + tf.ones([2, 1]))),
        }
    return _guide(tf, body)
