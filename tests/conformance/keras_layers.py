"""tf.keras layers against Keras 3 (as TF 2.21 ships it): forward values with weights fixed by set_weights,
weight names and paths, configs, losses, `training` propagation, freezing, and the errors of bad input."""

from __future__ import annotations

import numpy as np

from . import data, fixed_weights, outcome, program, val


def _fresh(tf):
    tf.keras.backend.clear_session()
    return tf.keras


def _strip_dtype(config):
    return {k: v for k, v in config.items() if k != "dtype"}


@program
def p_keras_dense_forward(tf):
    keras = _fresh(tf)
    dense = keras.layers.Dense(3, activation="relu")
    x = tf.constant(data((4, 5)))
    dense(x)
    fixed_weights(dense)
    rank3 = keras.layers.Dense(2)
    rank3(tf.constant(data((2, 3, 4))))
    fixed_weights(rank3, seed=3)
    return [val(dense(x)), val(rank3(tf.constant(data((2, 3, 4))))), dense.name, rank3.name,
            [w.name for w in dense.weights], [w.path for w in dense.weights], dense.count_params(),
            [list(w.shape) for w in rank3.get_weights()]]


@program
def p_keras_dense_in_function(tf):
    keras = _fresh(tf)
    dense = keras.layers.Dense(2, activation="tanh", use_bias=False)

    @tf.function
    def run(x):
        return dense(x) * 2.0

    first = run(tf.constant(data((3, 4))))
    fixed_weights(dense)
    return [val(first.shape), val(run(tf.constant(data((3, 4))))), len(dense.weights)]


@program
def p_keras_names(tf):
    keras = _fresh(tf)
    names = [keras.layers.Dense(1).name, keras.layers.Dense(1).name, keras.layers.ReLU().name,
             keras.layers.PReLU().name, keras.layers.LeakyReLU().name, keras.layers.Flatten().name,
             keras.layers.RepeatVector(2).name, keras.layers.Dense(1, name="mine").name, keras.layers.Dense(1).name]

    class MLPBlock(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.d1, self.d2 = keras.layers.Dense(2), keras.layers.Dense(1)

        def call(self, x):
            return self.d2(self.d1(x))

    block = MLPBlock()
    block(tf.ones([1, 3]))
    return names + [block.name, [w.path for w in block.weights], [w.name for w in block.weights]]


@program
def p_keras_tracking_containers(tf):
    keras = _fresh(tf)

    class Holder(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.blocks = [keras.layers.Dense(2), keras.layers.Dense(3)]
            self.by_name = {"head": keras.layers.Dense(1)}
            self.scale = self.add_weight(shape=(), initializer="ones", name="scale")
            self.counter = self.add_weight(shape=(), initializer="zeros", trainable=False, name="counter")

        def call(self, x):
            for block in self.blocks:
                x = block(x)
            return self.by_name["head"](x) * self.scale

    holder = Holder()
    holder(tf.ones([2, 4]))
    before = [len(holder.weights), len(holder.trainable_weights), len(holder.non_trainable_weights)]
    holder.blocks[0].trainable = False
    partly = [len(holder.trainable_weights), len(holder.non_trainable_weights)]
    holder.trainable = False
    frozen = [len(holder.trainable_weights), len(holder.non_trainable_weights), holder.blocks[1].trainable]
    return [before, partly, frozen, [w.path for w in holder.weights], holder.count_params()]


@program
def p_keras_training_propagation(tf):
    keras = _fresh(tf)
    seen = []

    class Inner(keras.layers.Layer):
        def call(self, x, training=None):
            seen.append(training)
            return x

    class Outer(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.inner = Inner()

        def call(self, x, training=None):
            seen.append(("outer", training))
            return self.inner(x)

    outer = Outer()
    x = tf.ones([1, 2])
    outer(x)
    outer(x, training=True)
    outer(x, training=False)
    outer.inner(x)
    return [str(s) for s in seen]


@program
def p_keras_dropout_training(tf):
    keras = _fresh(tf)
    drop = keras.layers.Dropout(0.5)
    x = tf.ones([4, 6])
    trained = drop(x, training=True).numpy()
    kept = trained[trained != 0]
    return [val(drop(x)), val(drop(x, training=False)), sorted(set(np.round(kept, 5).tolist())),
            drop.get_config()["rate"]]


@program
def p_keras_reshaping_layers(tf):
    keras = _fresh(tf)
    x = tf.constant(data((2, 3, 4)))
    return [val(keras.layers.Flatten()(x)), val(keras.layers.Reshape((4, 3))(x)),
            val(keras.layers.Reshape((-1, 2))(x)), val(keras.layers.Permute((2, 1))(x)),
            val(keras.layers.RepeatVector(2)(tf.constant(data((2, 3))))),
            val(keras.layers.Flatten()(tf.constant(data((3,)))))]


@program
def p_keras_merging_layers(tf):
    keras = _fresh(tf)
    a, b, c = tf.constant(data((2, 3))), tf.constant(data((2, 3), seed=1)), tf.constant(data((2, 3), seed=2))
    return [val(keras.layers.Add()([a, b, c])), val(keras.layers.Subtract()([a, b])),
            val(keras.layers.Multiply()([a, b])), val(keras.layers.Average()([a, b, c])),
            val(keras.layers.Maximum()([a, b])), val(keras.layers.Concatenate()([a, b])),
            val(keras.layers.Concatenate(axis=0)([a, c])), val(keras.layers.add([a, b])),
            val(keras.layers.concatenate([a, b], axis=1))]


@program
def p_keras_activation_layers(tf):
    keras = _fresh(tf)
    x = tf.constant(data((2, 5), scale=3.0))
    prelu = keras.layers.PReLU()
    prelu(x)
    fixed_weights(prelu)
    return [val(keras.layers.ReLU()(x)), val(keras.layers.ReLU(max_value=1.0, negative_slope=0.1, threshold=0.5)(x)),
            val(keras.layers.LeakyReLU()(x)), val(keras.layers.LeakyReLU(negative_slope=0.1)(x)), val(prelu(x)),
            val(keras.layers.ELU()(x)), val(keras.layers.ELU(alpha=0.5)(x)), val(keras.layers.Softmax()(x)),
            val(keras.layers.Softmax(axis=0)(x)), val(keras.layers.Activation("sigmoid")(x)),
            val(keras.layers.Activation("gelu")(x)), val(keras.layers.Activation("softplus")(x)),
            val(keras.layers.Activation("hard_sigmoid")(x)), val(keras.layers.Activation("swish")(x)),
            val(keras.layers.Rescaling(1 / 255.0, offset=-0.5)(x)),
            val(keras.layers.Lambda(lambda t, k: t * k, arguments={"k": 3.0})(x))]


@program
def p_keras_prelu_shared_axes(tf):
    keras = _fresh(tf)
    prelu = keras.layers.PReLU(shared_axes=[1, 2])
    x = tf.constant(data((2, 3, 4, 2), scale=2.0))
    prelu(x)
    fixed_weights(prelu)
    return [[list(w.shape) for w in prelu.get_weights()], val(prelu(x))]


@program
def p_keras_layer_configs(tf):
    keras = _fresh(tf)
    layers = [keras.layers.Dense(3, activation="relu", kernel_regularizer="l2", bias_constraint="non_neg"),
              keras.layers.Activation("tanh"), keras.layers.Dropout(0.25, seed=3), keras.layers.Flatten(),
              keras.layers.Reshape((2, 3)), keras.layers.Permute((2, 1)), keras.layers.RepeatVector(4),
              keras.layers.Concatenate(axis=1), keras.layers.Add(), keras.layers.ReLU(max_value=6.0),
              keras.layers.LeakyReLU(), keras.layers.PReLU(shared_axes=[1]), keras.layers.ELU(),
              keras.layers.Softmax(), keras.layers.Rescaling(0.5)]
    configs = [_strip_dtype(layer.get_config()) for layer in layers]
    rebuilt = [type(layer).from_config(layer.get_config()).get_config()["name"] for layer in layers]
    return [val(configs), rebuilt, layers[0].get_config()["dtype"]]


@program
def p_keras_initializers_configs(tf):
    keras = _fresh(tf)
    inits = [keras.initializers.GlorotUniform(seed=1), keras.initializers.GlorotNormal(), keras.initializers.HeNormal(),
             keras.initializers.HeUniform(), keras.initializers.LecunNormal(), keras.initializers.Orthogonal(gain=2.0),
             keras.initializers.RandomNormal(stddev=0.1), keras.initializers.RandomUniform(-1.0, 1.0),
             keras.initializers.TruncatedNormal(), keras.initializers.Zeros(), keras.initializers.Ones(),
             keras.initializers.Constant(3.0), keras.initializers.Identity()]
    return [[type(i).__name__, i.get_config()] for i in inits] + [
        val(keras.initializers.Ones()((2, 2))), val(keras.initializers.Constant(3.0)((2,))),
        val(keras.initializers.Identity()((2, 3))), val(keras.initializers.Zeros()((2,), dtype="float64")),
        type(keras.initializers.get("glorot_uniform")).__name__, type(keras.initializers.get("he_normal")).__name__]


@program
def p_keras_initializer_statistics(tf):
    keras = _fresh(tf)
    glorot = keras.initializers.GlorotUniform(seed=7)
    values = glorot((200, 300)).numpy()
    same = bool(np.array_equal(values, glorot((200, 300)).numpy()))
    limit = float(np.sqrt(6.0 / 500.0))
    he = keras.initializers.HeNormal(seed=3)((400, 500)).numpy()
    ortho = keras.initializers.Orthogonal(seed=2)((6, 4)).numpy()
    return [same, bool(np.abs(values).max() <= limit), bool(abs(values.std() - limit / np.sqrt(3)) < 0.002),
            bool(abs(he.std() - np.sqrt(2.0 / 400.0)) < 0.002),
            bool(np.abs(he).max() <= 2 * np.sqrt(2.0 / 400) / 0.87962566103423978 + 1e-6),
            bool(np.allclose(ortho.T @ ortho, np.eye(4), atol=1e-5))]


@program
def p_keras_regularizers_and_losses(tf):
    keras = _fresh(tf)
    dense = keras.layers.Dense(2, kernel_regularizer=keras.regularizers.L2(0.1),
                               bias_regularizer=keras.regularizers.L1(0.2), activity_regularizer="l1",
                               bias_initializer="ones")
    x = tf.constant(data((3, 4)))
    dense(x)
    fixed_weights(dense)
    dense(x)
    losses = [float(v) for v in dense.losses]

    class AddsLoss(keras.layers.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_sum(x))
            return x

    adder = AddsLoss()
    adder(tf.ones([2, 2]))
    adder(tf.ones([2, 3]))
    l1l2 = keras.regularizers.L1L2(l1=0.1, l2=0.2)
    return [losses, [float(v) for v in adder.losses], float(l1l2(tf.constant(data((3, 3))))),
            keras.regularizers.L1L2(l1=0.1).get_config(), keras.regularizers.L2().get_config(),
            keras.regularizers.get("l1").get_config()]


@program
def p_keras_constraints(tf):
    keras = _fresh(tf)
    w = tf.constant(data((3, 4), scale=3.0))
    return [val(keras.constraints.MaxNorm(1.5)(w)), val(keras.constraints.MaxNorm(2.0, axis=1)(w)),
            val(keras.constraints.NonNeg()(w)), val(keras.constraints.UnitNorm()(w)),
            val(keras.constraints.UnitNorm(axis=1)(w)), keras.constraints.MaxNorm(3).get_config(),
            keras.constraints.UnitNorm().get_config()]


@program
def p_keras_get_set_weights_errors(tf):
    keras = _fresh(tf)
    dense = keras.layers.Dense(2)
    dense(tf.ones([1, 3]))
    return [outcome(lambda: dense.set_weights([np.ones((3, 2))]), "expecting 2 weights"),
            outcome(lambda: dense.set_weights([np.ones((3, 2)), np.ones((3,))]), "not compatible"),
            outcome(lambda: keras.layers.Dense(2).count_params(), "isn't built")]


@program
def p_keras_input_spec_errors(tf):
    keras = _fresh(tf)
    dense = keras.layers.Dense(2)
    dense(tf.ones([1, 3]))
    return [outcome(lambda: dense(tf.ones([1, 4])), "expected axis -1 of input shape to have value 3"),
            outcome(lambda: dense(tf.ones([3])), "expected min_ndim=2, found ndim=1"),
            outcome(lambda: keras.layers.RepeatVector(2)(tf.ones([1, 2, 3])), "expected ndim=2, found ndim=3"),
            outcome(lambda: keras.layers.Subtract()([tf.ones([1, 2])] * 3), "exactly 2 inputs"),
            outcome(lambda: keras.layers.Concatenate()([tf.ones([1, 2, 3]), tf.ones([1, 3, 3])]),
                    "matching shapes except for the concatenation axis"),
            outcome(lambda: keras.layers.Dense(0), "units"),
            outcome(lambda: keras.layers.Dropout(1.5), "rate"),
            outcome(lambda: keras.layers.Activation("nope"), "Could not interpret activation")]


@program
def p_keras_autocast_and_numpy_inputs(tf):
    keras = _fresh(tf)
    dense = keras.layers.Dense(2, kernel_initializer="ones")
    out64 = dense(np.ones((2, 3)))
    out_t64 = dense(tf.ones([2, 3], tf.float64))
    d64 = keras.layers.Dense(2, kernel_initializer="ones", dtype="float64")
    return [val(out64), val(out_t64), val(d64(np.ones((1, 3), np.float32))), d64.dtype, dense.dtype]
