"""TF's Optional variant ops, as TF's gradients of a cond inside a while loop write them beside the loop's
TensorLists: the forward If hands each value its gradient needs out as an optional (OptionalFromValue in the
branch that computes it, OptionalNone in the other), the loop accumulates those optionals in TensorLists, and
the gradient If's branch takes the value back out (OptionalGetValue). tinytf/graph_def/tf_import.py maps TF's
nodes to these ops one for one; tf.experimental.Optional (tinytf/data/iterator.py) is a Python composite and
does not use them.

An optional's value is an `OptionalValue`: the tuple of its components, or None for an empty one."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from .tensor_array import VARIANT


class OptionalValue:
    """The value of an optional variant tensor: `components` (a tuple) or None."""

    __slots__ = ("components",)
    shape = ()  # an optional is a scalar tensor

    def __init__(self, components):
        self.components = components

    def __repr__(self):
        return "OptionalValue(none)" if self.components is None else f"OptionalValue({len(self.components)} values)"


def _from_value_kernel(*components):
    return OptionalValue(tuple(components))


from_value_op = register(OpDef(
    "optional_from_value", _from_value_kernel, lambda *components: (VARIANT, ()), foldable=False,
    doc="TF's OptionalFromValue: an optional holding the components"))

none_op = register(OpDef(
    "optional_none", lambda: OptionalValue(None), lambda: (VARIANT, ()), differentiable=False, foldable=False,
    doc="TF's OptionalNone: an optional holding nothing"))


def _get_value_kernel(optional, *, output_types, output_shapes):
    components = getattr(optional, "components", None)
    if components is None:
        if isinstance(optional, list) and not optional:
            # the zero gradient of an optional (an empty gradient list): zeros of the components
            return _zeros(output_types, output_shapes)
        raise InvalidArgumentError("The optional does not have a value.")
    return components[0] if len(components) == 1 else components


def _zeros(output_types, output_shapes):
    if any(shape is None or None in shape for shape in output_shapes):
        raise InvalidArgumentError("OptionalGetValue of a zero gradient needs the components' full shapes, got "
                                   f"{output_shapes}")
    values = tuple(np.zeros(shape, dtype.np)[()] for dtype, shape in zip(output_types, output_shapes))
    return values[0] if len(values) == 1 else values


def _infer_get_value(optional, *, output_types, output_shapes):
    if optional.dtype is not VARIANT:
        raise TypeError(f"OptionalGetValue: expected an optional (dtype variant), got dtype {optional.dtype.name}")
    if len(output_types) != len(output_shapes):
        raise ValueError(f"OptionalGetValue: {len(output_types)} output_types but {len(output_shapes)} output_shapes")
    return [(dtype, shape) for dtype, shape in zip(output_types, output_shapes)]


get_value_op = register(OpDef(
    "optional_get_value", _get_value_kernel, _infer_get_value, foldable=False,
    doc="TF's OptionalGetValue: the components of an optional (InvalidArgumentError if it holds nothing)"))

has_value_op = register(OpDef(
    "optional_has_value", lambda optional: np.bool_(getattr(optional, "components", None) is not None),
    lambda optional: (dtypes.bool_, ()), differentiable=False, foldable=False,
    doc="TF's OptionalHasValue: whether the optional holds components"))


# --- wrappers ------------------------------------------------------------------------------------------------------
def optional_from_value(components):
    return apply(from_value_op, tuple(components))


def optional_none():
    return apply(none_op, ())


def optional_get_value(optional, output_types, output_shapes) -> list:
    out = apply(get_value_op, (optional,), {"output_types": tuple(output_types),
                                           "output_shapes": tuple(None if s is None else tuple(s)
                                                                  for s in output_shapes)})
    return list(out) if isinstance(out, (list, tuple)) else [out]


def optional_has_value(optional):
    return apply(has_value_op, (optional,))
