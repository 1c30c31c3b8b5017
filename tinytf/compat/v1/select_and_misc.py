"""TF1's `where` (Select: no broadcasting), `py_func`, `Print`, the v2-behaviour switches TF1 programs call
first, and the version constants of tf.compat.v1."""

from __future__ import annotations


def _tf():
    import tinytf

    return tinytf


def _building_graph() -> bool:
    from tinytf.runtime.context import state

    return state.graph is not None


def _shape_error(first, second):
    """TF's error for two shapes Select cannot take: at graph construction, shape inference's ValueError
    (which dimension differs); eagerly the kernel's InvalidArgumentError."""
    tf = _tf()
    if not _building_graph():
        return tf.errors.InvalidArgumentError(None, None, f"Inputs to operation Select of type Select must have the "
                                                          f"same size and shape. Input 0: {first} != input 1: {second}")
    if first.rank != second.rank:
        return ValueError(f"Shapes must be equal rank, but are {first.rank} and {second.rank}")
    for i, (a, b) in enumerate(zip(first.as_list(), second.as_list())):
        if a is not None and b is not None and a != b:
            return ValueError(f"Dimension {i} in both shapes must be equal, but are {a} and {b}. Shapes are "
                              f"{first.as_list()} and {second.as_list()}.")
    return ValueError(f"Shapes {first} and {second} are incompatible")


def where(condition, x=None, y=None, name=None):
    """TF1's where: with x and y, the Select op, which does not broadcast: x and y of one shape, and the
    condition of that shape too or a vector choosing whole rows (x's first dimension); without them, the
    indices of the True elements (as tf.where)."""
    tf = _tf()
    if x is None and y is None:
        return tf.where(condition, name=name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    condition = tf.convert_to_tensor(condition, tf.bool)
    x = tf.convert_to_tensor(x)
    y = tf.convert_to_tensor(y, dtype=x.dtype)
    cond_shape, x_shape, y_shape = condition.shape, x.shape, y.shape
    if not x_shape.is_compatible_with(y_shape):
        raise _shape_error(x_shape, y_shape)
    if cond_shape.rank == 1 and x_shape.rank is not None and x_shape.rank > 1:
        if not cond_shape.is_compatible_with(x_shape[:1]):
            raise _shape_error(cond_shape, x_shape[:1])
        condition = tf.reshape(condition, [-1] + [1] * (x_shape.rank - 1))
        condition = tf.logical_and(condition, tf.ones_like(x, dtype=tf.bool))
    elif not cond_shape.is_compatible_with(x_shape):
        raise _shape_error(cond_shape, x_shape)
    return tf.where(condition, x, y, name=name)


def py_func(func, inp, Tout, stateful=True, name=None):  # noqa: N803 - TF's name
    """A Python function of numpy arrays as an op (TF2's numpy_function)."""
    return _tf().numpy_function(func, inp, Tout, stateful=stateful, name=name)


def Print(input_, data, message=None, first_n=None, summarize=None, name=None):  # noqa: N802 - TF's name
    """`input_` unchanged, printing `message` and `data` to stderr each time it is computed (TF1's Print;
    `first_n` limits how many times)."""
    import sys

    tf = _tf()
    count = [0]

    def passthrough(value, *shown):
        if first_n is None or first_n < 0 or count[0] < first_n:
            count[0] += 1
            print((message or "") + "".join(f"[{_summarized(v, summarize)}]" for v in shown), file=sys.stderr)
        return value

    tensor = tf.convert_to_tensor(input_)
    shown = tf.numpy_function(passthrough, [tensor, *data], tensor.dtype, stateful=True, name=name)
    return tf.ensure_shape(shown, tensor.shape)


def _summarized(value, summarize) -> str:
    """The first `summarize` (TF's default 3) elements, space-separated, "..." when there are more."""
    import numpy as np

    flat = np.asarray(value).reshape(-1)
    limit = 3 if summarize is None else (flat.size if summarize < 0 else summarize)
    text = " ".join(str(v) for v in flat[:limit])
    return text + ("..." if flat.size > limit else "")


_v2_disabled = {"on": False}


def disable_v2_behavior():
    """What TF1 programs call first: build graphs instead of running eagerly (tinytf's variables stay resource
    variables and its shapes TF2's TensorShape; TF 2.21 also switches those to TF1's)."""
    from . import disable_eager_execution

    _v2_disabled["on"] = True
    disable_eager_execution()


def enable_v2_behavior():
    from . import enable_eager_execution

    _v2_disabled["on"] = False
    enable_eager_execution()


def executing_eagerly_outside_functions() -> bool:
    """True unless a TF1 graph (not a tf.function's) is being built."""
    from tinytf.runtime.context import state

    from .graph import Graph

    return not isinstance(state.graph, Graph)


def dimension_value(dimension):
    """A dimension as an int or None (TF1's Dimension objects have `.value`; TF2's shapes hold ints)."""
    return getattr(dimension, "value", dimension)


def _version(name):
    from tinytf import version

    return getattr(version, name)


VERSION = _version("VERSION")
GIT_VERSION = _version("GIT_VERSION")
COMPILER_VERSION = _version("COMPILER_VERSION")
GRAPH_DEF_VERSION = _version("GRAPH_DEF_VERSION")
GRAPH_DEF_VERSION_MIN_CONSUMER = _version("GRAPH_DEF_VERSION_MIN_CONSUMER")
GRAPH_DEF_VERSION_MIN_PRODUCER = _version("GRAPH_DEF_VERSION_MIN_PRODUCER")

__all__ = ["where", "py_func", "Print", "disable_v2_behavior", "enable_v2_behavior",
           "executing_eagerly_outside_functions", "dimension_value", "VERSION", "GIT_VERSION", "COMPILER_VERSION",
           "GRAPH_DEF_VERSION", "GRAPH_DEF_VERSION_MIN_CONSUMER", "GRAPH_DEF_VERSION_MIN_PRODUCER"]
