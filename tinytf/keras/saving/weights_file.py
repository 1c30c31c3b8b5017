"""Keras 3's weights file (".weights.h5", also model.weights.h5 inside a .keras zip): one group per layer,
keyed by its class name in snake case made unique in layer order ("dense", "dense_1"), holding that layer's
own variables as datasets "vars/0", "vars/1", ...; nested models under their own "layers" group."""

from __future__ import annotations

import warnings

import h5py
import numpy as np

from .. import naming


def _layer_keys(layers) -> list:
    counts: dict = {}
    keys = []
    for layer in layers:
        base = naming.snake_case(type(layer).__name__)
        count = counts.get(base, 0)
        counts[base] = count + 1
        keys.append(base if count == 0 else f"{base}_{count}")
    return keys


def _own_variables(layer) -> list:
    return list(layer._trainable_own) + list(layer._non_trainable_own) if hasattr(layer, "_trainable_own") else []


def _children(layer):
    """(group name, [(key, child layer)]) of the layers saved under a layer: a model's layers go in "layers"
    keyed by class name; a layer's inner layers (an RNN's cell, a wrapper's layer) sit beside its "vars",
    keyed by the attribute that holds them, as Keras 3 writes them."""
    if hasattr(layer, "_saved_children"):  # a layer that lays out its own children (FeatureSpace's dicts)
        return None, layer._saved_children()
    if hasattr(layer, "_stack") or hasattr(layer, "_graph_layers"):
        children = list(layer.layers)
        return "layers", list(zip(_layer_keys(children), children))
    from ..layers.layer import Layer

    return None, [(key, value) for key, value in vars(layer).items() if isinstance(value, Layer)]


def _write(group, layer) -> None:
    variables = group.create_group("vars")
    variables.attrs["name"] = layer.name
    for index, variable in enumerate(_own_variables(layer)):
        variables.create_dataset(str(index), data=np.asarray(variable.numpy()))
    container, children = _children(layer)
    if children:
        sub = group.create_group(container) if container else group
        for key, child in children:
            _write(sub.create_group(key), child)


def _read(group, layer, path: str) -> None:
    own = _own_variables(layer)
    stored = group.get("vars")
    count = 0 if stored is None else len(stored.keys())
    if count != len(own):
        raise ValueError(f"Layer '{layer.name}' expected {len(own)} variables, but received {count} variables "
                         f"during loading from {path or 'the file'}. Expected: {[v.name for v in own]}")
    for index, variable in enumerate(own):
        value = np.asarray(stored[str(index)])
        if tuple(value.shape) != tuple(variable.shape.as_list()):
            raise ValueError(f"Layer '{layer.name}' weight {variable.name} has shape "
                             f"{tuple(variable.shape.as_list())}, but the file holds shape {value.shape}")
        variable.assign(value.astype(variable.dtype.as_numpy_dtype))
    container, children = _children(layer)
    if children:
        sub = group.get(container) if container else group
        if sub is None:
            raise ValueError(f"The weights file has no layers for '{layer.name}'")
        prefix = f"{path}/{container}" if container else path
        for key, child in children:
            if key not in sub:
                raise ValueError(f"The weights file has no entry {prefix}/{key} for layer '{child.name}'")
            _read(sub[key], child, f"{prefix}/{key}")


def _optimizer_of(model):
    optimizer = getattr(model, "optimizer", None)
    return optimizer if optimizer is not None and hasattr(optimizer, "variables") else None


def _write_optimizer(f, optimizer) -> None:
    """Keras 3's "optimizer/vars" group: iterations, the learning rate variable, then the slots of each trained
    variable in order (Adam: momentum, velocity), so training continues where it stopped."""
    variables = f.create_group("optimizer").create_group("vars")
    variables.attrs["name"] = optimizer.name
    for index, variable in enumerate(optimizer.variables):
        variables.create_dataset(str(index), data=np.asarray(variable.numpy()))


def _read_optimizer(f, model) -> None:
    """Restore the optimizer's state when the file has one and the model has a (compiled) optimizer with the
    same variables (load_model and BackupAndRestore build its slots first)."""
    optimizer = _optimizer_of(model)
    stored = f.get("optimizer/vars")
    if optimizer is None or stored is None:
        return
    own = optimizer.variables  # an optimizer without slots yet skips the file's state, as Keras 3 does
    if len(stored.keys()) != len(own):
        warnings.warn(f"Skipping variable loading for optimizer '{optimizer.name}', because it has {len(own)} "
                      f"variables whereas the saved optimizer has {len(stored.keys())} variables.", stacklevel=4)
        return
    values = [np.asarray(stored[str(index)]) for index in range(len(own))]
    for variable, value in zip(own, values):
        if tuple(value.shape) != tuple(variable.shape.as_list()):
            raise ValueError(f"Optimizer '{optimizer.name}' variable {variable.name} has shape "
                             f"{tuple(variable.shape.as_list())}, but the file holds shape {value.shape}")
    for variable, value in zip(own, values):
        variable.assign(value.astype(variable.dtype.as_numpy_dtype))


def save_weights_to(file_or_path, model) -> None:
    with h5py.File(file_or_path, "w") as f:
        _write(f, model)
        optimizer = _optimizer_of(model)
        if optimizer is not None:
            _write_optimizer(f, optimizer)


def load_weights_from(file_or_path, model) -> None:
    try:
        f = h5py.File(file_or_path, "r")
    except OSError as error:
        raise ValueError(f"Could not read the weights file {file_or_path!r}: {error}") from None
    with f:
        _read(f, model, "")
        _read_optimizer(f, model)
