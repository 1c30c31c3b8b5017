"""The ".keras" file: a zip of config.json (the model's serialized config), metadata.json (the Keras version
and date) and model.weights.h5 (the weights), readable by Keras 3 and written by it."""

from __future__ import annotations

import datetime
import inspect
import io
import json
import zipfile

from .. import losses
from ..config import safe_mode_scope
from . import layer_assets, layer_config, weights_file

KERAS_VERSION = "3.15.1"  # the Keras whose format these files follow (the one TF 2.21 ships)


def save_model(model, filepath, overwrite: bool = True, zipped=None, **kwargs) -> None:
    """Write `model` to a .keras file, or to Keras' legacy HDF5 model file for a `.h5`/`.hdf5` path."""
    path = str(filepath)
    include_optimizer = kwargs.pop("include_optimizer", True)
    save_format = kwargs.pop("save_format", False)
    legacy = path.endswith((".h5", ".hdf5"))
    if save_format and not (legacy or path.endswith(".keras")):  # Keras 3 infers the format from the path
        raise ValueError("The `save_format` argument is deprecated in Keras 3. Please remove this argument and pass "
                         f"a file path with either `.keras` or `.h5` extension.Received: save_format={save_format}")
    if kwargs:
        raise ValueError(f"The following argument(s) are not supported: {list(kwargs.keys())}")
    if legacy:
        from .legacy_h5_model import save_model_to_hdf5

        save_model_to_hdf5(model, path, overwrite, include_optimizer)
        return
    if not path.endswith(".keras"):
        raise ValueError(f"Invalid filepath extension for saving. Please add either a `.keras` extension for the "
                         f"native Keras format (recommended) or a `.h5` extension. Use `model.export(filepath)` if "
                         f"you want to export a SavedModel for use with TFLite/TFServing/etc. Received: "
                         f"filepath={path}.")
    config = layer_config.serialize_layer(model)
    compile_config = model.get_compile_config() if hasattr(model, "get_compile_config") else None
    if compile_config:
        config["compile_config"] = compile_config
    metadata = {"keras_version": KERAS_VERSION,
                "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")}
    buffer = io.BytesIO()
    weights_file.save_weights_to(buffer, model)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("metadata.json", json.dumps(metadata))
        archive.writestr("config.json", json.dumps(config))
        archive.writestr("model.weights.h5", buffer.getvalue())
        layer_assets.write_assets(archive, model)


def load_model(filepath, custom_objects=None, compile: bool = True, safe_mode: bool = True):  # noqa: A002
    """A model from a .keras file (made by tinytf or by Keras 3)."""
    path = str(filepath)
    if path.endswith((".h5", ".hdf5")):
        from .legacy_h5_model import load_model_from_hdf5

        return load_model_from_hdf5(path, custom_objects=custom_objects, compile=compile, safe_mode=safe_mode)
    if not zipfile.is_zipfile(path):
        raise ValueError(f"File format not supported: filepath={path}. Keras 3 only supports V3 `.keras` files "
                         f"and legacy H5 format files (`.h5` extension).")
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        if "config.json" not in names or "model.weights.h5" not in names:
            raise ValueError(f"{path} is not a Keras model file: it lacks config.json or model.weights.h5")
        config = json.loads(archive.read("config.json"))
        weights = archive.read("model.weights.h5")
        with safe_mode_scope(safe_mode):  # Lambda layers' bytecode loads only with safe mode off
            model = layer_config.deserialize_layer(config, custom_objects)
        layer_assets.read_assets(archive, model)
    compile_config = config.get("compile_config")
    if compile and compile_config:  # compiled first, so the file's optimizer state has an optimizer to go to
        accepted = inspect.signature(model.compile).parameters
        arguments = {k: v for k, v in compile_config.items() if k in accepted}
        if isinstance(arguments.get("loss"), dict) and "class_name" in arguments["loss"]:
            # Keras 3 deserializes the stored loss, so the loaded model's `loss` is a Loss object again
            arguments["loss"] = losses.get(arguments["loss"])
        model.compile(**arguments)
        model.optimizer.build(model.trainable_variables)
    weights_file.load_weights_from(io.BytesIO(weights), model)
    return model
