"""keras.Sequential: a stack of layers, each feeding the next. With a known input shape (keras.Input as the
first layer, or `input_shape=` on it) the stack is wired symbolically at once, so shapes and weights exist
before the first call; otherwise it builds on the first call."""

from __future__ import annotations

import numpy as np

import tinytf as _tf
from tinytf.runtime.tensor import Tensor
from tinytf.variables import Variable

from .. import naming
from ..layers.layer import Layer, _PathScope
from ..masking import get_keras_mask, set_keras_mask
from .functional_model import adjusted_rank
from .input_layer import InputLayer
from .keras_tensor import KerasTensor
from .model import Model


class _WrappedFunctional:
    """Stands for the Functional model inside a Keras 3 Sequential in checkpoints: it holds `_operations`."""

    def __init__(self, operations):
        self._operations = operations

    def _checkpoint_children(self):
        return [("_operations", self._operations)]


class Sequential(Model):
    """Layers applied one after the other."""

    _untracked_attributes = frozenset({"_input_layer", "_symbolic_output"})

    def __init__(self, layers=None, trainable=True, name=None):
        name = name if name is not None else naming.unique_name("sequential")
        super().__init__(name=name, trainable=trainable)
        self._stack: list = []
        self._input_layer = None
        self._symbolic_output = None
        for layer in layers or []:
            self.add(layer, rebuild=False)
        self._maybe_rebuild()

    @property
    def layers(self) -> list:
        return list(self._stack)

    def _checkpoint_children(self):
        """Keras 3 checkpoints a built Sequential through the Functional model it wraps (`_functional`, whose
        `_operations` are the InputLayer and the layers), so the keys match a TF-written checkpoint's."""
        items = [(k, v) for k, v in super()._checkpoint_children() if k not in ("_stack", "_input_layer")]
        if self._input_layer is None:
            return [("_layers", list(self._stack)), *items]
        return [("_functional", _WrappedFunctional([self._input_layer, *self._stack])), *items]

    def add(self, layer, rebuild: bool = True) -> None:
        """Append a layer (a keras.Input or InputLayer first sets the input shape)."""
        if isinstance(layer, KerasTensor):
            layer = layer._keras_history[0]
        if not isinstance(layer, Layer):
            raise ValueError(f"Only instances of `keras.Layer` can be added to a Sequential model. Received: "
                             f"{layer} (of type {type(layer)})")
        if isinstance(layer, InputLayer):
            if self._input_layer is not None or self._stack:
                raise ValueError(f"Sequential model '{self.name}' has already been configured to use an input; an "
                                 f"InputLayer can only be its first layer.")
            self._input_layer = layer
            return
        if any(existing.name == layer.name for existing in self._stack):
            raise ValueError(f"All layers added to a Sequential model should have unique names. Name "
                             f"'{layer.name}' is already the name of a layer in this model. Update the `name` "
                             f"argument to pass a unique name.")
        if not self._stack and self._input_layer is None and layer._batch_input_shape is not None:
            self._input_layer = InputLayer(batch_shape=layer._batch_input_shape, dtype=None)
        self._stack.append(layer)
        if rebuild:
            self._maybe_rebuild()

    def pop(self, rebuild: bool = True) -> Layer:
        """Remove and return the last layer."""
        if not self._stack:
            raise TypeError("There are no layers in the model.")
        layer = self._stack.pop()
        self.built = False
        self._symbolic_output = None
        if rebuild:
            self._maybe_rebuild()
        return layer

    def _maybe_rebuild(self) -> None:
        """Wire the stack symbolically from the input layer: every layer builds and learns its output shape."""
        if self._input_layer is None and len(self._stack) > 1:
            # Keras 3 also builds when the first layer is a model whose input is known (a Sequential of
            # augmentation layers given input_shape, then more layers): it reads that model's `input_shape`
            try:
                shape = self._stack[0].input_shape
            except AttributeError:
                shape = None
            if shape is not None:
                dtype = self._stack[0].compute_dtype
                self._input_layer = InputLayer(batch_shape=tuple(shape), dtype=dtype)
        if self._input_layer is None or not self._stack:
            return
        naming.unique_name("functional")  # Keras 3 wraps the stack in a Functional model, which takes a name
        tensor = self._input_layer._inbound_nodes[0].outputs
        with _PathScope(self):  # weights built here are the model's: "net/dense/kernel", as in Keras 3
            for layer in self._stack:
                tensor = layer(tensor)
        self._symbolic_output = tensor
        self._build_input_shape = tuple(self._input_layer.batch_shape)
        self.built = True

    def build(self, input_shape=None) -> None:
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        if self._input_layer is None:  # of the first layer's compute dtype, as Keras 3 (string for text layers)
            dtype = self._stack[0].compute_dtype if self._stack else None
            self._input_layer = InputLayer(batch_shape=tuple(input_shape), dtype=dtype)
        self._maybe_rebuild()
        self.built = True

    def _convert_input(self, value):
        """Keras 3's Sequential.input_dtype is its Input's dtype: float inputs are cast to it, not to the model's
        compute dtype (a float64 Input keeps float64 data float64 under the float32 policy)."""
        input_dtype = self._input_layer._inbound_nodes[0].outputs.dtype if self._input_layer is not None else None
        if input_dtype is None or not _tf.as_dtype(input_dtype).is_floating:
            return super()._convert_input(value)
        if isinstance(value, Variable):
            value = value.read_value()
        elif isinstance(value, (np.ndarray, np.generic)):
            value = _tf.convert_to_tensor(value)
        if isinstance(value, Tensor) and self.autocast and value.dtype.is_floating and value.dtype.name != input_dtype:
            value = _tf.cast(value, input_dtype)
        return value

    def call(self, inputs, training=None, mask=None):
        if mask is not None:  # an explicit mask rides on the input into the first layer (Keras 3)
            set_keras_mask(inputs, mask)
        if self._input_layer is not None and isinstance(inputs, Tensor):
            symbolic = self._input_layer._inbound_nodes[0].outputs
            if symbolic.dtype is not None and inputs.dtype.name != symbolic.dtype:
                # Keras 3 converts inputs to the dtype of the model's Input (for a Sequential built from its
                # first call, the first layer's compute dtype): a uint8 image enters Resizing as float32
                input_mask = get_keras_mask(inputs)
                inputs = _tf.cast(inputs, symbolic.dtype)
                set_keras_mask(inputs, input_mask)
            inputs = adjusted_rank(inputs, symbolic.shape, symbolic.name)
        for layer in self._stack:
            inputs = layer(inputs)
        return inputs

    @property
    def inputs(self) -> list:
        return [self._input_layer._inbound_nodes[0].outputs] if self._input_layer is not None else []

    @property
    def outputs(self) -> list:
        return [self._symbolic_output] if self._symbolic_output is not None else []

    @property
    def input(self):
        if self._input_layer is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined input yet.")
        return self._input_layer._inbound_nodes[0].outputs

    @property
    def output(self):
        if self._symbolic_output is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined output yet.")
        return self._symbolic_output

    @property
    def input_shape(self):
        return tuple(self.input.shape)

    @property
    def output_shape(self):
        return tuple(self.output.shape)

    def get_config(self) -> dict:
        from ..saving.layer_config import sequential_config

        return sequential_config(self)

    @classmethod
    def from_config(cls, config: dict, custom_objects=None):
        from ..saving.layer_config import sequential_from_config

        return sequential_from_config(config, custom_objects)

    def compute_output_shape(self, input_shape):
        shape = input_shape
        for layer in self._stack:
            shape = layer.compute_output_shape(shape)
        return shape
