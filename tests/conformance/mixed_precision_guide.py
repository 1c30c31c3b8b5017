"""TF's mixed precision guide (tensorflow.org/guide/mixed_precision) at a small size, as TF 2.21 (Keras 3) runs
it: the global "mixed_float16" policy, the dtypes a Dense layer computes and keeps its kernel in, a float32
softmax on top, compile() wrapping the optimizer in a LossScaleOptimizer, fit/evaluate losses, and the guide's
custom training loop with the loss scaled and the gradients unscaled by the optimizer. The guide's MNIST data is
replaced by a seeded synthetic set (no downloads here); its 4096 units by 64 (numpy's float16 is slow)."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


def _dtype(dtype) -> str:
    """A dtype as its name: Keras 3 reports strings, tf.DType has .name."""
    return getattr(dtype, "name", dtype)


def _data():
    rng = np.random.default_rng(7)
    x = rng.random((320, 48)).astype("float32")
    labels = (x[:, :10].argmax(axis=1) + (x[:, 20] > 0.5)) % 10
    return x, labels.astype("int64")


def _round(values, digits=3):
    return [round(float(v), digits) for v in values]


def _guide_model(tf, units=64):
    keras, layers = tf.keras, tf.keras.layers
    inputs = keras.Input(shape=(48,), name="digits")
    dense1 = layers.Dense(units, activation="relu", name="dense_1")
    x = dense1(inputs)
    dense2 = layers.Dense(units, activation="relu", name="dense_2")
    x = dense2(x)
    x = layers.Dense(10, name="dense_logits")(x)
    outputs = layers.Activation("softmax", dtype="float32", name="predictions")(x)
    return keras.Model(inputs=inputs, outputs=outputs), dense1, x, outputs


@program
def p_guide_policy_dtypes(tf):
    mixed_precision = tf.keras.mixed_precision
    policy = mixed_precision.Policy("mixed_float16")
    mixed_precision.set_global_policy(policy)
    try:
        model, dense1, logits, outputs = _guide_model(tf)
        return {"policy": str(policy), "compute": policy.compute_dtype, "variable": policy.variable_dtype,
                "global": str(mixed_precision.global_policy()), "dense1_policy": str(dense1.dtype_policy),
                "x_dtype": _dtype(logits.dtype), "kernel_dtype": _dtype(dense1.kernel.dtype),
                "outputs_dtype": _dtype(outputs.dtype), "dense1_dtype": dense1.dtype,
                "compute_dtype": dense1.compute_dtype, "variable_dtype": dense1.variable_dtype,
                "model_policy": str(model.dtype_policy)}
    finally:
        mixed_precision.set_global_policy("float32")


@program
def p_guide_fit_with_loss_scaling(tf):
    tf.keras.utils.set_random_seed(3)
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        model = _guide_model(tf)[0]
        model.compile(loss="sparse_categorical_crossentropy", optimizer=tf.keras.optimizers.RMSprop(),
                      metrics=["accuracy"])
        x, y = _data()
        history = model.fit(x, y, batch_size=64, epochs=3, validation_split=0.2, shuffle=False, verbose=0)
        scores = model.evaluate(x[:64], y[:64], verbose=0)
        predictions = model.predict(x[:4], verbose=0)
        optimizer = model.optimizer
        return {"optimizer": type(optimizer).__name__, "optimizer_name": optimizer.name,
                "inner": type(optimizer.inner_optimizer).__name__,
                "scale": float(optimizer.dynamic_scale.numpy()),
                # float16 sums (bias gradients, Dense over the batch) are added in another order than TF's Eigen
                # half-precision reduction, so the numbers agree to about 1e-3: compared at two decimals
                "loss": _round(history.history["loss"], 2), "val_loss": _round(history.history["val_loss"], 2),
                "evaluate_loss": round(float(scores[0]), 2), "predictions_dtype": str(predictions.dtype),
                "prediction_rows": _round(predictions.sum(axis=1), 3),
                "kernel_dtypes": sorted({_dtype(w.dtype) for w in model.weights})}
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")


@program
def p_guide_custom_training_loop(tf):
    tf.keras.utils.set_random_seed(4)
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        model = _guide_model(tf, units=32)[0]
        optimizer = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.RMSprop())
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy()

        @tf.function
        def train_step(x, y):
            with tf.GradientTape() as tape:
                predictions = model(x)
                loss = loss_object(y, predictions)
                scaled_loss = optimizer.scale_loss(loss)
            scaled_gradients = tape.gradient(scaled_loss, model.trainable_variables)
            optimizer.apply_gradients(zip(scaled_gradients, model.trainable_variables))
            grad_dtypes.update(_dtype(g.dtype) for g in scaled_gradients)  # at trace time
            return loss, scaled_loss

        x, y = _data()
        losses, scaled, grad_dtypes = [], [], set()
        for step in range(6):
            loss, scaled_loss = train_step(tf.constant(x[step * 32:(step + 1) * 32]),
                                                        tf.constant(y[step * 32:(step + 1) * 32]))
            losses.append(float(loss))
            scaled.append(float(scaled_loss) / 32768.0)
        return {"loss": _round(losses), "scaled_over_scale": _round(scaled),
                "grad_dtypes": sorted(grad_dtypes),
                "scale": float(optimizer.dynamic_scale.numpy()), "iterations": int(optimizer.iterations.numpy())}
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")


@program
def p_policy_api_and_errors(tf):
    keras = tf.keras
    mp, policies = keras.mixed_precision, keras.dtype_policies
    bf = policies.DTypePolicy("mixed_bfloat16")
    out = {"bf16": [str(bf), bf.compute_dtype, bf.variable_dtype, bf.quantization_mode],
           "equal": [bf == policies.DTypePolicy("mixed_bfloat16"), bf == policies.DTypePolicy("float32"),
                     policies.FloatDTypePolicy("float64") == policies.DTypePolicy("float64")],
           "float_alias": str(policies.FloatDTypePolicy("float64")),
           "int": [policies.DTypePolicy("int32").compute_dtype, policies.DTypePolicy("int32").variable_dtype],
           "default": str(policies.DTypePolicy()), "config": policies.DTypePolicy("mixed_float16").get_config(),
           "serialize": policies.serialize(bf), "get": [str(policies.get("float16")), str(policies.get(None)),
                                                         str(policies.get(tf.float64))],
           "deserialize": str(policies.deserialize({"module": "keras", "class_name": "DTypePolicy",
                                                    "config": {"name": "mixed_float16"},
                                                    "registered_name": None})),
           "same_functions": [mp.Policy is mp.DTypePolicy, mp.dtype_policy is keras.config.dtype_policy,
                              mp.set_global_policy is keras.config.set_dtype_policy],
           "errors": [outcome(lambda: policies.DTypePolicy(5), "must be a string"),
                      outcome(lambda: policies.DTypePolicy("int8x"), "Cannot convert"),
                      outcome(lambda: mp.set_global_policy(5), "Invalid `policy` argument"),
                      outcome(lambda: mp.set_global_policy(None), "Invalid `policy` argument")]}
    keras.config.set_dtype_policy("mixed_bfloat16")
    try:
        out["global_bf16"] = [str(keras.config.dtype_policy()), str(keras.layers.Dense(2).dtype_policy),
                              str(keras.layers.Dense(2, dtype="float32").dtype_policy)]
    finally:
        keras.config.set_dtype_policy("float32")
    keras.config.set_floatx("float64")
    try:
        keras.config.set_dtype_policy("float64")
        out["floatx64"] = str(keras.config.dtype_policy())
    finally:
        keras.config.set_floatx("float32")
        keras.config.set_dtype_policy("float32")
    return out


@program
def p_layer_policy_autocast_and_config(tf):
    keras = tf.keras
    layer = keras.layers.Dense(3, dtype=keras.mixed_precision.Policy("mixed_float16"),
                               kernel_initializer="ones", bias_initializer="ones")
    y = layer(tf.constant([[0.5, 1.25]], tf.float64))
    ints = keras.layers.Dense(2, dtype="mixed_float16", kernel_initializer="ones")(tf.constant([[1, 2]]))
    config = layer.get_config()
    clone = keras.layers.Dense.from_config(config)
    seen = {}

    class Probe(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(2, 2), initializer="ones")
            self.count = self.add_weight(shape=(), initializer="zeros", trainable=False)
            self.keep = self.add_weight(shape=(2,), initializer="ones", autocast=False)

        def call(self, x):
            seen["x"] = _dtype(x.dtype)
            seen["w"] = _dtype(self.w.dtype)
            seen["w_read"] = _dtype(tf.convert_to_tensor(self.w).dtype)
            seen["keep"] = _dtype(self.keep.dtype)
            self.count.assign_add(tf.cast(tf.reduce_sum(x), x.dtype))
            return tf.matmul(x, self.w) + tf.cast(self.keep, x.dtype)

    probe = Probe(dtype="mixed_bfloat16")
    out = probe(np.ones((1, 2), "float32"))
    traced = tf.function(lambda v: probe(v))(tf.ones((1, 2)))
    layer.dtype_policy = "float64"
    return {"y": [_dtype(y.dtype), _round(tf.cast(y, tf.float32).numpy().ravel())], "int_input": _dtype(ints.dtype),
            "config_dtype": config["dtype"], "clone_policy": str(clone.dtype_policy), "seen": seen,
            "probe": [_dtype(out.dtype), _dtype(traced.dtype), _dtype(probe.count.dtype),
                      round(float(probe.count.numpy()), 3), _dtype(probe.w.dtype)],
            "reset": [str(layer.dtype_policy), layer.compute_dtype]}


@program
def p_policy_saved_in_model_config(tf):
    keras = tf.keras
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, dtype="mixed_float16"),
                              keras.layers.Activation("softmax", dtype="float32")])
    restored = keras.Sequential.from_config(model.get_config())
    json_model = keras.models.model_from_json(model.to_json())
    model.compile("sgd", "mse")
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        mixed = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        mixed.compile(keras.optimizers.SGD(), "mse")
        wrapped = type(mixed.optimizer).__name__
        mixed.compile(keras.optimizers.SGD(), "mse", auto_scale_loss=False)
        unwrapped = type(mixed.optimizer).__name__
        mixed_out = _dtype(mixed(tf.ones([2, 3])).dtype)
    finally:
        keras.mixed_precision.set_global_policy("float32")
    return {"layer_policies": [str(layer.dtype_policy) for layer in restored.layers],
            "json_policies": [str(layer.dtype_policy) for layer in json_model.layers],
            "float32_model_optimizer": type(model.optimizer).__name__, "model_policy": str(model.dtype_policy),
            "mixed": [wrapped, unwrapped, mixed_out], "out": val(restored(np.ones((1, 3), "float32")).dtype)}
