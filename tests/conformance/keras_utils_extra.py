"""keras.utils PyDataset (fit / evaluate / predict over it, on_epoch_end, worker threads), split_dataset (sizes,
fractions, seeded shuffles), pack_x_y_sample_weight / unpack_x_y_sample_weight and get_source_inputs against
Keras 3 on TF 2.21."""

from __future__ import annotations

import numpy as np

from . import data, fixed_weights, outcome, program, val


def _dataset_class(tf):
    class Batches(tf.keras.utils.PyDataset):
        def __init__(self, x, y, batch_size, weights=None, **kwargs):
            super().__init__(**kwargs)
            self.x, self.y, self.batch_size, self.weights = x, y, batch_size, weights
            self.ended = 0

        def __len__(self):
            return int(np.ceil(len(self.x) / self.batch_size))

        def __getitem__(self, index):
            part = slice(index * self.batch_size, (index + 1) * self.batch_size)
            if self.weights is not None:
                return self.x[part], self.y[part], self.weights[part]
            return self.x[part], self.y[part]

        def on_epoch_end(self):
            self.ended += 1

    return Batches


@program
def p_keras_utils_py_dataset_fit(tf):
    keras = tf.keras
    Batches = _dataset_class(tf)
    x, y = data((20, 3), seed=1), data((20, 2), seed=2)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    fixed_weights(model, seed=4)
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    train = Batches(x, y, 6, weights=np.linspace(0.5, 1.5, 20).astype("float32"), workers=2, max_queue_size=3)
    history = model.fit(train, epochs=3, verbose=0, shuffle=False, validation_data=Batches(x[:8], y[:8], 4))
    evaluated = model.evaluate(Batches(x, y, 7), verbose=0, return_dict=True)
    predicted = model.predict(Batches(x, y, 5), verbose=0)
    return {"history": {k: [round(v, 5) for v in vs] for k, vs in sorted(history.history.items())},
            "evaluate": {k: round(float(v), 5) for k, v in sorted(evaluated.items())},
            "predict": val(predicted), "ended": train.ended,
            "sequence_is_pydataset": keras.utils.Sequence is keras.utils.PyDataset,
            "attributes": [train.workers, train.use_multiprocessing, train.max_queue_size]}


@program
def p_keras_utils_split_dataset(tf):
    U = tf.keras.utils
    out = {}
    array = np.arange(20).reshape(10, 2)
    for name, kwargs in [("left_int", {"left_size": 7}), ("right_frac", {"right_size": 0.3}),
                         ("both", {"left_size": 0.5, "right_size": 0.2}),
                         ("shuffled", {"left_size": 6, "shuffle": True, "seed": 42})]:
        left, right = U.split_dataset(array, **kwargs)
        out[name] = [[e.numpy().tolist() for e in left], [e.numpy().tolist() for e in right]]
    left, right = U.split_dataset((np.arange(8), np.arange(8) * 10.0), left_size=0.75, shuffle=True, seed=7)
    out["tuple"] = [[[t.numpy().tolist() for t in e] for e in left], [[t.numpy().tolist() for t in e] for e in right]]
    left, right = U.split_dataset(tf.data.Dataset.from_tensor_slices(np.arange(6.0)), right_size=2)
    out["dataset"] = [[e.numpy().tolist() for e in left], [e.numpy().tolist() for e in right]]
    out["errors"] = {
        "none": outcome(lambda: U.split_dataset(array), "At least one of"),
        "too_big": outcome(lambda: U.split_dataset(array, left_size=10), "left_size"),
        "frac_sum": outcome(lambda: U.split_dataset(array, left_size=0.6, right_size=0.6), "greater than 1"),
        "type": outcome(lambda: U.split_dataset(array, left_size="5"), "Invalid `left_size` Type"),
        "bad_dataset": outcome(lambda: U.split_dataset(5, left_size=1), "Unsupported dataset type"),
    }
    return out


@program
def p_keras_utils_pack_unpack_and_sources(tf):
    U, keras = tf.keras.utils, tf.keras
    x, y, w = np.ones((2, 1)), np.zeros((2, 1)), np.ones(2)

    def kinds(value):
        return [type(v).__name__ for v in value] if isinstance(value, tuple) else type(value).__name__

    a, b = keras.Input((3,), name="first"), keras.Input((3,), name="second")
    mid = keras.layers.Dense(3)(a)
    out = keras.layers.Add()([mid, b, keras.layers.Dense(3)(mid)])
    return {
        "pack_x": kinds(U.pack_x_y_sample_weight(x)), "pack_xy": kinds(U.pack_x_y_sample_weight(x, y)),
        "pack_xyw": kinds(U.pack_x_y_sample_weight(x, y, w)),
        "pack_tuple_x": kinds(U.pack_x_y_sample_weight((x, x))),
        "unpack": [kinds(U.unpack_x_y_sample_weight(v)) for v in [x, (x,), (x, y), (x, y, w)]],
        "unpack_bad": outcome(lambda: U.unpack_x_y_sample_weight((x, y, w, w)), "Data is expected to be in format"),
        "sources": [t.name for t in U.get_source_inputs(out)],
        "sources_input": [t.name for t in U.get_source_inputs(a)],
    }
