"""TF1's `tf.compat.v1.layers.Layer` (the base of tf.layers and of the tf.nn.rnn_cell cells): a layer that owns
a variable scope, chosen on its first call (`dense`, `dense_1`, ..., or the `name` given), whose weights are
`get_variable`s of that scope, so TF1 checkpoints' names match (`dense/kernel:0`, `rnn/basic_lstm_cell/kernel:0`)
and `variable_scope(..., reuse=True)` shares them. Built on the first call from the input's shape; later calls
reuse the variables. In a TF1 graph, its update ops join the UPDATE_OPS collection and regularization losses
REGULARIZATION_LOSSES, as TF1 training loops expect."""

from __future__ import annotations

import re

from tinytf.runtime import dtypes
from tinytf.runtime.shapes import TensorShape

from ... import nest
from ...scopes import name_scope
from .variable_scope import VariableScope, enclosing_tf1_graph, get_variable, get_variable_scope, variable_scope

_eager_layer_names: dict = {}  # eagerly, Keras keeps its per-graph name counters on the global graph


def snake_case(name: str) -> str:
    """Keras' to_snake_case: `BasicLSTMCell` -> `basic_lstm_cell`, `Conv2D` -> `conv2d`."""
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    insecure = re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()
    return insecure if insecure[0] != "_" else "private" + insecure


def _unique_layer_name(base: str) -> str:
    """Keras' unique_object_name: the layer's `name` (`dense_1`, `dense_2`; its variable scope is still `dense`),
    counted per TF1 graph."""
    graph = enclosing_tf1_graph()
    if graph is not None:
        if not hasattr(graph, "_layer_names"):
            graph._layer_names = {}
        counts = graph._layer_names
    else:
        counts = _eager_layer_names
    counts[base] = counts.get(base, 0) + 1  # Keras' non-zero-based count: the first is `dense_1`
    return f"{base}_{counts[base]}"


class Layer:
    """`tf.compat.v1.layers.Layer`: build(input_shape) creates the weights with add_weight, call(inputs) uses
    them; `layer(inputs)` (or `layer.apply(inputs)`) builds on the first call inside the layer's scope."""

    def __init__(self, trainable=True, name=None, dtype=None, _scope=None, _reuse=None, **kwargs):
        unknown = set(kwargs) - {"activity_regularizer", "input_shape", "batch_input_shape", "autocast"}
        if unknown:
            raise TypeError(f"Keyword argument not understood: {sorted(unknown)[0]!r}")
        self.trainable = trainable
        self._reuse = _reuse
        self._dtype = dtypes.as_dtype(dtype) if dtype is not None else None
        self._trainable_weights: list = []
        self._non_trainable_weights: list = []
        self._updates: list = []
        self._losses: list = []
        self.built = False
        self.activity_regularizer = kwargs.get("activity_regularizer")
        self._base_name = snake_case(type(self).__name__)
        if isinstance(name, VariableScope):
            self._base_name = name.name
            self._name = _unique_layer_name(snake_case(type(self).__name__))
        elif name:
            self._base_name = name
            self._name = name
        else:
            self._name = _unique_layer_name(self._base_name)
        self._scope = None
        if _scope:
            with variable_scope(_scope) as captured:
                self._scope = captured

    # --- names and scopes ----------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self):
        return self._dtype.name if self._dtype is not None else None

    @property
    def scope_name(self) -> str:
        if not self._scope:
            raise ValueError(f'No name available for layer scope because the layer "{self._name}" has not been '
                             "used yet. The scope name  is determined the first time the layer instance is called. "
                             "You must therefore call the layer before querying `scope_name`.")
        return self._scope.name

    def _set_scope(self, scope=None) -> None:
        """The layer's variable scope, fixed on first use: `scope`, else a fresh one named after the layer (or
        exactly its name when the layer reuses variables), as TF's legacy layers choose it."""
        if self._scope is not None:
            return
        if self._reuse:
            with variable_scope(scope if scope is not None else self._base_name) as captured:
                self._scope = captured
        else:
            with variable_scope(scope, default_name=self._base_name) as captured:
                self._scope = captured

    # --- weights -------------------------------------------------------------------------------------------
    def add_weight(self, name, shape, dtype=None, initializer=None, regularizer=None, trainable=None,
                   constraint=None, partitioner=None, use_resource=None, **kwargs):
        """A `get_variable` of the layer's scope (found rather than created when the layer or scope reuses)."""
        trainable = True if trainable is None else trainable
        dtype = dtypes.as_dtype(dtype) if dtype is not None else (self._dtype or dtypes.float32)
        self._set_scope(None)
        reuse = True if self.built or self._reuse else None
        with variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as scope:
            if initializer is None:
                initializer = scope.initializer
            variable = get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                                    regularizer=regularizer, trainable=trainable and self.trainable,
                                    constraint=constraint)
        target = self._trainable_weights if trainable and self.trainable else self._non_trainable_weights
        if all(variable is not v for v in self._trainable_weights + self._non_trainable_weights):
            target.append(variable)
        if regularizer is not None and enclosing_tf1_graph() is None:
            self._losses.append(regularizer(variable))
        return variable

    @property
    def trainable_weights(self) -> list:
        return list(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self) -> list:
        if self.trainable:
            return list(self._non_trainable_weights)
        return list(self._trainable_weights) + list(self._non_trainable_weights)

    @property
    def weights(self) -> list:
        return self.trainable_weights + self.non_trainable_weights

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    def get_weights(self) -> list:
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights) -> None:
        for variable, value in zip(self.weights, weights):
            variable.assign(value)

    def count_params(self) -> int:
        return sum(int(_size(w.shape)) for w in self.weights)

    @property
    def updates(self) -> list:
        return list(self._updates)

    def add_update(self, update) -> None:
        self._updates.extend(nest.flatten(update))

    @property
    def losses(self) -> list:
        return list(self._losses)

    def add_loss(self, losses, inputs=None) -> None:
        new = [loss for loss in nest.flatten(losses) if loss is not None]
        self._losses.extend(new)
        if enclosing_tf1_graph() is not None:
            _add_to_collection("regularization_losses", new)

    # --- calling -------------------------------------------------------------------------------------------
    def build(self, input_shape) -> None:
        self.built = True

    def call(self, inputs, *args, **kwargs):
        return inputs

    def apply(self, *args, **kwargs):
        return self(*args, **kwargs)

    def __call__(self, inputs, *args, **kwargs):
        scope = kwargs.pop("scope", None)
        self._set_scope(scope)
        reuse = True if self.built else self._reuse
        with variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as current:
            with name_scope(current.name + "/"):
                if not self.built:
                    first = nest.flatten(inputs)[0]
                    if self._dtype is None and hasattr(first, "dtype"):
                        self._dtype = first.dtype if first.dtype.is_floating else dtypes.float32
                    shapes = nest.map_structure(lambda t: _shape_of(t), inputs)
                    self.build(shapes)
                    self.built = True
                outputs = self.call(inputs, *args, **kwargs)
                if self.activity_regularizer is not None:
                    self.add_loss([self.activity_regularizer(o) for o in nest.flatten(outputs)])
        if enclosing_tf1_graph() is not None:
            _add_to_collection("update_ops", self._updates)
        return outputs

    def get_config(self) -> dict:
        return {"name": self.name, "trainable": self.trainable, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__name__} name={self.name!r}>"


def _shape_of(tensor):
    shape = getattr(tensor, "shape", None)
    return shape if shape is not None else TensorShape(None)


def _size(shape) -> int:
    total = 1
    for dim in shape.as_list():
        total *= dim
    return total


def _add_to_collection(key, items) -> None:
    """Items joined to the default TF1 graph's collection once each (TF's _add_elements_to_collection)."""
    collection = enclosing_tf1_graph().collections.setdefault(key, [])
    present = {id(item) for item in collection}
    for item in nest.flatten(items):
        if id(item) not in present:
            collection.append(item)
            present.add(id(item))


__all__ = ["Layer", "get_variable_scope", "snake_case"]
