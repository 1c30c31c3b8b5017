"""tf.debugging.check_numerics: its input, unchanged, once checked for NaN and infinities. Stateful, as in TF,
so a graph keeps the check in program order even when the value is not used, and folding never runs it early."""

from __future__ import annotations

import numpy as np

from .. import numerics_checks
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, gradient, register

_ALLOWED = ("bfloat16", "float16", "float32", "float64")


def _check_numerics_kernel(x, *, message):
    nan, inf = bool(np.isnan(x).any()), bool(np.isinf(x).any())
    if nan or inf:
        found = "Inf and NaN" if nan and inf else "NaN" if nan else "Inf"
        raise InvalidArgumentError(f"{message} : Tensor had {found} values")
    return x


def _infer_check_numerics(x, *, message):
    if x.dtype.name not in _ALLOWED:
        raise TypeError(f"Value for attr 'T' of {x.dtype.name} is not in the list of allowed values: "
                        "bfloat16, half, float, double")
    return x.dtype, x._shape


check_numerics_op = register(OpDef("check_numerics", _check_numerics_kernel, _infer_check_numerics, stateful=True,
                                   doc="the input, after failing if it holds a NaN or an infinity"))


@gradient(check_numerics_op)
def _check_numerics_grad(record, g):
    # TF checks the gradient on its way back too, naming the forward check's message
    text = f"Not a number (NaN) or infinity (Inf) values detected in gradient. {record.attrs['message']}"
    return apply(check_numerics_op, (g,), {"message": text})


def check_numerics(tensor, message, name=None):
    """`tf.debugging.check_numerics`: `tensor` unchanged, or InvalidArgumentError "<message> : Tensor had NaN
    values" (or Inf, or Inf and NaN) when it holds any; floating dtypes only."""
    return apply(check_numerics_op, (convert_to_tensor(tensor),), {"message": str(message)}, name=name)


def _instrument(op, index, count, tensor):
    """enable_check_numerics while tracing: `tensor` (output `index` of a new `op` node) through a check."""
    if op is check_numerics_op or tensor.dtype.name not in numerics_checks.CHECKED:
        return tensor
    return apply(check_numerics_op, (tensor,), {"message": numerics_checks.graph_message(op.name, index, count,
                                                                                          tensor)})


numerics_checks.instrument = _instrument
