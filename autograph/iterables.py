"""What a graph `for` loop iterates over: a *source* says, given the loop's hidden state and an int32
iteration index, whether the loop goes on, which element this iteration sees, and the next hidden state. A
symbolic tensor is indexed along its first dimension, a tf.range counts on its own (it is never built), and
objects that stage their own loops (tf.data datasets and iterators) bring their source (`custom_source`).
`enumerate`/`zip` of symbolic tensors are not staged, as in TensorFlow (ops_builtins)."""

from __future__ import annotations

from tinytf.runtime import shapes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.errors import at_user_line
from tinytf.runtime.ops.array import range_op
from tinytf.runtime.ops.array import shape as shape_of
from tinytf.runtime.ops.core import const_op
from tinytf.runtime.ops.math import logical_and

from .staging import is_symbolic


# --- sources ----------------------------------------------------------------------------------------------
class Source:
    """One iterated thing inside a graph loop. `hidden` (initial tensors) and `names` are the loop variables
    it carries besides the index; every method receives its own slice of the hidden values."""

    hidden: tuple = ()
    names: tuple = ()
    uses_index = True

    def limits(self) -> list:
        """Upper bounds (ints or int32 scalar tensors) on the iteration index."""
        return []

    def conditions(self, hidden) -> list:
        """Further conditions (boolean scalar tensors) for the loop to go on."""
        return []

    def item(self, hidden, index):
        raise NotImplementedError

    def advance(self, hidden) -> tuple:
        return ()

    def check_loop(self, names) -> None:
        """Refuse a loop this source cannot stage (given the loop variables' names); by default none."""


class TensorRows(Source):
    """A tensor, iterated over its first dimension."""

    def __init__(self, tensor):
        if tensor._shape is None or not tensor._shape:
            raise TypeError(at_user_line(f"cannot iterate over the tensor {tensor.name} of shape "
                                         f"{shapes.fmt(tensor._shape)}: it has no first dimension"))
        self.tensor = tensor
        n = tensor._shape[0]
        self.length = shape_of(tensor)[0] if n is None else n

    def limits(self):
        return [self.length]

    def item(self, hidden, index):
        return self.tensor[index]


class Range(Source):
    """tf.range(start, limit, delta) (or a Python range next to tensors): its own counter, so the range
    tensor is never built."""

    uses_index = False

    def __init__(self, start, limit, delta, name):
        self.hidden = (convert_to_tensor(start),)
        self.names = (name,)
        self.limit = limit
        self.delta = delta
        self.step = _python_value(delta)

    def conditions(self, hidden):
        (value,) = hidden
        if self.step is not None:
            return [value < self.limit if self.step > 0 else value > self.limit]
        delta, limit = self.delta, self.limit
        return [((delta > 0) & (value < limit)) | ((delta < 0) & (value > limit))]

    def item(self, hidden, index):
        return hidden[0]

    def advance(self, hidden):
        return (hidden[0] + self.delta,)


def going_on(source: Source, hidden, index):
    """The loop condition of a source: every index bound and every condition (known bounds folded into
    their minimum, so zip of same-length tensors compares once)."""
    limits = source.limits()
    known = [n for n in limits if isinstance(n, int)]
    tests = [index < min(known)] if known else []
    tests += [index < n for n in limits if not isinstance(n, int)]
    tests += source.conditions(hidden)
    condition = tests[0]
    for test in tests[1:]:
        condition = logical_and(condition, test)
    return condition


def custom_source(value, name: str):
    """The source of an object that stages its own graph loop (a tf.data dataset or iterator while tracing):
    its `_tinytf_graph_loop_source(name)` returns a Source, or None when it iterates in Python."""
    make = getattr(type(value), "_tinytf_graph_loop_source", None)
    return make(value, name) if make is not None else None


def source_of(tensor, name: str) -> Source:
    """The source of a graph loop over a symbolic tensor (`name` names a range's counter)."""
    if tensor.node.op is range_op:
        start, limit, delta = tensor.node.inputs
        return Range(start, limit, delta, name)
    return TensorRows(tensor)


def _python_value(t):
    """The Python value of a number or a constant (a graph const node or an eager tensor), else None."""
    if isinstance(t, (int, float)):
        return t
    node = getattr(t, "node", None)
    if node is not None and node.op is const_op:
        return node.attrs["value"]
    if not is_symbolic(t) and hasattr(t, "numpy"):
        return t.numpy()
    return None
