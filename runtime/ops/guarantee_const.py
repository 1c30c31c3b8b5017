"""tf.guarantee_const: its input unchanged, a promise to TF's graph optimizers that the value is constant.
tinytf's passes need no such promise, so the op is an identity that constant folding may fold. TF registers no
gradient for GuaranteeConst: a gradient asked through it raises LookupError."""

from __future__ import annotations

from ..dispatch import apply, convert_to_tensor
from ..registry import OpDef, register


def _infer(x):
    if x.dtype.name == "resource":
        raise TypeError("guarantee_const: a resource handle cannot be guaranteed constant")
    return x.dtype, x._shape


# no rule: asking for a gradient through it raises LookupError, as TF (tests/test_gradients_registry.py lists it)
guarantee_const_op = register(OpDef("guarantee_const", lambda x: x, _infer, doc="its input, promised constant"))


def guarantee_const(input, name=None):  # noqa: A002 - TF's argument name
    """Promise to the TF runtime that the input tensor is a constant (returns it unchanged)."""
    return apply(guarantee_const_op, (convert_to_tensor(input),), {}, name=name)
