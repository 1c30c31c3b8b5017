"""keras.Function, keras.remat, keras.RematScope and keras.optimizers.legacy as TF 2.21's Keras 3 has them:
a Function of ops and layers between KerasTensors called eagerly and in tf.function, remat's values and
gradients, a RematScope around a model (the same numbers), and the legacy optimizers' ImportError."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


@program
def p_keras_function_of_ops_and_layers(tf):
    keras = tf.keras
    input_1 = keras.KerasTensor(shape=(None, 2, 3))
    input_2 = keras.KerasTensor(shape=(None, 2, 3))
    output = keras.ops.sigmoid(input_1 + input_2)
    fn = keras.Function(inputs=[input_1, input_2], outputs=output)
    a, b = data((4, 2, 3)), data((4, 2, 3), seed=1)
    inputs = keras.Input((3,))
    dense = keras.layers.Dense(2)
    hidden = dense(inputs)
    dense.set_weights([data((3, 2), seed=2), data((2,), seed=3)])
    both = keras.Function(inputs, {"h": hidden, "total": keras.ops.sum(keras.ops.relu(hidden), axis=-1)})
    x = data((2, 3), seed=4)
    traced = tf.function(lambda v: both(v))(tf.constant(x))
    return [val(fn([a, b])), {k: val(v) for k, v in sorted(both(x).items())},
            {k: val(v) for k, v in sorted(traced.items())}]


@program
def p_keras_remat_values_and_gradients(tf):
    def f(x):
        return tf.sin(x) * x ** 2

    x = tf.constant([0.5, -1.0, 2.0])
    remat_f = tf.keras.remat(f)

    def grad(fn, at):
        with tf.GradientTape() as tape:
            tape.watch(at)
            y = tf.reduce_sum(fn(at))
        return tape.gradient(y, at)

    # (the traced form takes x as its argument: tinytf's recompute_grad loses the gradient of a tensor the
    # tf.function captures from outside, a known difference of tf.recompute_grad, not of keras.remat)
    return [val(remat_f(x)), val(grad(remat_f, x)), val(grad(f, x)),
            val(tf.function(lambda v: grad(remat_f, v))(x))]


@program
def p_keras_remat_scope(tf):
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    model.set_weights([data((3, 4)), data((4,), seed=1), data((4, 1), seed=2), data((1,), seed=3)])
    x = data((2, 3), seed=5)
    outside = model(x)
    with tf.keras.RematScope(mode="full") as scope:
        inside = model(x)
        with tf.keras.RematScope(mode="larger_than", output_size_threshold=10):
            nested = model(x)
    return [val(outside), val(inside), val(nested), scope.mode, scope.output_size_threshold, scope.layer_names,
            outcome(lambda: tf.keras.RematScope(mode="everything"), "Invalid mode 'everything'")]


@program
def p_keras_legacy_optimizers_refuse(tf):
    legacy = tf.keras.optimizers.legacy
    return [outcome(lambda cls=cls: cls(0.1), "`keras.optimizers.legacy` is not supported in Keras 3")
            for cls in (legacy.Adam, legacy.SGD, legacy.RMSprop, legacy.Adagrad, legacy.Ftrl, legacy.Optimizer)]


@program
def p_keras_function_errors(tf):
    keras = tf.keras
    a, b = keras.KerasTensor(shape=(None, 2)), keras.KerasTensor(shape=(None, 2))
    out = keras.ops.add(a, b)
    return [outcome(lambda: keras.Function([a], out), "Graph disconnected: cannot find parent for tensor"),
            outcome(lambda: keras.Function([a, b], np.ones(2)), "has no attribute '_keras_history'")]


@program
def p_preprocessing_image_smart_resize(tf):
    smart_resize = tf.keras.preprocessing.image.smart_resize
    image = data((6, 9, 2), scale=100.0)
    batch = data((2, 5, 4, 3), seed=1, scale=10.0)
    uint8 = (np.arange(4 * 6 * 1) % 251).astype("uint8").reshape(4, 6, 1)
    first = np.transpose(image, (2, 0, 1))
    out = [val(smart_resize(image, (4, 4))), val(smart_resize(batch, (3, 5), interpolation="nearest")),
           val(smart_resize(tf.constant(image), (3, 6))), val(smart_resize(uint8, (2, 2))),
           val(smart_resize(first, (4, 4), data_format="channels_first")),
           outcome(lambda: smart_resize(np.ones((4, 4)), (2, 2)), "Expected an image array with shape"),
           outcome(lambda: smart_resize(image, (2, 2, 2)), "Expected `size` to be a tuple of 2 integers")]
    pre = tf.keras.preprocessing
    out.append([pre.image_dataset_from_directory is tf.keras.utils.image_dataset_from_directory,
                pre.image.load_img is tf.keras.utils.load_img, pre.image.array_to_img is tf.keras.utils.array_to_img])
    return out
