"""fit ends by calling the optimizer's finalize_variable_values with the trainable weights (Keras 3): with
use_ema the weights take their moving averages. fit lists the weights for it only when the hook can do
something (use_ema, or a hook of the optimizer's own), since the listing walks the whole model."""

import numpy as np

import tinytf as tf

keras = tf.keras


def _data():
    rng = np.random.default_rng(5)
    return rng.standard_normal((12, 3)).astype(np.float32), rng.standard_normal((12, 1)).astype(np.float32)


def _model():
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, kernel_initializer="ones")])


def test_use_ema_leaves_the_moving_averages_in_the_weights():
    x, y = _data()
    model = _model()
    optimizer = keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5)
    model.compile(optimizer=optimizer, loss="mse")
    model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    plain = _model()
    plain.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    plain.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    # the same training, the EMA weights are the averages: not the last iterate the plain fit keeps
    assert not np.allclose(model.get_weights()[0], plain.get_weights()[0])
    assert len(optimizer._averages) == len(model.trainable_weights)
    for variable in model.trainable_weights:
        np.testing.assert_array_equal(variable.numpy(), optimizer._averages[variable.ref()].numpy())


def test_an_optimizers_own_finalize_hook_is_called_with_the_trainable_weights():
    calls = []

    class Finalizing(keras.optimizers.SGD):
        def finalize_variable_values(self, var_list):
            calls.append([v.name for v in var_list])

    x, y = _data()
    model = _model()
    model.compile(optimizer=Finalizing(0.1), loss="mse")
    model.fit(x, y, batch_size=4, epochs=1, verbose=0)
    assert calls == [[v.name for v in model.trainable_weights]]
    model.fit(x, y, batch_size=4, epochs=0, verbose=0)  # no epoch: no call, as in Keras 3
    assert len(calls) == 1
