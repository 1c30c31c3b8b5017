"""keras.applications as TF 2.21 ships it (Keras 3): each builder's layers (names, classes, order), parameter
counts and model.summary() text at a small input size, a forward pass with every weight set to a
deterministic function of its position and shape, the argument checks with their errors, and the
families' preprocess_input."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


def deterministic_weights(model):
    """Every weight a function of its index and shape: kernels scaled by 1/sqrt(fan-in) so deep stacks stay
    finite, batch-norm variances positive."""
    values = []
    for i, w in enumerate(model.weights):
        shape = tuple(w.shape)
        base = data(shape, seed=i, scale=1.0)
        if "variance" in w.name:
            values.append(1.0 + 0.5 * np.abs(base))
        elif len(shape) >= 2:
            values.append(base * (1.7 / np.sqrt(np.prod(shape[:-1]))))
        else:
            values.append(0.1 * base)
    model.set_weights([v.astype("float32") for v in values])
    return model


def _summary(model):
    lines = []
    model.summary(print_fn=lambda line, *args, **kwargs: lines.append(line))
    return lines


def _structure(model):
    return {"name": model.name, "params": int(model.count_params()),
            "trainable": int(sum(np.prod(w.shape) for w in model.trainable_weights)),
            "layers": [[layer.name, type(layer).__name__] for layer in model.layers],
            "weights": [[w.name, list(w.shape)] for w in model.weights],
            "output": list(model.output.shape)}


def _describe(tf, builder, **kwargs):
    model = getattr(tf.keras.applications, builder)(weights=None, **kwargs)
    return _structure(model)


def _built_and_run(tf, builder, shape=(2, 32, 32, 3), **kwargs):
    """One builder's structure and its forward pass with deterministic weights (built once: initializing a
    deep ResNet's 60M parameters is most of the cost)."""
    model = getattr(tf.keras.applications, builder)(weights=None, input_shape=shape[1:], **kwargs)
    deterministic_weights(model)
    return {"structure": _structure(model), "output": val(model(data(shape, scale=2.0), training=False))}


def _builder_program(builder, **kwargs):
    def run(tf):
        return _built_and_run(tf, builder, **kwargs)

    run.__name__ = f"p_applications_{builder.lower()}"
    run.__module__ = __name__
    return program(run)


for _builder in ["ResNet50", "ResNet50V2", "VGG16", "DenseNet121"]:
    _builder_program(_builder, classes=5, classifier_activation=None)
for _builder in ["ResNet101", "ResNet152", "ResNet101V2", "ResNet152V2", "VGG19", "DenseNet169", "DenseNet201"]:
    _builder_program(_builder, shape=(1, 32, 32, 3), include_top=False, pooling="avg")
_builder_program("Xception", shape=(1, 71, 75, 3), classes=4, classifier_activation=None)
_builder_program("EfficientNetB0", classes=5, classifier_activation=None)
_builder_program("EfficientNetB1", shape=(1, 32, 32, 3), include_top=False, pooling="max")
_builder_program("EfficientNetB2", shape=(1, 33, 35, 3), classes=3)
_builder_program("MobileNetV3Small", classes=5, classifier_activation=None)
_builder_program("MobileNetV3Large", shape=(1, 40, 36, 3), include_top=False, pooling="avg")


@program
def p_applications_mobilenet_v3_variants(tf):
    A = tf.keras.applications
    return {"small_minimalistic": _built_and_run(tf, "MobileNetV3Small", minimalistic=True, alpha=0.75, classes=3),
            "large_minimalistic": _describe(tf, "MobileNetV3Large", minimalistic=True, include_top=False),
            "large_wide": _describe(tf, "MobileNetV3Large", alpha=1.25, include_preprocessing=False, classes=4),
            "dynamic": _structure(A.MobileNetV3Small(weights=None, dropout_rate=0.0)),
            "small_input": outcome(lambda: A.MobileNetV3Small(weights=None, input_shape=(31, 64, 3)),
                                   "at least 32x32"),
            "alpha": outcome(lambda: A.MobileNetV3Large(alpha=0.5), "alpha can be one of")}


@program
def p_applications_mobilenet_v3_layer_list(tf):
    """MobileNetV3's hard sigmoid is `ReLU(6.0)(x + 3.0) * (1.0 / 6.0)`: two bare ops on Keras tensors, which
    Keras 3 keeps out of model.layers (they are Operations, not Layers)."""
    model = tf.keras.applications.MobileNetV3Small(weights=None, include_top=False, input_shape=(32, 32, 3))
    return [[layer.name, type(layer).__name__] for layer in model.layers]


_builder_program("InceptionV3", shape=(1, 75, 80, 3), classes=4, classifier_activation=None)


@program
def p_applications_mobilenets(tf):
    return {"MobileNetV2": _built_and_run(tf, "MobileNetV2", classes=6, classifier_activation=None),
            "MobileNetV2_softmax": _built_and_run(tf, "MobileNetV2", classes=6),
            "MobileNet": _built_and_run(tf, "MobileNet", classes=6, classifier_activation=None),
            "MobileNet_pool": _built_and_run(tf, "MobileNet", (1, 35, 33, 3), include_top=False, pooling="max"),
            "MobileNetV2_alpha": _describe(tf, "MobileNetV2", alpha=0.35, include_top=False),
            "MobileNetV2_wide": _describe(tf, "MobileNetV2", alpha=1.3, input_shape=(96, 96, 3), classes=3),
            "MobileNet_alpha": _describe(tf, "MobileNet", alpha=0.5, depth_multiplier=2, include_top=False,
                                         input_shape=(128, 128, 3))}


@program
def p_applications_headless_pooling(tf):
    out = {}
    for b, pooling in [("MobileNetV2", "avg"), ("MobileNet", None), ("ResNet50", "max"), ("ResNet50V2", None),
                       ("VGG16", "max"), ("DenseNet121", "max"), ("Xception", "avg")]:
        if b == "Xception":
            out[b] = _describe(tf, b, include_top=False, pooling=pooling, input_shape=(80, 72, 3))
            continue
        out[b] = _describe(tf, b, include_top=False, pooling=pooling, input_shape=(40, 36, 3))
    return out


@program
def p_applications_summary(tf):
    A = tf.keras.applications
    return {"mobilenet_v2": _summary(A.MobileNetV2(weights=None, input_shape=(32, 32, 3), classes=5)),
            "resnet50": _summary(A.ResNet50(weights=None, include_top=False, input_shape=(32, 32, 3))),
            "vgg16": _summary(A.VGG16(weights=None, input_shape=(32, 32, 3), classes=4)),
            "mobilenet": _summary(A.MobileNet(weights=None, input_shape=(32, 32, 3), classes=4))}


@program
def p_applications_argument_errors(tf):
    A = tf.keras.applications
    return {
        "bad_weights": outcome(lambda: A.ResNet50(weights="no/such/file.h5"), "`weights` argument"),
        "imagenet_classes": outcome(lambda: A.VGG16(classes=10), "`classes` should be 1000"),
        "imagenet_shape": outcome(lambda: A.MobileNetV2(input_shape=(100, 100, 3)), "`input_shape` should be"),
        "too_small": outcome(lambda: A.ResNet50(weights=None, input_shape=(16, 40, 3)), "at least 32x32"),
        "two_dims": outcome(lambda: A.VGG19(weights=None, input_shape=(32, 32)), "three integers"),
        "channels": outcome(lambda: A.MobileNet(include_top=False, input_shape=(64, 64, 1)), "3 channels"),
        "dynamic_top": outcome(lambda: A.ResNet50V2(weights=None, input_shape=(None, None, 3)),
                               "static `input_shape`"),
        "activation": outcome(lambda: A.MobileNet(weights="imagenet", classifier_activation="relu"),
                              "`classifier_activation`"),
        "alpha_v2": outcome(lambda: A.MobileNetV2(alpha=0.6, include_top=False), "alpha must be one of"),
        "alpha_v1": outcome(lambda: A.MobileNet(alpha=0.6, include_top=False), "alpha can be one of"),
        "depth_multiplier": outcome(lambda: A.MobileNet(depth_multiplier=2, include_top=False),
                                    "depth multiplier must be 1"),
        "xception_small": outcome(lambda: A.Xception(weights=None, input_shape=(70, 90, 3)), "at least 71x71"),
        "inception_small": outcome(lambda: A.InceptionV3(weights=None, input_shape=(80, 74, 3)), "at least 75x75"),
        "efficientnet_classes": outcome(lambda: A.EfficientNetB0(classes=3), "`classes` should be 1000"),
        "densenet_classes": outcome(lambda: A.DenseNet121(classes=3), "`classes` should be 1000"),
        "densenet_weights": outcome(lambda: A.DenseNet169(weights="nowhere"), "`weights` argument"),
        "mode": outcome(lambda: A.imagenet_utils.preprocess_input(np.zeros((1, 2, 2, 3)), mode="x"),
                        "Expected mode"),
        "data_format": outcome(lambda: A.imagenet_utils.preprocess_input(np.zeros((1, 2, 2, 3)),
                                                                         data_format="nhwc"), "data_format"),
        "decode_shape": outcome(lambda: A.resnet50.decode_predictions(np.zeros((2, 10))), "(samples, 1000)"),
    }


@program
def p_applications_input_tensor(tf):
    """A model built on a given Keras tensor keeps the tensor's graph inputs; a default-size MobileNetV2."""
    inputs = tf.keras.Input((48, 48, 3))
    scaled = tf.keras.layers.Rescaling(1 / 127.5, offset=-1)(inputs)
    model = tf.keras.applications.MobileNetV2(weights=None, input_tensor=scaled, include_top=False, pooling="avg")
    default = tf.keras.applications.MobileNet(weights=None, include_top=False)
    return {"structure": _structure(model), "inputs": [list(t.shape) for t in model.inputs],
            "default_input": list(default.input.shape), "default_name": default.name}


@program
def p_applications_preprocess_input(tf):
    A = tf.keras.applications
    image = (np.arange(2 * 3 * 2 * 3, dtype="float32").reshape(2, 3, 2, 3) * 7.1) % 255
    out = {}
    for module in ["vgg16", "vgg19", "resnet50", "resnet", "resnet_v2", "mobilenet", "mobilenet_v2",
                   "densenet", "xception", "inception_v3", "efficientnet", "mobilenet_v3"]:
        fn = getattr(A, module).preprocess_input
        out[module] = [val(fn(image.copy())), val(fn(tf.constant(image))),
                       val(fn(image.copy().transpose(0, 3, 1, 2), data_format="channels_first"))]
    for mode in ["caffe", "tf", "torch"]:
        out[mode] = [val(A.imagenet_utils.preprocess_input(image.copy(), mode=mode)),
                     val(A.imagenet_utils.preprocess_input(tf.constant(image), mode=mode)),
                     val(A.imagenet_utils.preprocess_input(image[0].copy().transpose(2, 0, 1), mode=mode,
                                                           data_format="channels_first")),
                     val(A.imagenet_utils.preprocess_input(tf.constant(image[0].transpose(2, 0, 1)), mode=mode,
                                                           data_format="channels_first"))]
    out["uint8"] = val(A.vgg16.preprocess_input(image.astype("uint8")))
    return out
