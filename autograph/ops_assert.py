"""Run-time helper of converted `assert` statements, and the graph assertion it needs.

`assert x > 0, "msg"` on a symbolic condition, in a tf.function that asks for Feature.ASSERT_STATEMENTS (off by
default, as in TensorFlow), adds an `assert` node: stateful, so it runs in program order
when the graph runs, and fails then with InvalidArgumentError naming the user's line. The op is the
runtime's tf.debugging assertion (tinytf.runtime.ops.debugging)."""

from __future__ import annotations

from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.errors import at_user_line
from tinytf.runtime.ops.debugging import assert_op
from tinytf.runtime.tensor import Tensor

from .features import Feature, enabled
from .staging import as_condition, is_symbolic


def assert_stmt(test, message_fn):
    """`assert test, message`: Python's assert on Python values and eager tensors; on a symbolic tensor, a
    graph assertion when the tf.function enables Feature.ASSERT_STATEMENTS (the message is computed while
    tracing, as TensorFlow does), else TensorFlow's OperatorNotAllowedInGraphError."""
    test = as_condition(test)
    if is_symbolic(test) and not enabled(Feature.ASSERT_STATEMENTS):
        # TensorFlow converts `assert` only when the tf.function asks for Feature.ASSERT_STATEMENTS; otherwise
        # the statement stays Python's and its test is a symbolic tensor used as a bool
        bool(test)
    if is_symbolic(test):
        message = message_fn()
        data = []
        if isinstance(message, Tensor):
            data, message = [message], ""
        elif isinstance(message, (list, tuple)):
            data = [m for m in message if isinstance(m, Tensor)]
            message = " ".join(str(m) for m in message if not isinstance(m, Tensor))
        # the user's line goes into the message now: the failure happens later, when the graph runs
        text = at_user_line("" if message is None else str(message))
        apply(assert_op, [test, *[convert_to_tensor(d) for d in data]], {"message": text, "summarize": 3})
        return
    if not test:
        message = message_fn()
        raise AssertionError() if message is None else AssertionError(message)
