"""Layers and models to and from Keras 3's serialized configs ({"module", "class_name", "config",
"registered_name", "build_config"}), including Sequential's layer list and Functional's graph of
inbound nodes, so configs written by Keras load here and the other way round."""

from __future__ import annotations

import inspect

from tinytf.runtime import nest

from .. import serialization
from ..layers.layer import Layer
from ..models.keras_tensor import KerasTensor


def layer_classes() -> dict:
    """Every built-in layer and model class by name, plus registered custom classes."""
    from .. import layers, models

    found = {}
    for module in (layers, models):
        for name in dir(module):
            value = getattr(module, name)
            if isinstance(value, type) and issubclass(value, Layer):
                found[value.__name__] = value
    from ..utils.feature_space import FeatureSpace, TFDConcat, TFDIdentity

    found.update({"FeatureSpace": FeatureSpace, "TFDConcat": TFDConcat, "TFDIdentity": TFDIdentity})
    found.update({k: v for k, v in serialization.custom_objects().items() if isinstance(v, type)})
    return found


def serialize_layer(layer) -> dict:
    """A layer's Keras 3 dict, with its build config when built."""
    from ..models.functional_model import Functional
    from ..models.sequential import Sequential
    from ..ops.operation import Operation

    if isinstance(layer, Operation):  # keras.ops calls on KerasTensors: Keras names their class in its registry
        return {"module": layer._keras_module, "class_name": type(layer).__name__,
                "config": _jsonable(layer.get_config()), "registered_name": type(layer).__name__}
    if isinstance(layer, Sequential):
        config = sequential_config(layer)
    elif isinstance(layer, Functional):
        config = functional_config(layer)
    else:
        config = layer.get_config()
    module = "keras" if isinstance(layer, Sequential) else (
        "keras.src.models.functional" if isinstance(layer, Functional) else
        getattr(type(layer), "_keras_module", "keras.layers"))
    registered = serialization.registered_name(type(layer))
    if registered is not None:
        module = None  # Keras 3 finds a registered class by its registered_name
    elif isinstance(vars(type(layer)).get("_keras_module"), str):
        module, registered = type(layer)._keras_module, type(layer).__name__  # found by importing its module
    if registered is None:  # Keras' own classes outside keras.layers (FeatureSpace's layers) name themselves
        registered = getattr(type(layer), "_keras_registered_name", None)
    result = {"module": module, "class_name": type(layer).__name__, "config": config,
              "registered_name": registered or (type(layer).__name__ if isinstance(layer, Functional) else None)}
    build = layer.get_build_config() if not isinstance(layer, Functional) else None
    if build is not None:
        result["build_config"] = _jsonable(build)
    return result


def _jsonable(value):
    """Python values as Keras 3 writes them in a config (tuples as lists; slices and Ellipsis, which keys of
    `x[...]` on KerasTensors hold, as "__slice__" and "__ellipsis__" objects)."""
    if isinstance(value, slice):
        return {"class_name": "__slice__", "config": {"start": _jsonable(value.start), "stop": _jsonable(value.stop),
                                                      "step": _jsonable(value.step)}}
    if value is Ellipsis:
        return {"class_name": "__ellipsis__", "config": {}}
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


def _accepted_arguments(cls) -> set | None:
    """The keyword arguments a layer class's constructor chain accepts (None: anything)."""
    # arguments a constructor passes on through **kwargs to a part it builds (an LSTM's to its cell)
    accepted = set(getattr(cls, "_forwarded_arguments", ()))
    for klass in cls.__mro__:
        if "__init__" not in vars(klass):
            continue
        parameters = inspect.signature(klass.__init__).parameters
        accepted |= {n for n, p in parameters.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
        if not any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
            break
    return accepted


# Keras' modules whose unregistered layer classes a config names by module, and where tinytf keeps them
_KERAS_MODULES = {"keras.src.applications.convnext": "tinytf.keras.applications.convnext",
                  "keras.src.applications.inception_resnet_v2": "tinytf.keras.applications.inception_resnet_v2"}


def _class_of_keras_module(module, name: str):
    """The layer class `name` of Keras module `module` (ConvNeXt's LayerScale): Keras 3 imports the module a
    config names to find a class nobody registered, so these load by their module, as in Keras."""
    if module not in _KERAS_MODULES:
        return None
    import importlib

    cls = getattr(importlib.import_module(_KERAS_MODULES[module]), name, None)
    if isinstance(cls, type) and issubclass(cls, Layer) and vars(cls).get("_keras_module") == module:
        return cls
    return None


def deserialize_layer(config: dict, custom_objects=None):
    """A layer (or model) from its Keras 3 dict; arguments this implementation does not know are dropped."""
    name = config["class_name"]
    if str(config.get("module") or "").startswith(("keras.src.ops.", "keras.src.activations.")):
        from ..ops.operation import operation_class_by_keras_name

        cls = operation_class_by_keras_name(config["module"], name)
        if cls is None:
            raise ValueError(f"Could not locate the operation class '{name}' of module '{config['module']}'")
        return cls.from_config(dict(config.get("config") or {}))
    classes = {**layer_classes(), **(custom_objects or {})}
    registered = serialization.get_registered_object(config.get("registered_name") or name, custom_objects)
    if name not in classes and registered is not None:
        classes[name] = registered
    if name not in classes and _class_of_keras_module(config.get("module"), name) is not None:
        classes[name] = _class_of_keras_module(config.get("module"), name)
    if name not in classes:
        raise ValueError(f"Could not locate class '{name}'. Make sure custom classes are decorated with "
                         f"`@keras.saving.register_keras_serializable()` or passed in custom_objects.")
    cls = classes[name]
    if name == "Sequential":
        layer = sequential_from_config(config["config"], custom_objects)
    elif name == "Functional" or (name == "Model" and "input_layers" in config["config"]):
        layer = functional_from_config(config["config"], custom_objects)
    else:
        arguments = dict(config.get("config") or {})
        if name == "Lambda":
            return cls.from_config(arguments, custom_objects)
        accepted = _accepted_arguments(cls)
        arguments = {k: v for k, v in arguments.items() if k in accepted}
        if "layer" in arguments and isinstance(arguments["layer"], dict):
            arguments["layer"] = deserialize_layer(arguments["layer"], custom_objects)
        layer = cls.from_config(arguments)
    build = config.get("build_config")
    if build and not layer.built and build.get("input_shape") is not None:
        layer.build_from_config({"input_shape": _shape_tuples(build["input_shape"])})
    elif build and getattr(layer, "_custom_build_config", False):  # FeatureSpace: per-feature build configs
        layer.build_from_config(build)
    return layer


def _shape_tuples(shape):
    if shape and isinstance(shape[0], (list, tuple)):
        return [tuple(s) for s in shape]
    return tuple(shape)


# --- Sequential ----------------------------------------------------------------------------------------------
def sequential_config(model) -> dict:
    from ..layers.layer import dtype_policy_config

    layers = []
    if model._input_layer is not None:
        layers.append(serialize_layer(model._input_layer))
    layers += [serialize_layer(layer) for layer in model.layers]
    config = {"name": model.name, "trainable": model.trainable, "dtype": dtype_policy_config(model.dtype_policy),
              "layers": layers}
    if model._build_input_shape is not None:
        config["build_input_shape"] = list(model._build_input_shape)
    return config


def sequential_from_config(config: dict, custom_objects=None):
    from ..models.sequential import Sequential

    model = Sequential(name=config.get("name"), trainable=config.get("trainable", True))
    for layer_config in config["layers"]:
        model.add(deserialize_layer(layer_config, custom_objects), rebuild=False)
    model._maybe_rebuild()
    if not model.built and config.get("build_input_shape"):
        model.build(tuple(config["build_input_shape"]))
    return model


# --- Functional ----------------------------------------------------------------------------------------------
def _node_index(layer, node, model) -> int:
    relevant = [n for n in layer._inbound_nodes if n in model._nodes]
    return relevant.index(node) if node in relevant else 0


def functional_config(model) -> dict:
    def tensor_config(t):
        layer, node, index = t._keras_history
        return {"class_name": "__keras_tensor__", "config": {
            "shape": list(t.shape), "dtype": t.dtype, "keras_history": [layer.name, _node_index(layer, node, model),
                                                                         index]}}

    def encode(value):
        return tensor_config(value) if isinstance(value, KerasTensor) else value

    layers = []
    for layer in model.operations:
        entry = serialize_layer(layer)
        entry["name"] = layer.name
        nodes = [n for n in layer._inbound_nodes if n in model._nodes and n.input_tensors]
        entry["inbound_nodes"] = [{"args": _jsonable(nest.map_structure(encode, list(n.args))),
                                   "kwargs": _jsonable(nest.map_structure(encode, n.kwargs))} for n in nodes]
        layers.append(entry)

    def history(t):
        layer, node, index = t._keras_history
        return [layer.name, _node_index(layer, node, model), index]

    inputs = [history(t) for t in model.inputs]
    outputs = [history(t) for t in model.outputs]
    if isinstance(model._outputs_struct, dict):  # Keras 3 keeps a dict of outputs by key
        outputs = {key: nest.map_structure(history, t) for key, t in model._outputs_struct.items()}
    elif len(outputs) == 1 and not isinstance(model._outputs_struct, list):
        outputs = outputs[0]
    return {"name": model.name, "trainable": model.trainable, "layers": layers,
            "input_layers": inputs if len(inputs) > 1 else inputs[0], "output_layers": outputs}


def functional_from_config(config: dict, custom_objects=None):
    from ..models.functional_model import Functional

    created = {}
    for layer_config in config["layers"]:
        layer = deserialize_layer(layer_config, custom_objects)
        created[layer_config.get("name", layer.name)] = (layer, layer_config.get("inbound_nodes", []))

    def tensor(history):
        name, node_index, tensor_index = history
        layer = created[name][0]
        return nest.flatten(layer._inbound_nodes[node_index].outputs)[tensor_index]

    def decode(value):
        if isinstance(value, dict) and value.get("class_name") == "__keras_tensor__":
            return tensor(value["config"]["keras_history"])
        return value

    def is_tensor_dict(value):
        return isinstance(value, dict) and value.get("class_name") == "__keras_tensor__"

    def rebuild(value):
        if is_tensor_dict(value):
            return decode(value)
        if isinstance(value, dict) and value.get("class_name") == "__slice__":
            bounds = value["config"]
            return slice(rebuild(bounds["start"]), rebuild(bounds["stop"]), rebuild(bounds["step"]))
        if isinstance(value, dict) and value.get("class_name") == "__ellipsis__":
            return Ellipsis
        if isinstance(value, list):
            items = [rebuild(v) for v in value]
            # a key of x[...] was a tuple: JSON made it a list, which indexes differently
            return tuple(items) if any(isinstance(v, slice) or v is Ellipsis for v in items) else items
        if isinstance(value, dict):
            return {k: rebuild(v) for k, v in value.items()}
        return value

    def ready(value) -> bool:
        """Whether every tensor a node reads has been made (a config lists layers by depth, so a shared
        layer's later call may read layers listed after it)."""
        if is_tensor_dict(value):
            name, node_index, _ = value["config"]["keras_history"]
            return len(created[name][0]._inbound_nodes) > node_index
        if isinstance(value, list):
            return all(ready(v) for v in value)
        if isinstance(value, dict):
            return all(ready(v) for v in value.values())
        return True

    pending = [(layer, list(nodes)) for layer, nodes in created.values()]
    while any(nodes for _, nodes in pending):
        progressed = False
        for layer, nodes in pending:  # each layer's calls in their order, each once its inputs exist
            while nodes and ready([nodes[0].get("args", []), nodes[0].get("kwargs", {})]):
                node = nodes.pop(0)
                layer(*rebuild(node.get("args", [])), **rebuild(node.get("kwargs", {})))
                progressed = True
        if not progressed:
            stuck = [layer.name for layer, nodes in pending if nodes]
            raise ValueError(f"The functional config does not connect: the calls of layers {stuck} read tensors no "
                             f"layer makes")

    def ends(spec):
        if isinstance(spec, dict):
            return {key: ends(s) for key, s in spec.items()}
        if spec and isinstance(spec[0], str):
            return tensor(spec)
        return [ends(s) for s in spec]

    return Functional(ends(config["input_layers"]), ends(config["output_layers"]), name=config.get("name"),
                      trainable=config.get("trainable", True))
