"""keras.layers.Hashing: categorical features -> bins by FarmHash Fingerprint64 (tf.strings.to_hash_bucket_fast)
or, with a salt, keyed SipHash (to_hash_bucket_strong); numbers are hashed by their decimal text (floats cast to
int64 first), as Keras 3 does it; `mask_value` takes bin 0 and the others shift up by one."""

from __future__ import annotations

import tinytf as _tf

from ..layer import Layer
from .encoding import encode_categorical_inputs


class Hashing(Layer):
    """Hashes strings or integers into `num_bins` bins; output_mode int, one_hot, multi_hot or count."""

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False, **kwargs):
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else "float32"
        super().__init__(autocast=False, **kwargs)
        if num_bins is None or num_bins <= 0:
            raise ValueError(f"The `num_bins` for `Hashing` cannot be `None` or non-positive values. Received: "
                             f"num_bins={num_bins}.")
        if output_mode == "int" and self._dtype_name not in ("int32", "int64"):
            raise ValueError(f"When `output_mode=\"int\"`, `dtype` should be an integer type, 'int32' or 'in64'. "
                             f"Received: dtype={kwargs['dtype']}")
        modes = ("int", "one_hot", "multi_hot", "count")
        if output_mode not in modes:
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {modes}. Received: "
                             f"output_mode={output_mode}")
        if sparse and output_mode == "int":
            raise ValueError(f'`sparse` may only be true if `output_mode` is `"one_hot"`, `"multi_hot"`, or '
                             f'`"count"`. Received: sparse={sparse} and output_mode={output_mode}')
        if sparse:
            raise ValueError("Hashing(sparse=True) is not supported by tinytf: its outputs are dense")
        self.num_bins, self.mask_value, self.output_mode, self.sparse = num_bins, mask_value, output_mode, sparse
        self.strong_hash = salt is not None
        self.salt = None
        if salt is not None:
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                self.salt = list(salt)
            elif isinstance(salt, int):
                self.salt = [salt, salt]
            else:
                raise ValueError(f"The `salt` argument for `Hashing` can only be a tuple of size 2 integers, or a "
                                 f"single integer. Received: salt={salt}.")

    def _hash_values_to_bins(self, values):
        bins, mask = self.num_bins, None
        if self.mask_value is not None and bins > 1:
            bins -= 1
            mask = _tf.equal(values, _tf.constant(self.mask_value, values.dtype))
        if values.dtype.is_floating:
            values = _tf.cast(values, "int64")
        if values.dtype != _tf.string:
            values = _tf.strings.as_string(values)
        if self.strong_hash:
            values = _tf.strings.to_hash_bucket_strong(values, bins, key=self.salt)
        else:
            values = _tf.strings.to_hash_bucket_fast(values, bins)
        if mask is not None:
            values = _tf.where(mask, _tf.zeros_like(values), values + 1)
        return values

    def call(self, inputs):
        inputs = _tf.convert_to_tensor(inputs)
        if self.output_mode == "one_hot" and inputs.shape.rank and inputs.shape[-1] == 1:
            inputs = _tf.squeeze(inputs, axis=-1)
        indices = self._hash_values_to_bins(inputs)
        return encode_categorical_inputs(indices, self.output_mode, self.num_bins, self._dtype_name)

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        if len(input_shape) == 0:
            return (self.num_bins,)
        return tuple(input_shape[:-1]) + (self.num_bins,)

    def get_config(self) -> dict:
        return {**super().get_config(), "num_bins": self.num_bins, "salt": self.salt, "mask_value": self.mask_value,
                "output_mode": self.output_mode, "sparse": self.sparse}
