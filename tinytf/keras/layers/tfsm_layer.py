"""keras.layers.TFSMLayer: a SavedModel (model.export(), tf.saved_model.save) reloaded as a layer, as Keras 3.15
builds it: the call endpoint ("serve" by default; an attribute of the loaded object or one of its signatures)
becomes call(), an optional training endpoint serves training=True, and the variables the endpoints capture
become the layer's weights (trainable ones first), named as saved with "/" turned into "_". As in Keras on TF
(whose Keras Variable wraps the loaded tf.Variable), a weight IS the variable the endpoints read: assigning it or
training it changes what the layer computes.
Deserializing one loads an external SavedModel, so from_config refuses it in safe mode with Keras' message."""

from __future__ import annotations

import tinytf as _tf

from .. import config as keras_config
from ..variable import KerasVariable
from .layer import Layer

UNSAFE_TFSM = ("Requested the deserialization of a `TFSMLayer`, which loads an external SavedModel. This carries a "
               "potential risk of arbitrary code execution and thus it is disallowed by default. If you trust the "
               "source of the artifact, you can override this error by passing `safe_mode=False` to the loading "
               "function, or calling `keras.config.enable_unsafe_deserialization().")


def _endpoint(reloaded, name):
    if hasattr(reloaded, name):
        return getattr(reloaded, name)
    if name in reloaded.signatures:
        return reloaded.signatures[name]
    raise ValueError(f"The endpoint '{name}' is neither an attribute of the reloaded SavedModel, nor an entry in the "
                     "`signatures` field of the reloaded SavedModel. Select another endpoint via the `call_endpoint` "
                     f"argument. Available endpoints for this SavedModel: {list(reloaded.signatures.keys())}")


def _variables_used_by(fns):
    """(trainable, non-trainable) variables the functions' traces capture, each once, in capture order."""
    trainable, other, seen = [], [], set()
    concretes = []
    for fn in fns:
        if hasattr(fn, "concrete_functions"):
            concretes.extend(fn.concrete_functions)
        elif hasattr(fn, "get_concrete_function"):
            concretes.append(fn.get_concrete_function())
        else:
            concretes.append(fn)
    for concrete in concretes:
        for v in concrete.trainable_variables:
            if id(v) not in seen:
                seen.add(id(v))
                trainable.append(v)
    for concrete in concretes:
        for v in concrete.variables:
            if id(v) not in seen:
                seen.add(id(v))
                other.append(v)
    return trainable, other


_KERAS_CLASSES: dict = {}


def _keras_class(cls):
    """KerasVariable mixed into a loaded variable's class (made once per class)."""
    if cls not in _KERAS_CLASSES:
        _KERAS_CLASSES[cls] = type(KerasVariable.__name__, (KerasVariable, cls),
                                   {"__module__": KerasVariable.__module__})
    return _KERAS_CLASSES[cls]


class TFSMLayer(Layer):
    """Reload a Keras model/layer saved via SavedModel / ExportArchive; call it like any layer."""

    def __init__(self, filepath, call_endpoint="serve", call_training_endpoint=None, trainable=True, name=None,
                 dtype=None):
        super().__init__(trainable=trainable, name=name, dtype=dtype)
        self._reloaded_obj = _tf.saved_model.load(str(filepath))
        self.filepath = filepath
        self.call_endpoint = call_endpoint
        self.call_training_endpoint = call_training_endpoint
        self.call_endpoint_fn = _endpoint(self._reloaded_obj, call_endpoint)
        fns = [self.call_endpoint_fn]
        if call_training_endpoint:
            self.call_training_endpoint_fn = _endpoint(self._reloaded_obj, call_training_endpoint)
            fns.append(self.call_training_endpoint_fn)
        trainable_vars, other_vars = _variables_used_by(fns)
        for v in trainable_vars + other_vars:
            self._add_existing_weight(v)
        self.built = True

    def _add_existing_weight(self, weight):
        """Track the loaded variable itself as a Keras weight, named as saved with "/" as "_" (outside the layer's
        name scope, as Keras names it): it becomes a KerasVariable in place, so the endpoints keep reading it."""
        name = weight.name.replace("/", "_")
        if not isinstance(weight, KerasVariable):
            dtype = weight.dtype
            weight.__class__ = _keras_class(type(weight))
            weight.dtype = dtype  # KerasVariable keeps its own dtype apart (for autocasting)
            weight._autocast, weight._keras_aggregation, weight.regularizer = True, "none", None
        weight._name = weight._short_name = name
        weight.path = name
        (self._trainable_own if weight.trainable else self._non_trainable_own).append(weight)

    def call(self, inputs, training=False, **kwargs):
        if training and self.call_training_endpoint:
            return self.call_training_endpoint_fn(inputs, **kwargs)
        return self.call_endpoint_fn(inputs, **kwargs)

    def get_config(self) -> dict:
        return {**super().get_config(), "filepath": self.filepath, "call_endpoint": self.call_endpoint,
                "call_training_endpoint": self.call_training_endpoint}

    @classmethod
    def from_config(cls, config, custom_objects=None, safe_mode=None):
        effective = safe_mode if safe_mode is not None else keras_config.in_safe_mode()
        if effective is not False:
            raise ValueError(UNSAFE_TFSM)
        return cls(**config)
