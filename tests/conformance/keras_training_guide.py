"""TF's "Training & evaluation with the built-in methods" guide on TF 2.21, with default weights after
keras.utils.set_random_seed (Keras' seeds): custom loss functions and Loss classes, a custom Metric, add_loss in
a layer, class and sample weights, a learning-rate schedule, datasets for training and validation."""

from __future__ import annotations

import numpy as np

from . import program, val


def _digits_model(keras):
    layers = keras.layers
    inputs = keras.Input(shape=(16,), name="digits")
    x = layers.Dense(16, activation="relu", name="dense_1")(inputs)
    x = layers.Dense(16, activation="relu", name="dense_2")(x)
    return keras.Model(inputs=inputs, outputs=layers.Dense(10, activation="softmax", name="predictions")(x))


def _digits():
    rng = np.random.RandomState(0)
    return rng.rand(200, 16).astype("float32"), rng.randint(0, 10, 200)


@program
def p_keras_guide_custom_losses_and_metrics(tf):
    keras = tf.keras
    keras.backend.clear_session()
    keras.utils.set_random_seed(2)
    x, y = _digits()
    one_hot = tf.one_hot(y, depth=10)

    def custom_mean_squared_error(y_true, y_pred):
        return tf.math.reduce_mean(tf.square(y_true - y_pred), axis=-1)

    class CustomMSE(keras.losses.Loss):
        def __init__(self, regularization_factor=0.1, name="custom_mse"):
            super().__init__(name=name)
            self.regularization_factor = regularization_factor

        def call(self, y_true, y_pred):
            mse = tf.math.reduce_mean(tf.square(y_true - y_pred), axis=-1)
            return mse + tf.math.reduce_mean(tf.square(0.5 - y_pred), axis=-1) * self.regularization_factor

    class CategoricalTruePositives(keras.metrics.Metric):
        def __init__(self, name="categorical_true_positives", **kwargs):
            super().__init__(name=name, **kwargs)
            self.true_positives = self.add_variable(shape=(), name="ctp", initializer="zeros")

        def update_state(self, y_true, y_pred, sample_weight=None):
            y_pred = tf.reshape(tf.argmax(y_pred, axis=1), (-1, 1))
            values = tf.cast(tf.cast(y_true, "int32") == tf.cast(y_pred, "int32"), "float32")
            if sample_weight is not None:
                values = tf.multiply(values, tf.cast(sample_weight, "float32"))
            self.true_positives.assign_add(tf.reduce_sum(values))

        def result(self):
            return self.true_positives

        def reset_state(self):
            self.true_positives.assign(0.0)

    results = []
    for loss in (custom_mean_squared_error, CustomMSE()):
        model = _digits_model(keras)
        model.compile(optimizer=keras.optimizers.Adam(), loss=loss)
        results.append(val(model.fit(x, one_hot, batch_size=64, epochs=1, shuffle=False, verbose=0).history))
    model = _digits_model(keras)
    model.compile(optimizer=keras.optimizers.RMSprop(learning_rate=1e-3),
                  loss=keras.losses.SparseCategoricalCrossentropy(), metrics=[CategoricalTruePositives()])
    results.append(val(model.fit(x, y, batch_size=64, epochs=2, shuffle=False, verbose=0).history))
    return results


@program
def p_keras_guide_weights_schedules_and_datasets(tf):
    keras = tf.keras
    layers = keras.layers
    keras.backend.clear_session()
    keras.utils.set_random_seed(3)
    x, y = _digits()

    class ActivityRegularizationLayer(layers.Layer):
        def call(self, inputs):
            self.add_loss(tf.reduce_sum(inputs) * 0.1)
            return inputs

    inputs = keras.Input(shape=(16,), name="digits")
    hidden = ActivityRegularizationLayer()(layers.Dense(16, activation="relu", name="dense_1")(inputs))
    outputs = layers.Dense(10, name="predictions")(layers.Dense(16, activation="relu", name="dense_2")(hidden))
    model = keras.Model(inputs=inputs, outputs=outputs)
    model.compile(optimizer=keras.optimizers.RMSprop(learning_rate=1e-3),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    results = [val(model.fit(x, y, batch_size=64, epochs=1, shuffle=False, verbose=0).history)]
    class_weight = {i: 1.0 for i in range(10)}
    class_weight[5] = 2.0
    sample_weight = np.ones(shape=(len(y),))
    sample_weight[y == 5] = 2.0
    for weights in ({"class_weight": class_weight}, {"sample_weight": sample_weight}):
        model = _digits_model(keras)
        model.compile(optimizer=keras.optimizers.RMSprop(learning_rate=1e-3), loss="sparse_categorical_crossentropy",
                      metrics=["sparse_categorical_accuracy"])
        results.append(val(model.fit(x, y, batch_size=64, epochs=1, shuffle=False, verbose=0, **weights).history))
    schedule = keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=2, decay_rate=0.96, staircase=True)
    model = _digits_model(keras)
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=schedule), loss="sparse_categorical_crossentropy")
    model.fit(x, y, batch_size=64, epochs=2, shuffle=False, verbose=0)
    results.append([round(float(model.optimizer.learning_rate), 6), int(model.optimizer.iterations)])
    train = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
    validation = tf.data.Dataset.from_tensor_slices((x[-40:], y[-40:])).batch(64)
    model = _digits_model(keras)
    model.compile(optimizer="rmsprop", loss="sparse_categorical_crossentropy", metrics=["sparse_categorical_accuracy"])
    history = model.fit(train, epochs=1, validation_data=validation, shuffle=False, verbose=0)
    results.append([val(history.history), val(model.evaluate(validation, verbose=0, return_dict=True))])
    return results
