"""tf.debugging.enable_check_numerics: while it is on (per thread, as TF's op callbacks), every op's floating
outputs are checked for infinities and NaNs. Eagerly dispatch checks each result as it is made; while tracing,
each floating output of a new node goes through a check_numerics node (the op that registers it fills in
`instrument`, since the ops import this engine module, not the other way round), so a tf.function traced while
checks are on checks every run, and one traced before stays unchecked, as in TF. InvalidArgumentError names the
op, as TF's "!!! Detected Infinity or NaN in output 0 of eagerly-executing op ..." does."""

from __future__ import annotations

import numpy as np

from .errors import InvalidArgumentError

CHECKED = frozenset(("bfloat16", "float16", "float32", "float64"))

# set by runtime/ops/check_numerics.py: (op name, output index, output count, tensor) -> the checked tensor
instrument = None


def _header(op_name, index, count, kind, dtype, shape) -> str:
    return (f"\n\n!!! Detected Infinity or NaN in output {index} of {kind} op \"{op_name}\" (# of outputs: {count})"
            f" !!!\n  dtype: <dtype: '{dtype.name}'>\n  shape: {shape}\n")


def check_eager(op, inputs, outputs) -> None:
    """Raise InvalidArgumentError when an eager op's floating output holds an infinity or a NaN."""
    results = outputs if isinstance(outputs, tuple) else (outputs,)
    for index, out in enumerate(results):
        if out.dtype.name not in CHECKED:
            continue
        value = np.asarray(out._value)
        if np.isfinite(value).all():
            continue
        counts = {"-Inf": int(np.isneginf(value).sum()), "+Inf": int(np.isposinf(value).sum()),
                  "NaN": int(np.isnan(value).sum())}
        lines = "".join(f"  # of {k} elements: {n}\n" for k, n in counts.items() if n)
        shown = "\n".join(f"         {i}: {str(x)}" for i, x in enumerate(inputs))
        found = " and ".join(k for k, n in counts.items() if n)
        raise InvalidArgumentError(
            _header(op.name, index, len(results), "eagerly-executing", out.dtype, tuple(value.shape)) + lines
            + f"\n  Input tensors ({len(inputs)}):\n{shown}\n\n : Tensor had {found} values")


def graph_message(op_name, index, count, tensor) -> str:
    """The message of the check_numerics node that guards output `index` of a graph op."""
    shape = None if tensor._shape is None else tuple(tensor._shape)
    return _header(op_name, index, count, "graph", tensor.dtype, shape).rstrip("\n") + "\n"
