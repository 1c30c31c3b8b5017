"""tf.keras models against Keras 3: Sequential (list, add, pop, input_shape), Functional (None dims, dtypes,
several and dict inputs/outputs, shared layers, nested models, get_layer, layer.output, a model cut from
another's intermediate output), subclassed models, and model.summary()'s table."""

from __future__ import annotations

import contextlib
import io

from . import data, fixed_weights, outcome, program, val


def _fresh(tf):
    tf.keras.backend.clear_session()
    return tf.keras


def _summary(model):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        model.summary()
    return out.getvalue()


@program
def p_keras_sequential_forward_and_summary(tf):
    keras = _fresh(tf)
    model = keras.Sequential([keras.layers.Dense(16, activation="relu", input_shape=(8,)),
                              keras.layers.Dropout(0.2), keras.layers.Dense(3)])
    fixed_weights(model)
    x = tf.constant(data((4, 8)))
    return [val(model(x)), val(model(x, training=False)), model.name, [layer.name for layer in model.layers],
            model.count_params(), _summary(model), list(model.output_shape), list(model.input_shape)]


@program
def p_keras_sequential_add_pop(tf):
    keras = _fresh(tf)
    model = keras.Sequential()
    model.add(keras.Input(shape=(5,)))
    model.add(keras.layers.Dense(4, activation="tanh"))
    model.add(keras.layers.Dense(2))
    first = [len(model.weights), list(model.output_shape)]
    model.pop()
    second = [len(model.weights), list(model.output_shape), [layer.name for layer in model.layers]]
    model.add(keras.layers.Dense(3, activation="softmax"))
    fixed_weights(model)
    return [first, second, val(model(tf.constant(data((2, 5))))), _summary(model)]


@program
def p_keras_sequential_deferred_build(tf):
    keras = _fresh(tf)
    model = keras.Sequential([keras.layers.Dense(3), keras.layers.ReLU(), keras.layers.Dense(1)])
    before = [model.built, len(model.weights), _summary(model),
              outcome(lambda: model.count_params(), "isn't built")]
    model(tf.constant(data((2, 4))))
    fixed_weights(model)
    return [before, model.built, val(model(tf.constant(data((2, 4))))), len(model.weights)]


@program
def p_keras_functional_multi_io_summary(tf):
    keras = _fresh(tf)
    a = keras.Input(shape=(4,), name="a")
    b = keras.Input(shape=(2,), name="b")
    x = keras.layers.Concatenate()([a, b])
    y = keras.layers.Dense(5, activation="relu")(x)
    out1 = keras.layers.Dense(1, name="out")(y)
    out2 = keras.layers.Dense(2, name="aux")(x)
    model = keras.Model([a, b], [out1, out2])
    fixed_weights(model)
    result = model([tf.constant(data((3, 4))), tf.constant(data((3, 2), seed=1))])
    return [val(result), model.name, [layer.name for layer in model.layers], _summary(model),
            repr(model.get_layer("out").output), repr(model.layers[0].output), len(model.inputs),
            outcome(lambda: model([tf.ones([2, 4]), tf.ones([2, 3])]), "expected shape=(None, 2), found shape=(2, 3)")]


@program
def p_keras_functional_dict_inputs(tf):
    keras = _fresh(tf)
    a = keras.Input(shape=(3,), name="left")
    b = keras.Input(shape=(3,), name="right")
    diff = keras.layers.Subtract()([a, b])
    model = keras.Model(inputs={"left": a, "right": b}, outputs={"d": diff, "s": keras.layers.Add()([a, b])})
    result = model({"right": tf.constant(data((2, 3), seed=2)), "left": tf.constant(data((2, 3)))})
    return val(result)


@program
def p_keras_functional_shared_and_nested(tf):
    keras = _fresh(tf)
    shared = keras.layers.Dense(3, activation="tanh")
    inner_in = keras.Input(shape=(3,))
    inner = keras.Model(inner_in, keras.layers.Dense(2)(inner_in), name="inner")
    x1 = keras.Input(shape=(4,))
    x2 = keras.Input(shape=(4,))
    merged = keras.layers.Average()([inner(shared(x1)), inner(shared(x2))])
    model = keras.Model([x1, x2], merged)
    fixed_weights(model)
    out = model([tf.constant(data((2, 4))), tf.constant(data((2, 4), seed=3))])
    return [val(out), len(model.weights), [layer.name for layer in model.layers], _summary(model),
            list(shared.output.shape), list(shared.input.shape)]


@program
def p_keras_functional_none_dims_and_int_input(tf):
    keras = _fresh(tf)
    tokens = keras.Input(shape=(None, 5), dtype="int32")
    as_float = keras.layers.Lambda(lambda t: tf.cast(t, "float32"))(tokens)
    dense = keras.layers.Dense(2)
    out = dense(as_float)
    model = keras.Model(tokens, out)
    fixed_weights(model)
    x = tf.reshape(tf.range(30), [2, 3, 5])
    return [repr(tokens), list(out.shape), str(out.dtype), val(model(x)), _summary(model)]


@program
def p_keras_intermediate_output_model(tf):
    keras = _fresh(tf)
    inputs = keras.Input(shape=(6,))
    hidden = keras.layers.Dense(4, activation="relu", name="hidden")(inputs)
    outputs = keras.layers.Dense(2, name="head")(hidden)
    model = keras.Model(inputs, outputs)
    fixed_weights(model)
    features = keras.Model(inputs=model.input, outputs=model.get_layer("hidden").output)
    x = tf.constant(data((3, 6)))
    extended = keras.Model(model.input, keras.layers.Dense(1, kernel_initializer="ones")(model.output))
    return [val(features(x)), len(features.weights), val(extended(x)), len(extended.weights),
            outcome(lambda: keras.Model(keras.Input((2,)), outputs), "is not connected to `inputs`"),
            outcome(lambda: model.get_layer("nope"), "No such layer")]


@program
def p_keras_subclassed_model(tf):
    keras = _fresh(tf)

    class TwoLayer(keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = keras.layers.Dense(4, activation="relu")
            self.drop = keras.layers.Dropout(0.5)
            self.head = keras.layers.Dense(1)

        def call(self, x, training=False):
            return self.head(self.drop(self.hidden(x), training=training))

    model = TwoLayer()
    before = _summary(model)
    model(tf.constant(data((2, 3))))
    fixed_weights(model)
    x = tf.constant(data((2, 3)))
    return [model.name, before, _summary(model), val(model(x)), [w.path for w in model.weights],
            [layer.name for layer in model.layers]]
