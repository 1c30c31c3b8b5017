"""Keras 3's image preprocessing layers as TF 2.21 ships them: resizing and cropping, the random augmentations
with seeds given (seed=) and drawn (keras.utils.set_random_seed), in training and inference, one image and a
batch, channels_first, inside tf.function and a Sequential model's fit/predict, and their configs."""

from __future__ import annotations

import numpy as np

from . import program, val


def _images(shape=(2, 6, 5, 3)):
    return ((np.arange(np.prod(shape), dtype="float32").reshape(shape) * 7.3) % 255).astype("float32")


def _seeded_layers(L):
    return [L.RandomCrop(3, 3, seed=1), L.RandomCrop(8, 8, seed=1), L.RandomFlip(seed=1),
            L.RandomFlip("vertical", seed=3), L.RandomFlip("horizontal", seed=4), L.RandomRotation(0.2, seed=1),
            L.RandomRotation(0.3, fill_mode="constant", fill_value=9.0, interpolation="nearest", seed=5),
            L.RandomRotation((-0.1, 0.4), fill_mode="wrap", seed=6), L.RandomZoom(0.3, seed=1),
            L.RandomZoom((-0.3, 0.2), (0.1, 0.4), fill_mode="wrap", seed=2),
            L.RandomZoom(-0.5, fill_mode="nearest", interpolation="nearest", seed=8),
            L.RandomTranslation(0.2, 0.3, seed=1),
            L.RandomTranslation((-0.2, 0.1), 0.3, fill_mode="constant", fill_value=-1.0, seed=7),
            L.RandomContrast(0.3, seed=1), L.RandomContrast((0.2, 0.6), value_range=(0, 100), seed=2),
            L.RandomBrightness(0.2, seed=1), L.RandomBrightness((0.1, 0.3), value_range=(0, 1), seed=4),
            L.RandomGrayscale(seed=1), L.RandomGrayscale(0.9, seed=2)]


def _rounded(x, digits=None):
    """Values as float lists (digits: rounded, for losses after training, whose last bits follow summation
    order)."""
    values = np.asarray(x, dtype="float64")
    return (values if digits is None else np.round(values, digits)).tolist()


@program
def p_image_layers_seeded_training(tf):
    x = _images()
    out = []
    for layer in _seeded_layers(tf.keras.layers):
        out.append([type(layer).__name__, _rounded(layer(x)), _rounded(layer(x)), _rounded(layer(x[0])),
                    _rounded(layer(x, training=False))])
    return out


@program
def p_image_layers_resizing(tf):
    L = tf.keras.layers
    x = _images()
    layers = [L.Resizing(4, 5), L.Resizing(3, 3, crop_to_aspect_ratio=True),
              L.Resizing(3, 4, pad_to_aspect_ratio=True, fill_value=2.0), L.Resizing(9, 7, interpolation="nearest"),
              L.Resizing(12, 3, crop_to_aspect_ratio=True), L.Resizing(2, 8, pad_to_aspect_ratio=True),
              L.CenterCrop(3, 3), L.CenterCrop(4, 5), L.CenterCrop(8, 8), L.CenterCrop(2, 7)]
    out = [[type(layer).__name__, _rounded(layer(x)), _rounded(layer(x[1]))] for layer in layers]
    as_uint8 = L.Resizing(4, 3)(x.astype("uint8"))
    out.append([str(as_uint8.dtype.name), val(as_uint8)])
    return out


@program
def p_image_layers_default_seeds(tf):
    """Unseeded layers draw Keras' default seeds from Python's random after keras.utils.set_random_seed."""
    keras = tf.keras
    L = keras.layers
    keras.utils.set_random_seed(11)
    layers = [L.RandomFlip(), L.RandomRotation(0.25), L.RandomZoom(0.2, 0.3), L.RandomTranslation(0.1, 0.1),
              L.RandomContrast(0.5), L.RandomBrightness(0.3), L.RandomCrop(4, 4), L.RandomGrayscale()]
    x = _images((3, 6, 6, 3))
    return [[type(layer).__name__, _rounded(layer(x))] for layer in layers]


@program
def p_image_layers_channels_first(tf):
    L = tf.keras.layers
    x = np.transpose(_images(), (0, 3, 1, 2))
    layers = [L.RandomFlip(seed=2, data_format="channels_first"),
              L.RandomRotation(0.2, seed=3, data_format="channels_first"),
              L.RandomZoom(0.2, seed=4, data_format="channels_first"),
              L.Resizing(4, 4, data_format="channels_first"), L.CenterCrop(3, 2, data_format="channels_first"),
              L.RandomCrop(3, 4, seed=5, data_format="channels_first")]
    return [[type(layer).__name__, _rounded(layer(x))] for layer in layers]


@program
def p_image_layers_in_tf_function(tf):
    """In a tf.function, each call draws new numbers (the seed generator's state is a variable)."""
    L = tf.keras.layers
    augment = tf.keras.Sequential([L.RandomFlip("horizontal", seed=1), L.RandomRotation(0.1, seed=2),
                                   L.RandomZoom(0.1, seed=3)])
    step = tf.function(lambda images: augment(images, training=True))
    x = tf.constant(_images())
    return [_rounded(step(x)), _rounded(step(x)), _rounded(augment(x, training=False))]


@program
def p_image_layers_in_fit_and_predict(tf):
    """The data augmentation guide's pattern: augmentation layers first in a Sequential classifier; fit draws,
    predict passes the images through."""
    keras = tf.keras
    L = keras.layers
    keras.utils.set_random_seed(4)
    model = keras.Sequential([keras.Input((8, 8, 3)), L.Rescaling(1.0 / 255), L.RandomFlip("horizontal"),
                              L.RandomRotation(0.1), L.RandomZoom(0.1), L.Conv2D(2, 3, activation="relu"),
                              L.GlobalAveragePooling2D(), L.Dense(2)])
    model.compile(optimizer=keras.optimizers.SGD(0.1),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = _images((8, 8, 8, 3))
    y = (np.arange(8) % 2).astype("int32")
    history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    predicted = model.predict(x, verbose=0)
    plain = keras.Sequential(model.layers[-3:])
    return [_rounded(history.history["loss"], 4), _rounded(predicted, 4),
            _rounded(plain(x / np.float32(255.0)), 4)]


@program
def p_image_layers_configs(tf):
    L = tf.keras.layers
    layers = [L.Resizing(4, 5, interpolation="nearest", crop_to_aspect_ratio=True), L.CenterCrop(3, 3),
              L.RandomCrop(3, 3, seed=1), L.RandomFlip("vertical", seed=1), L.RandomRotation(0.2, seed=1),
              L.RandomZoom(0.1, (0.1, 0.2), seed=1), L.RandomTranslation(0.1, 0.2, seed=1),
              L.RandomContrast(0.3, seed=1), L.RandomBrightness(0.2, seed=1), L.RandomGrayscale(0.3, seed=1)]
    out = []
    for layer in layers:
        config = layer.get_config()
        config.pop("name")
        config.pop("dtype")
        config = {k: list(v) if isinstance(v, tuple) else v for k, v in config.items()}
        clone = type(layer).from_config(layer.get_config())
        out.append([type(layer).__name__, config, len(layer.weights),
                    list(clone.compute_output_shape((None, 6, 5, 3)))])
    return out


@program
def p_image_layers_errors(tf):
    L = tf.keras.layers
    out = []
    for make in (lambda: L.RandomRotation(1.5), lambda: L.RandomZoom(-1.0), lambda: L.RandomContrast(2.0),
                 lambda: L.RandomRotation(0.1, fill_mode="mirror"), lambda: L.RandomZoom(0.1, interpolation="cubic"),
                 lambda: L.RandomBrightness(0.1, value_range=(0, 1, 2)), lambda: L.RandomGrayscale(1.5),
                 lambda: L.Resizing(3, 3, crop_to_aspect_ratio=True, pad_to_aspect_ratio=True),
                 lambda: L.Resizing(3, 3, crop_to_aspect_ratio=True, pad_to_aspect_ratio=True)(_images()),
                 lambda: L.RandomFlip("diagonal"), lambda: L.RandomFlip()(np.zeros((2, 3), "float32"))):
        try:
            make()
            out.append("no error")
        except (ValueError, NotImplementedError) as e:
            out.append(type(e).__name__)
    return out


def _projective_transform(tf):
    """TF's raw op, or (in tinytf, which has no tf.raw_ops entry for it) the op's wrapper, called alike."""
    raw = getattr(getattr(tf, "raw_ops", None), "ImageProjectiveTransformV3", None)
    if raw is not None:
        return raw
    from tinytf.runtime.ops.image_transform import image_projective_transform_v3

    return lambda images, transforms, output_shape, fill_value, interpolation, fill_mode: \
        image_projective_transform_v3(images, transforms, output_shape, fill_value, interpolation, fill_mode)


@program
def p_image_projective_transform_v3_kernel(tf):
    """The kernel under RandomRotation/Zoom/Translation, every fill mode and interpolation, projective
    transforms (c0, c1 != 0) included, on float32 and uint8 images."""
    transform = _projective_transform(tf)
    rng = np.random.default_rng(0)
    images = rng.uniform(0, 10, (3, 7, 6, 2)).astype("float32")
    out = []
    for k in range(4):
        t = np.zeros((3, 8), "float32")
        angle, scale = rng.uniform(-3, 3, 3), rng.uniform(0.5, 1.7, 3)
        t[:, 0], t[:, 1], t[:, 2] = scale * np.cos(angle), -scale * np.sin(angle), rng.uniform(-8, 8, 3)
        t[:, 3], t[:, 4], t[:, 5] = scale * np.sin(angle), scale * np.cos(angle), rng.uniform(-8, 8, 3)
        if k % 2 == 0:
            t[:, 6:] = rng.uniform(-0.05, 0.05, (3, 2))
        for interpolation in ("NEAREST", "BILINEAR"):
            for mode in ("REFLECT", "WRAP", "CONSTANT", "NEAREST"):
                out.append(val(transform(images=images, transforms=t, output_shape=[5, 9], fill_value=1.5,
                                         interpolation=interpolation, fill_mode=mode)))
                out.append(val(transform(images=(images * 20).astype("uint8"), transforms=t, output_shape=[7, 6],
                                         fill_value=3.0, interpolation=interpolation, fill_mode=mode)))
    return out


@program
def p_image_color_layers_hue_saturation_jitter(tf):
    L = tf.keras.layers
    x = _images()
    layers = [L.RandomHue(0.4, seed=1), L.RandomHue((0.1, 0.9), value_range=(0, 255), seed=2),
              L.RandomSaturation(0.6, seed=3), L.RandomSaturation((0.2, 0.8), seed=4),
              L.RandomColorJitter(brightness_factor=0.2, contrast_factor=0.3, saturation_factor=(0.4, 0.6),
                                  hue_factor=0.2, seed=5),
              L.RandomColorJitter(value_range=(0, 1), contrast_factor=0.5, hue_factor=0.1, seed=6)]
    out = []
    for layer in layers:
        data = x / np.float32(255.0) if getattr(layer, "value_range", None) in ((0, 1), [0, 1]) else x
        config = layer.get_config()
        for key in ("name", "dtype"):
            config.pop(key)
        out.append([type(layer).__name__, _rounded(layer(data)), _rounded(layer(data[0])),
                    _rounded(layer(data, training=False)), {k: list(v) if isinstance(v, tuple) else v
                                                           for k, v in config.items()}])
    tf.keras.utils.set_random_seed(9)
    jitter = L.RandomColorJitter(brightness_factor=0.1, saturation_factor=0.5, hue_factor=0.3)
    after = L.RandomFlip()
    out.append([_rounded(jitter(x)), _rounded(after(x))])
    return out
