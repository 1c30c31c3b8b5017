"""Programs from Keras' guides as TF 2.21 runs them: a Model subclass built from inputs and outputs with its own
train_step (the "customizing fit" guide), the metrics Keras lists, callbacks' test hooks during validation,
pad_sequences and masking, add_loss through inner layers, and RNN layers over a time axis of unknown length
(a while loop), with fixed weights."""

from __future__ import annotations

import numpy as np

from . import data, fixed_weights, program, val


@program
def p_keras_custom_train_step_subclass(tf):
    keras = tf.keras
    keras.backend.clear_session()

    class CustomModel(keras.Model):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compute_loss(y=y, y_pred=y_pred)
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply(grads, self.trainable_variables)
            for metric in self.metrics:
                if metric.name == "loss":
                    metric.update_state(loss)
                else:
                    metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

    inputs = keras.Input(shape=(4,))
    outputs = keras.layers.Dense(1)(inputs)
    model = CustomModel(inputs, outputs)
    fixed_weights(model)
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    x, y = data((12, 4), seed=3), data((12, 1), seed=4)
    history = model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    names_before = [m.name for m in CustomModel(inputs, outputs).metrics]
    return [model.name, type(model).__mro__[1].__name__, names_before, [m.name for m in model.metrics],
            val(history.history), val(model.evaluate(x, y, verbose=0)), val(model.get_metrics_result())]


@program
def p_keras_functional_subclass_with_init(tf):
    keras = tf.keras
    keras.backend.clear_session()

    class WithInit(keras.Model):
        def __init__(self, units, **kwargs):
            inputs = keras.Input(shape=(3,))
            super().__init__(inputs=inputs, outputs=keras.layers.Dense(units)(inputs), **kwargs)
            self.units = units

    first, second = WithInit(2), WithInit(3, name="named")
    fixed_weights(first)
    return [first.name, second.name, first.units, [tuple(w.shape) for w in second.weights],
            val(first(tf.constant(data((2, 3)))))]


@program
def p_keras_callback_test_hooks_in_fit(tf):
    keras = tf.keras
    keras.backend.clear_session()
    events = []

    class Recorder(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            events.append(["train_begin", sorted(logs)])

        def on_test_begin(self, logs=None):
            events.append(["test_begin", sorted(logs)])

        def on_test_batch_end(self, batch, logs=None):
            events.append(["test_batch_end", batch, sorted(logs)])

        def on_test_end(self, logs=None):
            events.append(["test_end", sorted(logs)])

        def on_epoch_end(self, epoch, logs=None):
            events.append(["epoch_end", epoch, sorted(logs)])

    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    fixed_weights(model)
    model.compile(optimizer="sgd", loss="mse", metrics=["mean_absolute_error"])
    x, y = data((8, 3)), data((8, 1), seed=1)
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, validation_split=0.5, shuffle=False, callbacks=[Recorder()])
    events.append(["evaluate"])
    result = model.evaluate(x, y, batch_size=8, verbose=0, callbacks=[Recorder()])
    return [events, val(result)]


@program
def p_keras_pad_sequences(tf):
    pad = tf.keras.utils.pad_sequences
    raw = [[711, 632, 71], [73, 8, 3215, 55, 927], [83, 91, 1, 645, 1253, 927]]
    out = [pad(raw), pad(raw, padding="post"), pad(raw, maxlen=4), pad(raw, maxlen=4, truncating="post"),
           pad(raw, maxlen=4, padding="post", value=-1), pad([[1.5, 2.5], [3.0]], dtype="float32"),
           pad([[], [1, 2]]), pad([[[1, 2], [3, 4]], [[5, 6]]])]
    errors = []
    for kwargs in [{"padding": "middle"}, {"truncating": "middle", "maxlen": 2}, {"value": "x"}]:
        try:
            pad(raw, **kwargs)
        except ValueError as error:
            errors.append(type(error).__name__)
    return [[[str(a.dtype), list(a.shape), a.tolist()] for a in out], errors,
            tf.keras.preprocessing.sequence.pad_sequences is pad]


@program
def p_keras_masking_guide(tf):
    keras = tf.keras
    keras.backend.clear_session()
    padded = keras.utils.pad_sequences([[711, 632, 71], [73, 8, 3215, 55, 927], [83, 91, 1, 645, 1253, 927]],
                                       padding="post")
    embedding = keras.layers.Embedding(input_dim=5000, output_dim=4, mask_zero=True)
    masked = embedding(padded)
    unmasked = tf.cast(tf.tile(tf.expand_dims(padded, axis=-1), [1, 1, 3]), tf.float32)
    masking = keras.layers.Masking()(unmasked)
    return [val(masked._keras_mask), val(masking._keras_mask), val(embedding.compute_mask(padded))]


@program
def p_keras_add_loss_inner_layer_calls(tf):
    keras = tf.keras
    keras.backend.clear_session()

    class ActivityRegularization(keras.layers.Layer):
        def __init__(self, rate=1e-2):
            super().__init__()
            self.rate = rate

        def call(self, inputs):
            self.add_loss(self.rate * tf.reduce_sum(inputs))
            return inputs

    class Outer(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.activity_reg = ActivityRegularization(1e-2)

        def call(self, inputs):
            return self.activity_reg(inputs)

    layer = Outer()
    counts = [len(layer.losses)]
    layer(tf.ones((1, 2)))
    counts.append(len(layer.losses))
    layer(tf.ones((1, 2)))
    counts.append(len(layer.losses))
    return [counts, val(layer.losses)]


def _text_model(keras, masked):
    inputs = keras.Input(shape=(None,), dtype="int32")
    x = keras.layers.Embedding(20, 3, mask_zero=masked)(inputs)
    x = keras.layers.LSTM(4, return_sequences=True)(x)
    x = keras.layers.GRU(3, go_backwards=True)(x)
    return keras.Model(inputs, keras.layers.Dense(1)(x))


@program
def p_keras_rnn_unknown_time_axis(tf):
    keras = tf.keras
    keras.backend.clear_session()
    tokens = np.array([[3, 4, 5, 0, 0], [7, 8, 0, 0, 0], [9, 10, 11, 12, 13]], "int32")
    results = []
    for masked in (True, False):
        model = fixed_weights(_text_model(keras, masked))
        results.append([list(model.output_shape), val(model(tokens)), val(model(tokens[:, :3]))])
    model = fixed_weights(_text_model(keras, True))
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(tokens, data((3, 1)), epochs=2, batch_size=3, shuffle=False, verbose=0)
    results.append(val(history.history))
    rnn = keras.layers.SimpleRNN(2, return_sequences=True, return_state=True)

    @tf.function(input_signature=[tf.TensorSpec([None, None, 3], tf.float32)])
    def run(x):
        return rnn(x)

    x = tf.constant(data((2, 4, 3), seed=5))
    rnn(x)
    fixed_weights(rnn)
    results.append([val(run(x)), val(rnn(x))])
    return results


def _ticket_model(keras):
    """The functional API guide's ticket model (smaller): three named inputs, a dict of two outputs."""
    layers = keras.layers
    title = keras.Input(shape=(None,), name="title")
    body = keras.Input(shape=(None,), name="body")
    tags = keras.Input(shape=(6,), name="tags")
    title_features = layers.LSTM(4)(layers.Embedding(20, 3)(title))
    body_features = layers.LSTM(2)(layers.Embedding(20, 3)(body))
    x = layers.concatenate([title_features, body_features, tags])
    return keras.Model(inputs=[title, body, tags],
                       outputs={"priority": layers.Dense(1, name="priority")(x),
                                "department": layers.Dense(3, name="department")(x)})


def _ticket_data(seed=0):
    rng = np.random.RandomState(seed)
    inputs = {"title": rng.randint(20, size=(16, 5)), "body": rng.randint(20, size=(16, 7)),
              "tags": rng.randint(2, size=(16, 6)).astype("float32")}
    targets = {"priority": rng.random_sample(size=(16, 1)), "department": rng.randint(2, size=(16, 3))}
    return inputs, targets


@program
def p_keras_functional_guide_multi_output_fit(tf):
    keras = tf.keras
    keras.backend.clear_session()
    keras.utils.set_random_seed(1)
    model = _ticket_model(keras)
    model.compile(optimizer=keras.optimizers.RMSprop(1e-2),
                  loss={"priority": keras.losses.BinaryCrossentropy(from_logits=True),
                        "department": keras.losses.CategoricalCrossentropy(from_logits=True)},
                  loss_weights={"priority": 1.0, "department": 0.2})
    inputs, targets = _ticket_data()
    before = model.evaluate(inputs, targets, batch_size=16, verbose=0)
    history = model.fit(inputs, targets, epochs=2, batch_size=8, shuffle=False, verbose=0)
    return [[layer.name for layer in model.layers], model.output_names, [m.name for m in model.metrics],
            val(before), val(history.history), val(model.evaluate(inputs, targets, verbose=0, return_dict=True)),
            val(model.train_on_batch(inputs, targets))]


@program
def p_keras_multi_output_list_losses_and_metric_order(tf):
    keras = tf.keras
    keras.backend.clear_session()
    keras.utils.set_random_seed(2)
    inputs, targets = _ticket_data(1)
    model = _ticket_model(keras)
    flat = keras.Model(model.inputs, [model.get_layer("priority").output, model.get_layer("department").output])
    flat.compile(optimizer="sgd", loss=["mse", keras.losses.CategoricalCrossentropy(from_logits=True)],
                 loss_weights=[0.5, 2.0])
    list_logs = flat.fit([inputs["title"], inputs["body"], inputs["tags"]],
                         [targets["priority"], targets["department"]], batch_size=16, verbose=0).history

    class Two(keras.Model):
        def __init__(self):
            super().__init__()
            self.a, self.b = keras.layers.Dense(1), keras.layers.Dense(2)

        def call(self, x):
            return [self.a(x), self.b(x)]

    two = Two()
    two.compile(optimizer="sgd", loss=["mse", "mae"])
    x = data((4, 3))
    two_logs = two.fit(x, [data((4, 1), seed=1), data((4, 2), seed=2)], epochs=1, verbose=0).history
    ordered = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    ordered.compile(optimizer="sgd", loss="mse", metrics=["mse", "accuracy"])
    return [flat.output_names, val(list_logs), sorted(two_logs), [m.name for m in two.metrics],
            [m.name for m in ordered.metrics], len(ordered.evaluate(x, data((4, 2)), verbose=0)),
            val(ordered.train_on_batch(x, data((4, 2), seed=3)))]


@program
def p_softmax_xent_gradient_with_labels_not_summing_to_one(tf):
    logits = tf.constant([[0.1, 0.2, 0.3, 0.4], [1.0, -1.0, 0.5, 0.0]])
    labels = tf.constant([[1.0, 1.0, 0.0, 0.0], [0.2, 0.2, 0.2, 0.2]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([logits, labels])
        op = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        keras_loss = tf.keras.losses.CategoricalCrossentropy(from_logits=True)(labels, logits)
    return [val(op), val(tape.gradient(op, [logits, labels])), val(tape.gradient(keras_loss, logits))]
