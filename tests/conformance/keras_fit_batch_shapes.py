"""The batch shapes fit, evaluate and predict trace with for numpy arrays: static when every batch is full
(Keras 3's array adapter), None when a short last batch exists; predict traces the full and the short batch."""

from __future__ import annotations

from . import program


@program
def p_batch_shapes_seen_by_a_layer_for_arrays(tf):
    import numpy as np

    out = []
    for n in (64, 70):
        class Probe(tf.keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.seen = []

            def call(self, x):
                self.seen.append(list(x.shape))
                return x

        probe = Probe()
        model = tf.keras.Sequential([tf.keras.Input((3,)), probe, tf.keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse")
        x, y = np.ones((n, 3), "float32"), np.ones((n, 1), "float32")
        model.fit(x, y, batch_size=32, epochs=1, verbose=0)
        model.evaluate(x, y, batch_size=32, verbose=0)
        model.predict(x, batch_size=32, verbose=0)
        out.append(probe.seen)
    return out


@program
def p_summary_of_a_decoder_built_in_fit(tf):
    import numpy as np

    tf.keras.utils.set_random_seed(4)
    decoder = tf.keras.Sequential([tf.keras.layers.Dense(4), tf.keras.layers.Reshape((2, 2))])
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(5), decoder])
    model.compile(optimizer="adam", loss="mse")
    model.fit(np.ones((64, 3), "float32"), np.ones((64, 2, 2), "float32"), batch_size=32, verbose=0)
    return [list(layer.output.shape) for layer in decoder.layers]
