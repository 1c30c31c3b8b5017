"""keras.Input and InputLayer: the symbolic entry point of a Functional model."""

from __future__ import annotations

import warnings

from ..layers.layer import Layer
from .functional import Node
from .keras_tensor import KerasTensor


class InputLayer(Layer):
    """Holds the KerasTensor a Functional model starts from (shape without or with the batch axis)."""

    def __init__(self, shape=None, batch_size=None, dtype=None, sparse=None, batch_shape=None, input_tensor=None,
                 optional=False, name=None, **kwargs):
        if "input_shape" in kwargs:  # Keras 3 still takes it, over `shape`, with a warning
            warnings.warn("Argument `input_shape` is deprecated. Use `shape` instead.", stacklevel=2)
            shape = kwargs.pop("input_shape")
        if "batch_input_shape" in kwargs and batch_shape is None:
            batch_shape = kwargs.pop("batch_input_shape")
        super().__init__(name=name, dtype=dtype)
        if shape is not None and batch_shape is not None:
            raise ValueError("You cannot pass both `shape` and `batch_shape` at the same time.")
        if batch_shape is None:
            if shape is None:
                raise ValueError("You must pass a `shape` argument.")
            if not isinstance(shape, (tuple, list)) and not hasattr(shape, "as_list"):
                raise ValueError(f"Cannot convert '{shape}' to a shape.")  # Keras' error for Input(3)
            batch_shape = (batch_size,) + tuple(shape)
        self.batch_shape = tuple(batch_shape)
        self.sparse, self.optional = bool(sparse), optional
        self.built = True
        if input_tensor is None:
            input_tensor = KerasTensor(self.batch_shape, self.dtype, name=name, sparse=self.sparse)
        node = Node(self, (), {}, input_tensor)
        input_tensor._keras_history = (self, node, 0)
        self._inbound_nodes.append(node)

    def call(self, inputs):
        return inputs

    def get_config(self) -> dict:
        return {"batch_shape": self.batch_shape, "dtype": self.dtype, "sparse": self.sparse, "ragged": False,
                "name": self.name, "optional": self.optional}

    @classmethod
    def from_config(cls, config: dict):
        config = {k: v for k, v in config.items() if k != "ragged"}
        return cls(**config)


def Input(shape=None, batch_size=None, dtype=None, sparse=None, batch_shape=None, name=None, tensor=None,
          optional=False) -> KerasTensor:  # noqa: N802 - Keras' name
    """A symbolic input (batch axis None unless batch_size or batch_shape says otherwise)."""
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, sparse=sparse, batch_shape=batch_shape,
                       name=name, input_tensor=tensor, optional=optional)
    return layer._inbound_nodes[0].outputs
