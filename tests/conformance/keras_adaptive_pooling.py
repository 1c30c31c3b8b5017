"""keras.layers AdaptiveAveragePooling1D/2D/3D and AdaptiveMaxPooling1D/2D/3D against Keras 3 on TF 2.21:
output sizes that do and do not divide the input, channels_first, gradients inside tf.function, configs."""

from __future__ import annotations

from . import data, outcome, program, val


def _run(tf, layer, x, graph):
    def forward(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = layer(x)
            loss = tf.reduce_sum(out * out)
        return out, tape.gradient(loss, x)

    if graph:
        forward = tf.function(forward)
    out, grad = forward(x)
    return [val(out), val(grad)]


@program
def p_keras_adaptive_pooling(tf):
    L = tf.keras.layers
    x1, x2, x3 = (tf.constant(data(s, seed=i, scale=3.0)) for i, s in
                  enumerate([(2, 7, 3), (2, 5, 7, 2), (1, 5, 4, 6, 2)]))
    out = {}
    cases = {
        "avg1d_3": (L.AdaptiveAveragePooling1D(3), x1), "max1d_3": (L.AdaptiveMaxPooling1D(3), x1),
        "avg1d_tuple": (L.AdaptiveAveragePooling1D((4,)), x1), "max1d_7": (L.AdaptiveMaxPooling1D(7), x1),
        "avg2d": (L.AdaptiveAveragePooling2D((2, 3)), x2), "max2d": (L.AdaptiveMaxPooling2D((3, 4)), x2),
        "avg2d_int": (L.AdaptiveAveragePooling2D(2), x2),
        "avg2d_first": (L.AdaptiveAveragePooling2D((2, 3), data_format="channels_first"), x2),
        "max2d_first": (L.AdaptiveMaxPooling2D((2, 2), data_format="channels_first"), x2),
        "avg3d": (L.AdaptiveAveragePooling3D((2, 3, 4)), x3), "max3d": (L.AdaptiveMaxPooling3D(2), x3),
    }
    for i, (name, (layer, x)) in enumerate(cases.items()):
        out[name] = _run(tf, layer, x, graph=i % 2 == 1)
    out["shape"] = list(L.AdaptiveMaxPooling2D((3, 4)).compute_output_shape((None, 9, 9, 5)))
    out["config"] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in
                     L.AdaptiveAveragePooling2D((2, 3)).get_config().items() if k in ("output_size", "data_format")}
    out["bad_1d"] = outcome(lambda: L.AdaptiveAveragePooling1D((2, 3)), "must have length 1")
    out["bad_2d"] = outcome(lambda: L.AdaptiveMaxPooling2D((1, 2, 3)), "`output_size` must be an integer")
    out["bad_format"] = outcome(lambda: L.AdaptiveMaxPooling1D(2, data_format="nwc"), "Invalid data_format")
    return out
