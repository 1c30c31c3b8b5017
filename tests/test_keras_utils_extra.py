"""keras.utils PyDataset (batch order with worker threads, shuffled epochs, on_epoch_end, unbounded datasets),
Progbar's averaging of values, split_dataset's seeded shuffle and pack/unpack helpers. TF 2.21's numbers are
in tests/conformance/keras_utils_extra.py."""

from __future__ import annotations

import io
import random
import time

import numpy as np
import pytest

import tinytf as tf

keras = tf.keras


class Indexed(keras.utils.PyDataset):
    """Batch i is ([[i]], [[i]]), read slowly when asked so threads finish out of order."""

    def __init__(self, count, delays=None, **kwargs):
        super().__init__(**kwargs)
        self.count, self.delays, self.seen, self.ended = count, delays, [], 0

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        if self.delays:
            time.sleep(self.delays[index])
        self.seen.append(index)
        value = np.array([[float(index)]], np.float32)
        return value, value

    def on_epoch_end(self):
        self.ended += 1


class Identity(keras.Model):
    """Records the x of every batch its train step sees."""

    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)
        self.order = []

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        self.order.append(int(data[0].numpy()[0, 0]))
        return {}


@pytest.mark.parametrize("workers", [1, 3])
def test_batches_arrive_in_index_order_even_from_threads(workers):
    dataset = Indexed(6, delays=[0.02, 0.0, 0.01, 0.0, 0.015, 0.0], workers=workers, max_queue_size=4)
    model = Identity()
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    model.fit(dataset, epochs=2, verbose=0, shuffle=False)
    assert model.order == list(range(6)) * 2
    assert dataset.ended == 3  # once before the first epoch (Keras' iterator reset), then per epoch


def test_shuffle_permutes_batches_per_epoch():
    random.seed(0)
    model = Identity()
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    model.fit(Indexed(8), epochs=3, verbose=0, shuffle=True)
    epochs = [model.order[i:i + 8] for i in range(0, 24, 8)]
    assert all(sorted(e) == list(range(8)) for e in epochs)
    assert any(e != list(range(8)) for e in epochs)


def test_unbounded_dataset_stops_at_index_error():
    class Unbounded(keras.utils.PyDataset):
        num_batches = None

        def __getitem__(self, index):
            if index >= 3:
                raise IndexError(index)
            return np.ones((2, 1), np.float32), np.ones((2, 1), np.float32)

    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    assert model.predict(Unbounded(), verbose=0).shape == (6, 1)


def test_multiprocessing_runs_on_threads_with_a_warning():
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    with pytest.warns(UserWarning, match="threads"):
        model.fit(Indexed(3, workers=2, use_multiprocessing=True), verbose=0)


def test_progbar_averages_values_except_stateful_ones():
    out = io.StringIO()
    bar = keras.utils.Progbar(4, stateful_metrics=["acc"])
    bar.stream, bar.dynamic = out, False
    bar.update(1, [("loss", 1.0), ("acc", 0.1)])
    bar.add(3, [("loss", 3.0), ("acc", 0.9)])  # covers 3 steps: loss (1*1 + 3*3) / 4
    line = out.getvalue()
    assert line.startswith("4/4 ") and "loss: 2.5000" in line and "acc: 0.9000" in line


def test_split_dataset_shuffles_like_python_random():
    left, right = keras.utils.split_dataset(np.arange(10), left_size=4, shuffle=True, seed=5)
    expected = list(range(10))
    random.Random(5).shuffle(expected)
    assert [int(v) for v in left] == expected[:4] and [int(v) for v in right] == expected[4:]


def test_pack_and_unpack_round_trip():
    x, y, w = np.ones(2), np.zeros(2), np.ones(2)
    for packed in [keras.utils.pack_x_y_sample_weight(x), keras.utils.pack_x_y_sample_weight(x, y),
                   keras.utils.pack_x_y_sample_weight(x, y, w)]:
        unpacked = keras.utils.unpack_x_y_sample_weight(packed)
        assert unpacked[0] is x
