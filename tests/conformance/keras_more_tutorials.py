"""Cells of TF's custom-layers tutorial (site/en/tutorials/customization/custom_layers.ipynb) where tinytf
answered differently: a Keras variable's repr, `add_weight` called positionally (Keras 3 takes shape,
initializer, dtype in that order and refuses a Keras 2 name first), and a model named "" (the tutorial's
ResnetIdentityBlock), whose summary header and weight paths Keras 3 keeps as given."""

from __future__ import annotations

import contextlib
import io

from . import data, outcome, program, val


@program
def p_keras_variable_repr_eager_and_traced(tf):
    layer = tf.keras.layers.Dense(3)
    layer.build((None, 2))
    layer.kernel.assign(data((2, 3)))
    seen = []

    @tf.function
    def f(x):
        seen.append(repr(layer.bias))
        return layer(x)

    f(tf.ones([1, 2]))
    scalar = tf.keras.Variable(3.0, name="scale")
    return [repr(layer.kernel), repr(layer.bias), str(layer.bias), seen, repr(scalar).split("path=")[1][:5]]


@program
def p_keras_add_weight_positional(tf):
    class Ones(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.k = self.add_weight((input_shape[-1], 2), "ones", "float64")
            self.b = self.add_weight((2,), "zeros")
            self.s = self.add_weight()

        def call(self, x):
            return tf.matmul(tf.cast(x, tf.float64), self.k) + tf.cast(self.b, tf.float64)

    layer = Ones()
    out = layer(tf.constant(data((2, 3))))
    shapes = [[w.path, w.dtype if isinstance(w.dtype, str) else w.dtype.name, list(w.shape)] for w in layer.weights]
    return [val(out), shapes]


@program
def p_keras_add_weight_positional_errors(tf):
    layer = tf.keras.layers.Layer()
    return [outcome(lambda: layer.add_weight("kernel", shape=(2,)), "must be passed as a keyword argument"),
            outcome(lambda: layer.add_weight((2,), shape=(3,)), "passed both positionally"),
            outcome(lambda: layer.add_weight((2,), "zeros", initializer="ones"), "passed both positionally"),
            outcome(lambda: layer.add_weight((2,), "zeros", "float32", dtype="float32"), "passed both"),
            outcome(lambda: layer.add_weight((2,), "zeros", "float32", "x"), "at most 3 positional")]


@program
def p_keras_model_named_empty_string(tf):
    class Block(tf.keras.Model):
        def __init__(self):
            super().__init__(name="")
            self.conv = tf.keras.layers.Conv2D(2, (1, 1))
            self.bn = tf.keras.layers.BatchNormalization()

        def call(self, x, training=False):
            return tf.nn.relu(self.bn(self.conv(x), training=training) + x)

    block = Block()
    out = block(tf.constant(data((1, 2, 3, 2))))
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        block.summary()
    header = buffer.getvalue().strip().splitlines()[0]
    plain = tf.keras.layers.Dense(2, name="")
    plain(tf.ones([1, 3]))
    return [repr(block.name), header, [w.path for w in block.weights], [w.path for w in plain.weights],
            list(out.shape)]


@program
def p_keras_layer_name_checked(tf):
    return [outcome(lambda: tf.keras.layers.Dense(3, name="a/b"), "cannot contain character `/`"),
            outcome(lambda: tf.keras.layers.Dense(3, name=3), "must be a string")]
