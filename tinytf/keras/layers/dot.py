"""Dot and keras.layers.dot: the batched dot product of two inputs along the given axes (optionally of their
L2-normalized forms: cosine proximity), Keras 3's batch_dot."""

from __future__ import annotations

import tinytf as _tf

from .merging import Merge


def batch_dot(x, y, axes):
    """Keras 3's batch_dot: contract x's axis axes[0] with y's axis axes[1], sample by sample (axis 0)."""
    x_ndim, y_ndim = len(x.shape), len(y.shape)
    a0, a1 = axes
    if 0 in (a0, a1):
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not batched, add a dummy batch "
                         "dimension to your inputs using keras.ops.expand_dims(x, 0)")
    d1, d2 = x.shape[a0], y.shape[a1]
    if d1 is not None and d2 is not None and d1 != d2:
        raise ValueError(f"Cannot do batch_dot on inputs with shapes {tuple(x.shape.as_list())} and "
                         f"{tuple(y.shape.as_list())} with axes={list(axes)}. x.shape[{a0}] != y.shape[{a1}] "
                         f"({d1} != {d2}).")
    # move the contracted axis of x last and that of y to position 1, then one einsum does the rest
    x_axes = [i for i in range(1, x_ndim) if i != a0]
    y_axes = [i for i in range(1, y_ndim) if i != a1]
    letters = iter("abcdefghijklmnopqrstuvwxy")
    batch, shared = next(letters), "z"
    x_sub = {i: next(letters) for i in x_axes}
    y_sub = {i: next(letters) for i in y_axes}
    x_spec = batch + "".join(shared if i == a0 else x_sub[i] for i in range(1, x_ndim))
    y_spec = batch + "".join(shared if i == a1 else y_sub[i] for i in range(1, y_ndim))
    out_spec = batch + "".join(x_sub[i] for i in x_axes) + "".join(y_sub[i] for i in y_axes)
    result = _tf.einsum(f"{x_spec},{y_spec}->{out_spec}", x, y)
    return _tf.expand_dims(result, -1) if len(out_spec) == 1 else result


class Dot(Merge):
    """The dot product of two samples' tensors along `axes` (an int for both, or one per input)."""

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)):
                raise TypeError(f"Invalid type for argument `axes`: it should be a list or an int. Received: "
                                f"axes={axes}")
            if len(axes) != 2:
                raise ValueError(f"Invalid format for argument `axes`: it should contain two elements. Received: "
                                 f"axes={axes}")
            if not isinstance(axes[0], int) or not isinstance(axes[1], int):
                raise ValueError(f"Invalid format for argument `axes`: list elements should be integers. Received: "
                                 f"axes={axes}")
        self.axes, self.normalize = axes, normalize

    def _axes_for(self, rank1, rank2):
        if isinstance(self.axes, int):
            return [self.axes % rank1, self.axes % rank2] if self.axes < 0 else [self.axes] * 2
        return [a % r if a < 0 else a for a, r in zip(self.axes, (rank1, rank2))]

    def build(self, input_shape) -> None:
        if not isinstance(input_shape[0], (tuple, list)) or len(input_shape) != 2:
            raise ValueError(f"A `Dot` layer should be called on a list of 2 inputs. Received: "
                             f"input_shape={input_shape}")
        shape1, shape2 = input_shape
        axes = self._axes_for(len(shape1), len(shape2))
        if shape1[axes[0]] != shape2[axes[1]]:
            raise ValueError(f"Incompatible input shapes: axis values {shape1[axes[0]]} (at axis {axes[0]}) != "
                             f"{shape2[axes[1]]} (at axis {axes[1]}). Full input shapes: {tuple(shape1)}, "
                             f"{tuple(shape2)}")

    def _merge(self, inputs):
        if len(inputs) != 2:
            raise ValueError(f"A `Dot` layer should be called on exactly 2 inputs. Received: inputs={inputs}")
        x1, x2 = inputs
        axes = self._axes_for(len(x1.shape), len(x2.shape))
        if self.normalize:
            x1 = _tf.math.l2_normalize(x1, axis=axes[0])
            x2 = _tf.math.l2_normalize(x2, axis=axes[1])
        return batch_dot(x1, x2, axes)

    def compute_output_shape(self, input_shape):
        shape1, shape2 = list(input_shape[0]), list(input_shape[1])
        axes = self._axes_for(len(shape1), len(shape2))
        shape1.pop(axes[0])
        shape2.pop(axes[1])
        shape2.pop(0)
        output = shape1 + shape2
        return tuple(output + [1] if len(output) == 1 else output)

    def compute_mask(self, inputs, previous_mask=None):
        return None

    def get_config(self) -> dict:
        return {**super().get_config(), "axes": self.axes, "normalize": self.normalize}


def dot(inputs, axes=-1, **kwargs):
    """The functional interface to the Dot layer."""
    return Dot(axes=axes, **kwargs)(inputs)
