"""What some Keras 3 Operation classes do to their constructor arguments before they become the config a
Functional model records (Keras 3.15, keras/src/ops/*.py): ExtractPatches keeps its size and strides as tuples
(and writes a config without a name), MultiHot its dtype as floatx when none is given; the others record the
arguments as given (Pad's `pad_width=1` stays 1; only one-number entries of a list become pairs).
The same rules run when an Operation is rebuilt from a config, as Keras' constructors do."""

from __future__ import annotations

from .. import config as _keras_config


def _extract_patches(config: dict) -> dict:
    size = config.get("size")
    if isinstance(size, int):
        size = (size, size)
    strides = config.get("strides")
    data_format = config.get("data_format") or _keras_config.image_data_format()
    return {"size": size, "strides": size if strides is None else strides,
            "dilation_rate": config.get("dilation_rate", 1), "padding": config.get("padding", "valid"),
            "data_format": data_format}


def _extract_patches_3d(config: dict) -> dict:
    """Keras' extract_patches_3d makes an int size a triple before it builds its ExtractPatches."""
    size = config.get("size")
    return _extract_patches({**config, "size": (size, size, size) if isinstance(size, int) else size})


def _multi_hot(config: dict) -> dict:
    if config.get("num_classes") is None:
        raise ValueError("Argument `num_classes` must be specified.")
    return {**config, "dtype": config.get("dtype") or _keras_config.floatx()}


def _pad(config: dict) -> dict:
    """Keras' Pad widens one-number entries of a pad_width *list* in place, so its config shows them as pairs."""
    pad_width = config.get("pad_width")
    if isinstance(pad_width, list) and pad_width and all(isinstance(w, (list, tuple)) for w in pad_width):
        for i, w in enumerate(pad_width):
            if len(w) == 1:
                pad_width[i] = (w[0], w[0])
    return config


CONFIG_RULES = {"pad": _pad, "extract_patches": _extract_patches, "extract_patches_3d": _extract_patches_3d,
                "multi_hot": _multi_hot}

# Classes whose get_config is only their arguments (Keras' ExtractPatches leaves the name out)
UNNAMED_CONFIGS = frozenset({"extract_patches", "extract_patches_3d"})

# Constructor arguments Keras' function takes from **kwargs, with the default it gives them
CONSTRUCTOR_DEFAULTS = {"layer_normalization": {"rms_scaling": False}}
