"""Layers that merge a list of inputs: Concatenate, Add, Subtract, Multiply, Average, Maximum, Minimum."""

from __future__ import annotations

import functools

import tinytf as _tf

from ..masking import get_keras_mask, set_keras_mask
from .layer import Layer


class Merge(Layer):
    """Base of the elementwise merges: checks it gets a list of at least two inputs of compatible shapes."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def build(self, input_shape) -> None:
        if not isinstance(input_shape, (list, tuple)) or not input_shape or \
                not isinstance(input_shape[0], (list, tuple)):
            raise ValueError(f"A merge layer should be called on a list of inputs. Received: "
                             f"input_shape={input_shape} (not a list of shapes)")
        if len(input_shape) < 1:
            raise ValueError(f"A merge layer should be called on a list of at least 1 input. Got "
                             f"{len(input_shape)} inputs. Full input_shape received: {input_shape}")
        ranks = {len(s) for s in input_shape}
        if len(ranks) == 1:
            for axis in range(1, len(input_shape[0])):
                sizes = {s[axis] for s in input_shape} - {None, 1}
                if len(sizes) > 1:
                    raise ValueError(f"Inputs have incompatible shapes. Received shapes "
                                     f"{', '.join(str(tuple(s)) for s in input_shape)}")
        self.built = True

    def _merge(self, inputs):
        raise NotImplementedError

    def compute_mask(self, inputs, previous_mask=None):
        """A step is kept if any input keeps it (Keras 3); no mask unless every input has one."""
        masks = _mask_list(inputs, previous_mask)
        if masks is None or any(m is None for m in masks):
            return None
        return functools.reduce(_tf.logical_or, masks)

    def call(self, inputs):
        return self._merge(list(inputs))


class Add(Merge):
    """The elementwise sum of the inputs."""

    def _merge(self, inputs):
        return functools.reduce(lambda a, b: a + b, inputs)


class Subtract(Merge):
    """inputs[0] - inputs[1] (exactly two inputs)."""

    def build(self, input_shape) -> None:
        super().build(input_shape)
        if len(input_shape) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: "
                             f"input_shape={input_shape}")

    def _merge(self, inputs):
        if len(inputs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: inputs={inputs}")
        return inputs[0] - inputs[1]


class Multiply(Merge):
    """The elementwise product of the inputs. As in Keras 3, a masked input counts as 1 where it is masked, and
    when every input has a mask the output is 0 where all of them are masked."""

    def _merge(self, inputs):
        masks = [get_keras_mask(x) for x in inputs]
        if all(m is None for m in masks):
            return functools.reduce(lambda a, b: a * b, inputs)
        every_masked = all(m is not None for m in masks)
        output = output_mask = None
        for x, mask in zip(inputs, masks):
            if mask is not None:
                mask = _broadcast_mask(mask, x)
                x = _tf.where(mask, x, _tf.ones_like(x))
                if every_masked:
                    output_mask = mask if output_mask is None else _tf.logical_or(output_mask, mask)
            output = x if output is None else output * x
        if every_masked:
            output = _tf.where(output_mask, output, _tf.zeros_like(output))
            set_keras_mask(output, _tf.reduce_any(output_mask, axis=-1))
        return output


class Average(Merge):
    """The elementwise mean of the inputs."""

    def _merge(self, inputs):
        return functools.reduce(lambda a, b: a + b, inputs) / float(len(inputs))


class Maximum(Merge):
    """The elementwise maximum of the inputs; masked values never win (see _merge_ignoring_masked)."""

    def _merge(self, inputs):
        return _merge_ignoring_masked(_tf.maximum, inputs)


class Minimum(Merge):
    """The elementwise minimum of the inputs; masked values never win (see _merge_ignoring_masked)."""

    def _merge(self, inputs):
        return _merge_ignoring_masked(_tf.minimum, inputs)


def _broadcast_mask(mask, x):
    """A [batch, steps] mask spread over x's last (feature) axis."""
    return _tf.broadcast_to(_tf.expand_dims(mask, -1), _tf.shape(x))


def _merge_ignoring_masked(op, inputs):
    """Keras 3's merge for operations without an identity element (max, min): where an input is masked it
    takes the running result's value, and where the running result is masked it takes the input's, so a
    masked value never decides. The output's mask is the OR of the masks while every input so far has one;
    it is attached here (any over the feature axis), so the Layer does not compute another."""
    output = output_mask = None
    for x in inputs:
        mask = get_keras_mask(x)
        if mask is not None:
            mask = _broadcast_mask(mask, x)
        if output is None:
            output, output_mask = x, mask
            continue
        if mask is not None:
            x = _tf.where(mask, x, output)
        if output_mask is not None:
            output = _tf.where(output_mask, output, x)
        output_mask = _tf.logical_or(output_mask, mask) if mask is not None and output_mask is not None else None
        output = op(output, x)
    if output_mask is not None:
        set_keras_mask(output, _tf.reduce_any(output_mask, axis=-1))
    return output


class Concatenate(Layer):
    """Joins the inputs along `axis`; every other axis must agree."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis
        self.supports_masking = True

    def build(self, input_shape) -> None:
        if not isinstance(input_shape, (list, tuple)) or not input_shape or \
                not isinstance(input_shape[0], (list, tuple)):
            raise ValueError(f"A `Concatenate` layer should be called on a list of at least 1 input. "
                             f"Received: input_shape={input_shape}")
        rank = len(input_shape[0])
        axis = self.axis % rank if rank else 0
        for shape in input_shape:
            if len(shape) != rank or any(
                    a != axis and shape[a] is not None and input_shape[0][a] is not None and
                    shape[a] != input_shape[0][a] for a in range(rank)):
                raise ValueError(f"A `Concatenate` layer requires inputs with matching shapes except for the "
                                 f"concatenation axis. Received: input_shape={[tuple(s) for s in input_shape]}")
        self.built = True

    def call(self, inputs):
        return _tf.concat(list(inputs), self.axis)

    def compute_mask(self, inputs, previous_mask=None):
        """The inputs' masks (all True for an unmasked input) joined like the inputs, then any() over the
        last axis, as Keras 3 does."""
        masks = _mask_list(inputs, previous_mask)
        if masks is None or all(m is None for m in masks):
            return None
        full = []
        for tensor, mask in zip(inputs, masks):
            if mask is None:
                full.append(_tf.ones_like(tensor, dtype=_tf.bool))
            elif len(mask.shape) < len(tensor.shape):
                full.append(_tf.logical_or(_tf.expand_dims(mask, -1), _tf.zeros_like(tensor, dtype=_tf.bool)))
            else:
                full.append(mask)
        return _tf.reduce_any(_tf.concat(full, self.axis), axis=-1)

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis}


def _mask_list(inputs, masks):
    if masks is None:
        return None
    if not isinstance(masks, (list, tuple)) or not isinstance(inputs, (list, tuple)):
        raise ValueError(f"`mask` should be a list. Received: mask={masks}")
    if len(masks) != len(inputs):
        raise ValueError(f"The lists `inputs` and `mask` should have the same length. Received: inputs of length "
                         f"{len(inputs)}, and mask of length {len(masks)}")
    return list(masks)


def add(inputs, **kwargs):
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)
