"""Keras 2's legacy HDF5 weights layout, which Keras 3 still reads from a ".h5"/".hdf5" path (the ImageNet
weights of keras.applications are published in it): the root's attribute `layer_names` lists the layers;
one group per layer name holds `weight_names` and a dataset per name, in the layer's trainable then
non-trainable order. Loading is by position: the file's layers that hold weights, in order, go to the
model's layers that hold weights."""

from __future__ import annotations

import warnings

import h5py
import numpy as np


def is_legacy_weights_file(path: str) -> bool:
    """Whether `path` is an HDF5 file in the legacy layout (not Keras 3's `.weights.h5` one)."""
    try:
        with h5py.File(path, "r") as f:
            return "layer_names" in f.attrs or ("model_weights" in f and "layer_names" in f["model_weights"].attrs)
    except OSError:
        return False


def _legacy_weights(layer) -> list:
    return list(layer.trainable_weights) + list(layer.non_trainable_weights)


def _names(group, attribute) -> list:
    """An attribute list of names, which Keras 2 splits into `name0`, `name1`, ... chunks when large."""
    if attribute in group.attrs:
        values = list(group.attrs[attribute])
    else:
        values, chunk = [], 0
        while f"{attribute}{chunk}" in group.attrs:
            values.extend(group.attrs[f"{attribute}{chunk}"])
            chunk += 1
    return [v.decode("utf8") if hasattr(v, "decode") else str(v) for v in values]


def _write_names(group, attribute, names) -> None:
    """Write a list of names, in chunks under HDF5's 64 KiB attribute limit, as Keras 2 does."""
    data = np.asarray([n.encode("utf8") for n in names])
    chunks = 1
    while any(c.nbytes > 64512 for c in np.array_split(data, chunks)):
        chunks += 1
    if chunks == 1:
        group.attrs[attribute] = data
        return
    for index, chunk in enumerate(np.array_split(data, chunks)):
        group.attrs[f"{attribute}{index}"] = chunk


def save_weights_to_hdf5_group(group, model) -> None:
    """Write `model`'s weights in the legacy layout (what Keras 2 wrote for model.save_weights("x.h5"))."""
    _write_names(group, "layer_names", [layer.name for layer in model.layers])
    group.attrs["backend"] = b"tensorflow"
    group.attrs["keras_version"] = b"3.13.0"
    for layer in sorted(model.layers, key=lambda layer: layer.name):
        layer_group = group.create_group(layer.name)
        weights = _legacy_weights(layer)
        names = [str(getattr(w, "path", None) or w.name) for w in weights]
        _write_names(layer_group, "weight_names", names)
        for name, weight in zip(names, weights):
            value = np.asarray(weight.numpy())
            layer_group.create_dataset(name, data=value)


def load_weights_from_hdf5_group(group, model, skip_mismatch=False) -> None:
    """Set the weights of `model`'s layers from a legacy group, by position, with Keras 3's errors."""
    if "layer_names" not in group.attrs and "model_weights" in group:
        group = group["model_weights"]
    layers = [layer for layer in model.layers if _legacy_weights(layer)]
    names = [name for name in _names(group, "layer_names") if _names(group[name], "weight_names")]
    if len(names) != len(layers):
        raise ValueError(f"Layer count mismatch when loading weights from file. Model expected {len(layers)} "
                         f"layers, found {len(names)} saved layers.")
    planned = []
    for k, (name, layer) in enumerate(zip(names, layers)):
        layer_group = group[name]
        values = [np.asarray(layer_group[weight]) for weight in _names(layer_group, "weight_names")]
        variables = _legacy_weights(layer)
        if len(values) != len(variables):
            raise ValueError(f"Weight count mismatch for layer #{k} (named {layer.name} in the current model, "
                             f"{name} in the save file). Layer expects {len(variables)} weight(s). Received "
                             f"{len(values)} saved weight(s)")
        for variable, value in zip(variables, values):
            expected = tuple(variable.shape.as_list())
            if expected != value.shape:
                if skip_mismatch:
                    warnings.warn(f"Skipping loading weights for layer #{k} (named {layer.name})due to mismatch "
                                  f"in shape for weight {variable.name}. Weight expects shape {expected}. "
                                  f"Received saved weight with shape {value.shape}", stacklevel=3)
                    continue
                raise ValueError(f"Shape mismatch in layer #{k} (named {layer.name})for weight {variable.name}. "
                                 f"Weight expects shape {expected}. Received saved weight with shape "
                                 f"{value.shape}")
            planned.append((variable, value))
    # every check passes before any variable changes: a bad file leaves the model as it was
    for variable, value in planned:
        variable.assign(value.astype(variable.dtype.as_numpy_dtype))


def load_weights(path, model, skip_mismatch=False) -> None:
    with h5py.File(path, "r") as f:
        load_weights_from_hdf5_group(f, model, skip_mismatch=skip_mismatch)
