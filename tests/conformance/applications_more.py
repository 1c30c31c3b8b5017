"""ConvNeXt, EfficientNetV2, NASNet and InceptionResNetV2 as TF 2.21 (Keras 3) builds them: layers (names,
classes, order), Operations, weights, parameter counts, summary() text and a forward pass with deterministic
weights at a small input size, the argument checks and each family's preprocess_input. The large variants are
in tests/test_applications_large.py (their weights take too long to initialize here)."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val
from .keras_applications import _structure, _summary, deterministic_weights

# A fixed pattern of 3-decimal sines of prime length: weights cut from it are as deterministic and as
# numpy-version-independent as `data`'s, without computing a sine per weight (InceptionResNetV2 has 54 million).
_PATTERN = np.round(np.sin(np.arange(65521) * 1.37), 3).astype("float32")


def tiled_weights(model):
    """deterministic_weights' recipe with each weight's values cut from _PATTERN at an offset of its own."""
    values = []
    for i, w in enumerate(model.weights):
        shape = tuple(w.shape)
        size, start = int(np.prod(shape)), (i * 7919) % len(_PATTERN)
        base = np.tile(_PATTERN, (start + size) // len(_PATTERN) + 1)[start:start + size].reshape(shape)
        if "variance" in w.name:
            values.append(1.0 + 0.5 * np.abs(base))
        elif len(shape) >= 2:
            values.append(base * np.float32(1.7 / np.sqrt(np.prod(shape[:-1]))))
        else:
            values.append(np.float32(0.1) * base)
    model.set_weights(values)
    return model


def _forward(builder, shape=(2, 32, 32, 3), weights=deterministic_weights, **kwargs):
    """One builder's structure, its Operations and its forward pass with deterministic weights."""
    def run(tf):
        model = getattr(tf.keras.applications, builder)(weights=None, input_shape=shape[1:], **kwargs)
        weights(model)
        return {"structure": _structure(model), "output": val(model(data(shape, scale=2.0), training=False)),
                "operations": [[op.name, type(op).__name__] for op in model.operations
                               if not isinstance(op, tf.keras.layers.Layer)]}

    run.__name__ = f"p_applications_{builder.lower()}_forward"
    run.__module__ = __name__
    return program(run)


_forward("ConvNeXtTiny", shape=(1, 32, 32, 3), classes=3, classifier_activation=None)
_forward("EfficientNetV2B0", shape=(2, 32, 32, 3), classes=5, classifier_activation=None)
_forward("EfficientNetV2B1", shape=(1, 32, 32, 3), include_top=False, pooling="max")
_forward("EfficientNetV2B2", shape=(1, 33, 35, 3), classes=3)
_forward("NASNetMobile", shape=(1, 32, 32, 3), classes=4, classifier_activation=None)
# 54 million weights: cut from a pattern (tiled_weights), the program runs in a third of the time
_forward("InceptionResNetV2", shape=(1, 75, 75, 3), weights=tiled_weights, include_top=False, pooling="avg")


@program
def p_applications_more_operations(tf):
    """The Operations of ConvNeXt's residual `inputs + layer(x)`, listed by model.operations only."""
    model = tf.keras.applications.ConvNeXtTiny(weights=None, include_top=False, input_shape=(32, 32, 3))
    ops = [[op.name, type(op).__name__] for op in model.operations if not isinstance(op, tf.keras.layers.Layer)]
    nested = model.get_layer("convnext_tiny_stem")
    return {"operations": ops, "stem": [[layer.name, type(layer).__name__] for layer in nested.layers],
            "output": list(model.output.shape)}


@program
def p_applications_more_summaries(tf):
    A = tf.keras.applications
    return {"convnext": _summary(A.ConvNeXtTiny(weights=None, input_shape=(32, 32, 3), classes=3)),
            "nasnet_top": _summary(A.NASNetMobile(weights=None, input_shape=(32, 32, 3), classes=3))[-40:]}


@program
def p_applications_more_argument_errors(tf):
    A = tf.keras.applications
    return {
        "convnext_weights": outcome(lambda: A.ConvNeXtTiny(weights="no/such/file.h5"), "`weights` argument"),
        "convnext_classes": outcome(lambda: A.ConvNeXtSmall(classes=10), "`classes` should be 1000"),
        "convnext_small": outcome(lambda: A.ConvNeXtTiny(weights=None, input_shape=(16, 40, 3)), "at least 32x32"),
        "v2_classes": outcome(lambda: A.EfficientNetV2S(classes=3), "`classes` should be 1000"),
        "v2_weights": outcome(lambda: A.EfficientNetV2B0(weights="nowhere"), "`weights` argument"),
        "v2_shape": outcome(lambda: A.EfficientNetV2B1(weights=None, input_shape=(20, 64, 3)), "at least 32x32"),
        "nasnet_classes": outcome(lambda: A.NASNetMobile(classes=3), "`classes` should be 1000"),
        "nasnet_shape": outcome(lambda: A.NASNetMobile(input_shape=(200, 200, 3)), "`input_shape` should be"),
        "nasnet_dynamic": outcome(lambda: A.NASNetLarge(include_top=False, input_shape=(None, None, 3)),
                                  "must be static"),
        "irv2_small": outcome(lambda: A.InceptionResNetV2(weights=None, input_shape=(74, 90, 3)), "at least 75x75"),
        "irv2_classes": outcome(lambda: A.InceptionResNetV2(classes=3), "`classes` should be 1000"),
        "irv2_activation": outcome(lambda: A.InceptionResNetV2(classifier_activation="relu"),
                                   "`classifier_activation`"),
    }


@program
def p_applications_more_preprocess_input(tf):
    A = tf.keras.applications
    image = (np.arange(2 * 3 * 2 * 3, dtype="float32").reshape(2, 3, 2, 3) * 7.1) % 255
    out = {}
    for module in ["convnext", "efficientnet_v2", "nasnet", "inception_resnet_v2"]:
        fn = getattr(A, module).preprocess_input
        out[module] = [val(fn(image.copy())), val(fn(tf.constant(image))),
                       val(fn(image.copy().transpose(0, 3, 1, 2), data_format="channels_first"))]
    out["names"] = sorted(n for n in dir(A) if n.startswith(("ConvNeXt", "EfficientNetV2", "NASNet", "InceptionRes")))
    return out
