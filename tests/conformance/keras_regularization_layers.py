"""GaussianNoise, GaussianDropout, SpatialDropout1D/2D, ActivityRegularization, Identity and UnitNormalization
against Keras 3 on TF 2.21: inference values, configs, penalties, what training drops (whole channels), and the
default seeds they draw (a model mixing them starts from TF's weights)."""

from __future__ import annotations

import numpy as np

from . import data, program, val


@program
def p_keras_regularization_layers(tf):
    keras = tf.keras
    layers = keras.layers
    keras.backend.clear_session()
    keras.utils.set_random_seed(6)
    x = tf.constant(data((4, 5, 6)))
    results = []
    for layer in [layers.GaussianNoise(0.5), layers.GaussianDropout(0.3), layers.SpatialDropout1D(0.5),
                  layers.SpatialDropout2D(0.4, data_format="channels_first")]:
        inference = layer(x if not isinstance(layer, layers.SpatialDropout2D) else tf.expand_dims(x, 1),
                          training=False)
        config = layer.get_config()
        config.pop("dtype", None)
        results.append([type(layer).__name__, val(inference), config])
    penalty = layers.ActivityRegularization(l1=0.1, l2=0.01)
    passed = penalty(x)
    unit = layers.UnitNormalization()
    results.append([val(passed), val(penalty.losses), val(layers.Identity()(x)), val(unit(x)),
                    val(layers.UnitNormalization(axis=[1, 2])(x)), unit.get_config()["axis"]])
    dropped = layers.SpatialDropout1D(0.5)(x, training=True).numpy()
    maps = layers.SpatialDropout2D(0.5)(tf.ones((2, 3, 3, 4)), training=True).numpy()
    noisy = layers.GaussianNoise(0.2)(x, training=True).numpy()
    results.append([bool(np.all((dropped == 0).all(1) | (dropped != 0).all(1))),
                    bool(np.all((maps == 0).all((1, 2)) | (maps != 0).all((1, 2)))),
                    sorted(set(np.unique(maps).round(4).tolist())), bool(np.any(noisy != x.numpy()))])
    errors = []
    for make in (lambda: layers.GaussianNoise(1.5), lambda: layers.GaussianDropout(-0.1),
                 lambda: layers.SpatialDropout1D(0.2)(tf.ones((2, 3)))):
        try:
            make()
        except ValueError as error:
            errors.append(type(error).__name__)
    keras.utils.set_random_seed(7)
    model = keras.Sequential([keras.Input((6,)), layers.GaussianNoise(0.1), layers.Dense(2),
                              layers.GaussianDropout(0.2), layers.Dense(1)])
    return [results, errors, [val(w) for w in model.get_weights()]]
