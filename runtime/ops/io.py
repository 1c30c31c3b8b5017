"""tf.print: a stateful op, so in a graph it runs at call time, in program order."""

from __future__ import annotations

import sys

import numpy as np

from ..dispatch import apply
from ..registry import OpDef, register
from ..resource import Resource
from ..tensor import Tensor

_TENSOR = object()  # marks where a tensor goes in the template
_BARE_STRING = object()  # marks where a lone string scalar goes: its text, unquoted


def _format_scalar(value) -> str:
    """One element as TF's PrintV2 writes it: bools as 1/0, floats with 6 significant digits (15 for
    float64) when that reads back as the same value, else 9 (17): 0.1, 2, 0.333333343, 123456792."""
    if isinstance(value, np.bool_):
        return "1" if value else "0"
    if isinstance(value, bytes):  # a string element is quoted (a lone scalar string prints bare: print_)
        return '"' + value.decode("utf-8", "replace") + '"'
    if isinstance(value, np.complexfloating):
        return "?"  # TF's PrintV2 has no complex formatting
    if isinstance(value, np.float16) or type(value).__name__ == "bfloat16":
        return f"{float(value):.9g}"
    if isinstance(value, np.floating):
        kind = type(value)
        short, full = (15, 17) if kind is np.float64 else (6, 9)
        text = f"{float(value):.{short}g}"
        return text if kind(text) == value or value != value else f"{float(value):.{full}g}"
    return str(value)


def format_value(value, summarize: int = 3) -> str:
    """TF's tf.print layout: `[4 5]`, `[[1 2]\\n [3 4]]`, floats as `_format_scalar` writes them, and
    `...` past `summarize` elements at each end of a dimension (-1 prints everything)."""
    array = np.asarray(value)
    if array.ndim == 0:
        return _format_scalar(array[()])
    return _format_array(array, summarize, 1)


def _format_array(array, summarize, depth):
    n = array.shape[0]
    if summarize >= 0 and n > 2 * summarize:
        head = list(range(summarize))
        tail = list(range(n - summarize, n))
        indices = head + [None] + tail
    else:
        indices = list(range(n))
    if array.ndim == 1:
        parts = ["..." if i is None else _format_scalar(array[i]) for i in indices]
        return "[" + " ".join(parts) + "]"
    parts = ["..." if i is None else _format_array(array[i], summarize, depth + 1) for i in indices]
    joiner = "\n" * (array.ndim - 1) + " " * depth
    return "[" + joiner.join(parts) + "]"


def _print_kernel(*values, template, stream, sep, end, summarize):
    it = iter(values)
    pieces = []
    for item in template:
        if item is _TENSOR:
            pieces.append(format_value(next(it), summarize))
        elif item is _BARE_STRING:
            pieces.append(np.asarray(next(it), dtype=object).item().decode("utf-8", "replace"))
        else:
            pieces.append(item if isinstance(item, str) else str(item))
    text = sep.join(pieces) + end
    if isinstance(stream, str) and stream.startswith("file://"):
        with open(stream[len("file://"):], "a") as f:  # TF appends, and the text is there when the op returns
            f.write(text)
        return
    target = sys.stderr if stream == "stderr" else sys.stdout if stream == "stdout" else stream
    target.write(text)
    if hasattr(target, "flush"):
        target.flush()


print_op = register(OpDef("print", _print_kernel, lambda *values, **attrs: None, stateful=True,
                          differentiable=False, doc="print tensors at run time"))


def print_(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):
    """`tf.print`: prints to stderr by default; `output_stream=sys.stdout` prints to stdout, and
    `output_stream="file://<path>"` appends to that file (TF's forms); any object with `write` also works."""
    template, tensors = [], []
    if len(inputs) == 1 and _is_string_scalar(inputs[0]):
        inputs = (_StringScalar(inputs[0]),)
    for item in inputs:
        if isinstance(item, Resource):
            item = item.read_value()
        if isinstance(item, _StringScalar):
            template.append(_BARE_STRING)
            tensors.append(item.tensor)
        elif isinstance(item, Tensor):
            template.append(_TENSOR)
            tensors.append(item)
        elif isinstance(item, (list, tuple, dict)):
            template.append(_nested_text(item, summarize))
        else:
            template.append(item)
    if output_stream is None or output_stream is sys.stderr:
        stream = "stderr"
    elif output_stream is sys.stdout:
        stream = "stdout"
    elif isinstance(output_stream, str) and not output_stream.startswith("file://"):
        raise ValueError(f"Unsupported output stream, logging level, or file.{output_stream}. Supported streams "
                         "are sys.stdout, sys.stderr, or a file in the form of 'file://<filepath>'.")
    else:
        stream = output_stream
    apply(print_op, tensors, {"template": tuple(template), "stream": stream, "sep": sep, "end": end,
                              "summarize": summarize if summarize is not None else 3}, name=name)


def _is_string_scalar(item) -> bool:
    return isinstance(item, Tensor) and item.dtype.is_string and item._shape == ()


class _StringScalar:
    """Marks the one string scalar tf.print got: TF prints it bare (its text), not quoted like array elements."""

    __slots__ = ("tensor",)

    def __init__(self, tensor):
        self.tensor = tensor


def _nested_text(item, summarize) -> str:
    """A list/tuple/dict as Python writes it, with each eager tensor's values in place: `[[1 2], 3]`."""
    if isinstance(item, dict):
        return "{" + ", ".join(f"{k!r}: {_nested_text(v, summarize)}" for k, v in item.items()) + "}"
    if isinstance(item, (list, tuple)):
        parts = [_nested_text(v, summarize) for v in item]
        if isinstance(item, list):
            return "[" + ", ".join(parts) + "]"
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    if isinstance(item, Tensor) and hasattr(item, "_value"):
        return format_value(item._value, summarize)
    return repr(item)
