"""TF's image segmentation tutorial (site/en/tutorials/images/segmentation.ipynb), small: fit over a tf.data
pipeline with class_weight, which Keras 3 turns into per-label sample weights by a map over the batches (a
mask of shape (batch, h, w, 1) weighs each pixel; one-hot labels by their argmax; plain labels as they are),
the errors for class_weight with sample weights or a Python generator, and the tutorial's own sample-weight
map (add_sample_weights)."""

from __future__ import annotations

import numpy as np

from . import outcome, program


def _masks(tf, n=8, size=6):
    k = np.arange(n * size * size).reshape(n, size, size)
    images = np.stack([np.sin(k * 0.3 + c) for c in range(3)], -1).astype("float32")
    masks = (np.abs(np.cos(k * 0.7)) * 2.99).astype("int64")[..., None]  # classes 0, 1, 2
    return images, masks


def _unet(tf, size=6):
    layers = tf.keras.layers
    inputs = layers.Input(shape=[size, size, 3])
    x = layers.Conv2D(4, 3, strides=2, padding="same", activation="relu")(inputs)
    x = layers.Conv2DTranspose(4, 3, strides=2, padding="same", use_bias=False)(x)
    x = layers.BatchNormalization()(x)
    x = layers.ReLU()(x)
    x = layers.Concatenate()([x, inputs])
    outputs = layers.Conv2D(3, 1)(x)
    model = tf.keras.Model(inputs, outputs)
    model.compile(optimizer="sgd", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    return model


def _fit(tf, data, **kwargs):
    tf.keras.utils.set_random_seed(2)
    model = _unet(tf)
    history = model.fit(data, epochs=2, verbose=0, **kwargs)
    return {k: np.round(v, 4).tolist() for k, v in sorted(history.history.items())}


@program
def p_tutorial_segmentation_class_weight_weighs_each_pixel(tf):
    images, masks = _masks(tf)
    data = tf.data.Dataset.from_tensor_slices((images, masks)).batch(4)
    plain = _fit(tf, data)
    weighted = _fit(tf, data, class_weight={0: 2.0, 1: 2.0, 2: 1.0})

    def add_sample_weights(image, label):
        class_weights = tf.constant([2.0, 2.0, 1.0])
        class_weights = class_weights / tf.reduce_sum(class_weights)
        sample_weights = tf.gather(class_weights, indices=tf.cast(label, tf.int32))
        return image, label, sample_weights

    by_map = _fit(tf, data.map(add_sample_weights))
    spec = data.map(add_sample_weights).element_spec
    return [plain, weighted, by_map, [s.shape.as_list() for s in spec], [s.dtype.name for s in spec]]


@program
def p_tutorial_segmentation_class_weight_on_one_hot_and_plain_labels(tf):
    tf.keras.utils.set_random_seed(3)
    x = np.linspace(-1, 1, 24, dtype="float32").reshape(8, 3)
    labels = np.array([0, 1, 2, 1, 0, 2, 2, 1])
    out = []
    for y, loss in ((np.eye(3, dtype="float32")[labels], "categorical_crossentropy"),
                    (labels.astype("float32"), "sparse_categorical_crossentropy")):
        tf.keras.utils.set_random_seed(3)
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(3, activation="softmax")])
        model.compile("sgd", loss)
        data = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
        history = model.fit(data, epochs=2, verbose=0, class_weight={0: 1.0, 1: 3.0, 2: 0.5})
        out.append(np.round(history.history["loss"], 5).tolist())
    return out


@program
def p_tutorial_segmentation_class_weight_errors(tf):
    x = np.ones((4, 3), "float32")
    y = np.zeros((4,), "float32")
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    model.compile("sgd", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    with_weights = tf.data.Dataset.from_tensor_slices((x, y, np.ones(4, "float32"))).batch(2)

    def generator():
        while True:
            yield x, y

    return [outcome(lambda: model.fit(with_weights, epochs=1, verbose=0, class_weight={0: 1.0, 1: 2.0}),
                    "class_weight"),
            outcome(lambda: model.fit(generator(), steps_per_epoch=1, epochs=1, verbose=0,
                                      class_weight={0: 1.0, 1: 2.0}), "generator")]


@program
def p_tutorial_segmentation_class_weight_on_a_py_dataset(tf):
    x = np.linspace(-1, 1, 24, dtype="float32").reshape(8, 3)
    labels = np.array([0, 1, 2, 1, 0, 2, 2, 1])

    class Batches(tf.keras.utils.PyDataset):
        def __init__(self, y, with_weights=False):
            super().__init__()
            self.y, self.with_weights = y, with_weights

        def __len__(self):
            return 2

        def __getitem__(self, i):
            batch = (x[4 * i:4 * i + 4], self.y[4 * i:4 * i + 4])
            return batch + (np.ones(4, "float32"),) if self.with_weights else batch

    out = []
    for y, loss in ((np.eye(3, dtype="float32")[labels], "categorical_crossentropy"),
                    (labels.astype("float32")[:, None], "sparse_categorical_crossentropy")):
        tf.keras.utils.set_random_seed(3)
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(3, activation="softmax")])
        model.compile("sgd", loss)
        history = model.fit(Batches(y), epochs=2, verbose=0, class_weight={0: 1.0, 1: 3.0, 2: 0.5})
        out.append(np.round(history.history["loss"], 5).tolist())
    out.append(outcome(lambda: model.fit(Batches(labels.astype("float32")[:, None], True), epochs=1, verbose=0,
                                         class_weight={0: 1.0}), "class_weight"))
    return out
