"""fit and evaluate trace their step with the batch dimension unknown (Keras 3 traces from the tf.data element
spec), so a short last batch reuses the trace; predict and fixed-size datasets keep their shapes. TF 2.21's
shapes are in tests/conformance/keras_fit_trace_shapes.py."""

import numpy as np
import pytest

import tinytf as tf


def _model(seen):
    class Recorder(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(2)

        def call(self, x):
            seen.append(tuple(x.shape))
            return self.dense(x)

    model = Recorder()
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    return model


def test_one_trace_serves_every_batch_size(passes):
    seen = []
    model = _model(seen)
    x = np.random.default_rng(0).standard_normal((11, 3)).astype("float32")
    y = np.zeros((11, 2), "float32")
    model.fit(x, y, batch_size=4, epochs=2, verbose=0)
    assert set(seen) == {(None, 3)}
    traces = model._train_function.experimental_get_tracing_count()
    seen.clear()
    model.fit(x, y, batch_size=5, epochs=1, verbose=0)
    model.evaluate(x, y, batch_size=2, verbose=0)
    model.evaluate(x, y, batch_size=6, verbose=0)
    assert model._train_function.experimental_get_tracing_count() == traces
    assert seen == [(None, 3)]  # evaluate's one trace
    assert model._test_function.experimental_get_tracing_count() == 1


def test_the_relaxed_trace_computes_what_fixed_shapes_compute():
    x = np.random.default_rng(1).standard_normal((10, 3)).astype("float32")
    y = np.random.default_rng(2).standard_normal((10, 2)).astype("float32")
    losses = []
    for run_eagerly in (False, True):
        tf.keras.utils.set_random_seed(9)
        model = _model([])
        model.compile(tf.keras.optimizers.SGD(0.1), "mse", run_eagerly=run_eagerly)
        losses.append(model.fit(x, y, batch_size=4, epochs=3, verbose=0, shuffle=False).history["loss"])
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-6)


@pytest.mark.parametrize("drop_remainder,expected", [(True, {(4, 3)}), (False, {(None, 3)})])
def test_datasets_keep_their_element_spec(drop_remainder, expected):
    seen = []
    model = _model(seen)
    x = np.ones((10, 3), "float32")
    dataset = tf.data.Dataset.from_tensor_slices((x, np.zeros((10, 2), "float32"))).batch(4, drop_remainder)
    model.fit(dataset, epochs=1, verbose=0)
    assert set(seen) == expected


def test_predict_traces_the_first_batch_then_relaxes():
    seen = []
    model = _model(seen)
    model(np.ones((1, 3), "float32"))  # built: predict's traces alone are counted
    seen.clear()
    model.predict(np.ones((10, 3), "float32"), batch_size=4, verbose=0)
    assert seen == [(4, 3), (None, 3)]
