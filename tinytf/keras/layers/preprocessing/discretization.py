"""keras.layers.Discretization: numbers -> bucket indices by bin boundaries (TF's Bucketize: the index is the
number of boundaries <= x), given or learned by adapt() with Keras 3's approximate quantile summaries (the
same numpy steps, so the same boundaries)."""

from __future__ import annotations

import numpy as np

import tinytf as _tf

from ..layer import Layer
from .encoding import encode_categorical_inputs
from .index_lookup import validate_string_arg


def summarize(values, epsilon):
    """Keras' summary of a batch: about 1/epsilon sorted values, each weighted by the values it stands for."""
    values = np.sort(np.reshape(values, [-1]))
    step = max(np.size(values) / (1.0 / epsilon), 1)
    boundaries = values[int(step - 1)::int(step)]
    return np.stack([boundaries, np.ones_like(boundaries) * step])


def compress_summary(summary, epsilon):
    """Interpolate a summary's cumulative weights at multiples of epsilon (Keras' compression)."""
    if summary.shape[1] * epsilon < 1:
        return summary
    percents = epsilon + np.arange(0.0, 1.0, epsilon)
    cum_weights = summary[1].cumsum()
    cum_weight_percents = cum_weights / cum_weights[-1]
    new_bins = np.interp(percents, cum_weight_percents, summary[0])
    cum_weights = np.interp(percents, cum_weight_percents, cum_weights)
    new_weights = cum_weights - np.concatenate((np.array([0]), cum_weights[:-1]))
    return np.stack((new_bins, new_weights)).astype("float32")


def merge_summaries(prev_summary, next_summary, epsilon):
    merged = np.concatenate((prev_summary, next_summary), axis=1)
    merged = np.take(merged, np.argsort(merged[0]), axis=1)
    return compress_summary(merged, epsilon)


def get_bin_boundaries(summary, num_bins):
    return compress_summary(summary, 1.0 / num_bins)[0, :-1]


class Discretization(Layer):
    """Buckets continuous features: output_mode "int" gives int32 bucket indices, "one_hot", "multi_hot" and
    "count" encode them over len(bin_boundaries) + 1 buckets."""

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int", sparse=False,
                 dtype=None, name=None, **kwargs):
        super().__init__(name=name, dtype=dtype, **kwargs)
        if sparse and output_mode == "int":
            raise ValueError(f"`sparse=True` may only be used if `output_mode` is `'one_hot'`, `'multi_hot'`, or "
                             f"`'count'`. Received: sparse={sparse} and output_mode={output_mode}")
        if sparse:
            raise ValueError("Discretization(sparse=True) is not supported by tinytf: its outputs are dense")
        validate_string_arg(output_mode, ("int", "one_hot", "multi_hot", "count"), "Discretization", "output_mode")
        if num_bins is not None and num_bins < 0:
            raise ValueError(f"`num_bins` must be greater than or equal to 0. Received: `num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError(f"Both `num_bins` and `bin_boundaries` should not be set. Received: "
                             f"`num_bins={num_bins}` and `bin_boundaries={bin_boundaries}`")
        if num_bins is None and bin_boundaries is None:
            raise ValueError("You need to set either `num_bins` or `bin_boundaries`.")
        self.bin_boundaries, self.num_bins, self.epsilon = bin_boundaries, num_bins, epsilon
        self.output_mode, self.sparse = output_mode, sparse
        self.summary = None if self.bin_boundaries else np.array([[], []], dtype="float32")

    @property
    def output_dtype(self) -> str:
        return self.compute_dtype if self.output_mode != "int" else "int32"

    def adapt(self, data, steps=None) -> None:
        """Learn `num_bins` quantile boundaries from data: an array, a tensor, a batched tf.data.Dataset or an
        iterable of batches."""
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized with `bin_boundaries`, "
                             "use `num_bins` instead.")
        self.reset_state()
        if isinstance(data, _tf.data.Dataset):
            if steps is not None:
                data = data.take(steps)
            for batch in data:
                self.update_state(batch)
        elif hasattr(data, "__iter__") and not isinstance(data, (np.ndarray, _tf.Tensor)):
            for i, batch in enumerate(data):
                if steps is not None and i >= steps:
                    break
                self.update_state(batch)
        else:
            self.update_state(data)
        self.finalize_state()

    def update_state(self, data) -> None:
        data = np.array(data.numpy() if hasattr(data, "numpy") else data).astype("float32")
        self.summary = merge_summaries(summarize(data, self.epsilon), self.summary, self.epsilon)

    def finalize_state(self) -> None:
        if self.num_bins is not None:
            self.bin_boundaries = get_bin_boundaries(self.summary, self.num_bins).tolist()

    def reset_state(self) -> None:
        if self.num_bins is not None:
            self.summary = np.array([[], []], dtype="float32")

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError("You need to either pass the `bin_boundaries` argument at construction time or call "
                             "`adapt(dataset)` before you can start using the `Discretization` layer.")
        inputs = _tf.convert_to_tensor(inputs)
        # Bucketize's boundaries are a float32 attribute; inputs compare against them as floats
        boundaries = _tf.constant(np.asarray(self.bin_boundaries, np.float32).astype(np.float64))
        flat = _tf.reshape(_tf.cast(inputs, _tf.float64), [-1])
        indices = _tf.reshape(_tf.searchsorted(boundaries, flat, side="right", out_type=_tf.int32),
                              _tf.shape(inputs))
        return encode_categorical_inputs(indices, self.output_mode, len(self.bin_boundaries) + 1, self.output_dtype)

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return input_shape
        depth = len(self.bin_boundaries) + 1 if self.bin_boundaries is not None else self.num_bins
        if self.output_mode == "one_hot":
            if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
                return tuple(input_shape[:-1]) + (depth,)
            return tuple(input_shape) + (depth,)
        if input_shape and len(input_shape) >= 2:
            return (input_shape[0],) + tuple(input_shape[2:]) + (depth,)
        return (depth,)

    def get_config(self) -> dict:
        return {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins, "epsilon": self.epsilon,
                "output_mode": self.output_mode, "sparse": self.sparse, "name": self.name,
                "dtype": super().get_config()["dtype"]}

    @classmethod
    def from_config(cls, config: dict, custom_objects=None):
        if config.get("bin_boundaries") is not None and config.get("num_bins") is not None:
            config = dict(config)
            bin_boundaries = config.pop("bin_boundaries")
            layer = cls(**config)
            layer.bin_boundaries = bin_boundaries
            return layer
        return cls(**config)
