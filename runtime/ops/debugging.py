"""Run-time assertions (tf.debugging): a stateful `assert` op that fails when the graph runs, in program
order, with InvalidArgumentError. AutoGraph turns `assert` statements on symbolic tensors into it."""

from __future__ import annotations

import numpy as np

from ..context import executing_eagerly, state
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError, at_user_line
from ..graph import SymbolicTensor
from ..registry import OpDef, register
from ..tensor import Tensor
from .io import format_value


def _assert_kernel(condition, *data, message, summarize):
    """`message` is the data's template: its strings, with None where each tensor's value goes (in order), shown
    as TF's Assert shows them, each in brackets (`[x (a:0) = ] [1 2] [3]`); or a string (a converted `assert`
    statement's message), followed by all the values."""
    if not np.all(condition):
        if isinstance(message, str):
            shown = " ".join([message, *(format_value(v, summarize) for v in data)])
        else:
            values = iter(data)
            shown = " ".join(_bracketed(next(values), summarize) if part is None else f"[{part}]"
                             for part in message)
        raise InvalidArgumentError(f"assertion failed: {shown}")


def _bracketed(value, summarize):
    text = format_value(value, summarize)
    return text if np.ndim(value) else f"[{text}]"


def _eager_summary(item, summarize) -> str:
    """One data item as TF's eager Assert lists it: strings as bytes literals, values comma-separated."""
    if not isinstance(item, Tensor):
        return repr(str(item).encode("utf-8"))
    value = item.numpy()
    if np.ndim(value) == 0:
        return str(value)
    flat = np.reshape(value, -1)
    shown = [str(v) for v in flat[:summarize]] + (["..."] if flat.size > summarize else [])
    return ", ".join(shown)


def _infer_assert(condition, *data, message, summarize):
    if not condition.dtype.is_bool:
        raise TypeError(f"the condition of an assertion must be a bool tensor, got {condition.dtype.name}")
    return None


assert_op = register(OpDef("assert", _assert_kernel, _infer_assert, stateful=True, differentiable=False,
                           doc="fail at run time unless every element of the condition is true"))


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 - TensorFlow's name
    """`tf.debugging.Assert`: fail with the data printed unless `condition` is all true. Eagerly it checks now;
    in a graph it checks each time the graph runs. The message carries the user's line."""
    data = list(data) if isinstance(data, (list, tuple)) else [data]
    summarize = 3 if summarize is None else summarize
    if executing_eagerly() and not isinstance(condition, SymbolicTensor):
        if not np.all(np.asarray(condition)):  # TF's eager wording, with the condition as it was given
            shown = "\n".join(_eager_summary(d, summarize) for d in data)
            raise InvalidArgumentError(at_user_line(f"Expected '{condition!s}' to be true. Summarized data: {shown}"))
        return None
    tensors = [convert_to_tensor(d) for d in data if isinstance(d, Tensor)]
    template = tuple(None if isinstance(d, Tensor) else str(d) for d in data)  # values spliced in order
    # the user's line is added once, after the values: by the dispatcher eagerly, from the node in a graph
    graph = state.graph
    apply(assert_op, [convert_to_tensor(condition), *tensors],
          {"message": template, "summarize": summarize}, name=name)
    # In a TF1 graph (one that keeps control_dependencies scopes), the Assert node, as TF returns its op: a
    # session runs it only under control_dependencies. A tf.function runs it in program order: None there.
    return graph.nodes[-1] if getattr(graph, "control_scopes", None) is not None else None


__all__ = ["Assert"]
