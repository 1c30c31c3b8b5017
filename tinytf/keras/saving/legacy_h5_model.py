"""Whole models in Keras' legacy HDF5 file (`model.save("m.h5")`, keras/src/legacy/saving/legacy_h5_format.py):
root attributes `model_config` (the model's config in the legacy form: layer entries without "module",
"registered_name" and "build_config"), `training_config` (the compile arguments, the optimizer as
{"class_name", "config"}), `keras_version` and `backend`; the weights in the `model_weights` group in the legacy
layout (legacy_h5.py) plus `top_level_model_weights`; the optimizer's variables in `optimizer_weights`.
TF 2.21 loads tinytf's files and tinytf loads TF's (tests/keras_files/legacy_*.h5)."""

from __future__ import annotations

import inspect
import json
import os

import numpy as np

from .. import losses, metrics, optimizers
from ..config import safe_mode_scope
from . import layer_config
from .keras_file import KERAS_VERSION
from .legacy_h5 import _names, _write_names, load_weights_from_hdf5_group, save_weights_to_hdf5_group

_KERAS_3_KEYS = ("module", "registered_name", "build_config", "compile_config")


def legacy_config(entry: dict) -> dict:
    """A layer's Keras 3 config dict in the legacy form Keras writes to .h5 files: the layer-level keys of
    Keras 3's format dropped, recursively through the layer lists of models (nested objects such as
    initializers and dtype policies keep theirs, as Keras writes them)."""
    out = {k: v for k, v in entry.items() if k not in _KERAS_3_KEYS}
    config = out.get("config")
    if isinstance(config, dict) and isinstance(config.get("layers"), list):
        out["config"] = {**config, "layers": [legacy_config(layer) for layer in config["layers"]]}
    return out


def _json_default(value):
    """What Keras' json_utils.get_json_type makes of values JSON has no type for (arrays as nested lists)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if hasattr(value, "as_list"):  # a TensorShape
        return value.as_list()
    if hasattr(value, "as_numpy_dtype"):  # a DType
        return value.name
    raise TypeError(f"Not JSON Serializable: {value!r}")


def _training_config(model):
    """Keras' `training_config`: the compile config with the optimizer as {"class_name", "config"}."""
    optimizer = getattr(model, "optimizer", None)
    if optimizer is None or not hasattr(model, "get_compile_config"):
        return None
    config = dict(model.get_compile_config() or {})
    if not config:
        return None
    config.pop("optimizer", None)
    config["optimizer_config"] = {"class_name": type(optimizer).__name__, "config": optimizer.get_config()}
    return config


def _optimizer_weight_names(optimizer) -> list:
    """Keras' names of the optimizer's variables: `adam/iteration`, `adam/<variable path with _>_<slot>`."""
    slot_names = {}
    for ref, slots in getattr(optimizer, "_slots", {}).items():
        base = str(getattr(ref.deref(), "path", None) or ref.deref().name.split(":")[0]).replace("/", "_")
        for slot, variable in slots.items():
            slot_names[id(variable)] = f"{optimizer.name}/{base}_{slot}"
    names, seen = [], set()
    for variable in optimizer.variables:
        name = slot_names.get(id(variable)) or variable.name.split(":")[0]
        while name in seen:  # HDF5 dataset names must differ
            name += "_"
        seen.add(name)
        names.append(name)
    return names


def save_model_to_hdf5(model, filepath, overwrite: bool = True, include_optimizer: bool = True) -> None:
    """Write `model` as Keras' legacy .h5 model file."""
    import h5py

    path = os.fspath(filepath)
    if not overwrite and os.path.isfile(path):
        return
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    model_config = legacy_config(layer_config.serialize_layer(model))
    with h5py.File(path, "w") as f:
        f.attrs["keras_version"] = KERAS_VERSION
        f.attrs["backend"] = "tensorflow"
        f.attrs["model_config"] = json.dumps(model_config, default=_json_default).encode("utf8")
        training = _training_config(model) if include_optimizer else None
        if training is not None:
            f.attrs["training_config"] = json.dumps(training, default=_json_default).encode("utf8")
        weights = f.create_group("model_weights")
        save_weights_to_hdf5_group(weights, model)
        weights.attrs["keras_version"] = KERAS_VERSION.encode("utf8")
        _write_names(weights.create_group("top_level_model_weights"), "weight_names", [])
        optimizer = getattr(model, "optimizer", None)
        if include_optimizer and training is not None and optimizer.variables:
            group = f.create_group("optimizer_weights")
            names = _optimizer_weight_names(optimizer)
            _write_names(group, "weight_names", names)
            for name, variable in zip(names, optimizer.variables):
                group.create_dataset(name, data=np.asarray(variable.numpy()))


def is_legacy_model_file(path) -> bool:
    import h5py

    try:
        with h5py.File(os.fspath(path), "r") as f:
            return "model_config" in f.attrs
    except OSError:
        return False


def load_model_from_hdf5(filepath, custom_objects=None, compile: bool = True, safe_mode: bool = True):  # noqa: A002
    """A model from Keras' legacy .h5 model file (written by Keras 2, Keras 3 or tinytf)."""
    import h5py

    path = os.fspath(filepath)
    with h5py.File(path, "r") as f:
        model_config = f.attrs.get("model_config")
        if model_config is None:
            raise ValueError(f"No model config found in the file at {path}.")
        if hasattr(model_config, "decode"):
            model_config = model_config.decode("utf-8")
        with safe_mode_scope(safe_mode):
            model = layer_config.deserialize_layer(json.loads(model_config), custom_objects)
        load_weights_from_hdf5_group(f["model_weights"], model)
        training = f.attrs.get("training_config")
        if not compile or training is None:
            return model
        if hasattr(training, "decode"):
            training = training.decode("utf-8")
        _compile_from(model, json.loads(training))
        if "optimizer_weights" in f:
            group = f["optimizer_weights"]
            values = [np.asarray(group[name]) for name in _names(group, "weight_names")]
            model.optimizer.build(model.trainable_variables)
            variables = model.optimizer.variables
            if len(values) == len(variables) and all(
                    tuple(v.shape.as_list()) == value.shape for v, value in zip(variables, values)):
                for variable, value in zip(variables, values):
                    variable.assign(value.astype(variable.dtype.as_numpy_dtype))
    return model


def _compile_from(model, training: dict) -> None:
    """Compile `model` with Keras' `training_config` (keras/src/legacy/saving/saving_utils.py)."""

    def nested(fn, config):
        if config is None:
            return None
        if isinstance(config, str) or (isinstance(config, dict) and "class_name" in config):
            return fn(config)
        if isinstance(config, dict):
            return {k: nested(fn, v) for k, v in config.items()}
        return [nested(fn, v) for v in config]

    def metric(config):
        if config in ("accuracy", "acc", "crossentropy", "ce") or isinstance(config, str):
            return config  # compile resolves names by the outputs' shapes
        return metrics.get(config)

    arguments = {"optimizer": optimizers.get(training["optimizer_config"]),
                 "loss": nested(lambda c: c if isinstance(c, str) else losses.get(c), training.get("loss")),
                 "metrics": nested(metric, training.get("metrics")),
                 "weighted_metrics": nested(metric, training.get("weighted_metrics")),
                 "loss_weights": training.get("loss_weights")}
    accepted = inspect.signature(model.compile).parameters
    model.compile(**{k: v for k, v in arguments.items() if k in accepted})
