"""keras.layers.HashedCrossing: the hashed cross of two or more categorical features (TF's
tf.sparse.cross_hashed with its default key, on one value a row), as int bins or one_hot vectors."""

from __future__ import annotations

import numpy as np

import tinytf as _tf
from tinytf.runtime.ops.feature_cross import cross_hashed_rows

from ..layer import Layer
from .encoding import encode_categorical_inputs
from .index_lookup import validate_string_arg


class HashedCrossing(Layer):
    """Crosses features of shape (), (batch,) or (batch, 1) into `num_bins` bins."""

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None, **kwargs):
        if output_mode == "int" and dtype is None:
            dtype = "int64"
        super().__init__(name=name, dtype=dtype, autocast=False, **kwargs)
        validate_string_arg(output_mode, ("int", "one_hot"), "HashedCrossing", "output_mode")
        if sparse:
            raise ValueError("HashedCrossing(sparse=True) is not supported by tinytf: its outputs are dense")
        self.num_bins, self.output_mode, self.sparse = num_bins, output_mode, sparse

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"`HashedCrossing` should be called on a list or tuple of inputs. Received: "
                             f"inputs={inputs}")
        if len(inputs) < 2:
            raise ValueError(f"`HashedCrossing` should be called on at least two inputs. Received: inputs={inputs}")
        inputs = [_tf.convert_to_tensor(np.asarray(x) if isinstance(x, (list, tuple)) else x) for x in inputs]
        first_shape = tuple(inputs[0].shape)
        rank = len(first_shape)
        if rank > 2 or (rank == 2 and first_shape[-1] != 1):
            raise ValueError(f"All `HashedCrossing` inputs should have shape `()`, `(batch_size)` or "
                             f"`(batch_size, 1)`. Received: inputs={inputs}")
        if not all(tuple(x.shape) == first_shape for x in inputs[1:]):
            raise ValueError(f"All `HashedCrossing` inputs should have equal shape. Received: inputs={inputs}")
        crossed = cross_hashed_rows([_tf.reshape(x, [-1]) for x in inputs], self.num_bins)
        if rank == 2:
            crossed = _tf.expand_dims(crossed, -1)
        elif rank == 0:
            crossed = _tf.reshape(crossed, [])
        return _tf.cast(encode_categorical_inputs(crossed, self.output_mode, self.num_bins, self.compute_dtype),
                        self._dtype_name)

    def compute_output_shape(self, input_shape):
        first = tuple(input_shape[0])
        if self.output_mode == "int":
            return first
        if first and first[-1] != 1:
            return first + (self.num_bins,)
        return first[:-1] + (self.num_bins,)

    def get_config(self) -> dict:
        return {"num_bins": self.num_bins, "output_mode": self.output_mode, "sparse": self.sparse, "name": self.name,
                "dtype": super().get_config()["dtype"]}
