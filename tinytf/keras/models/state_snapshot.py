"""What fit keeps so that a failing step leaves the weights and the optimizer state as they were.

A tf.Variable's value is replaced on every assignment and never changed in place (tinytf.variables says so,
and the graph passes never write into a variable's array), so holding the current arrays is a complete
backup: one reference per variable, no copy and no op, cheap enough to take before every step."""

from __future__ import annotations

from tinytf.variables import Variable


def snapshot(variables) -> list:
    """The current value of each variable: its array itself, or a read for any other kind of variable."""
    return [v._array if isinstance(v, Variable) else v.read_value()
            for v in variables]


def restore(variables, values) -> None:
    """Put back the values `snapshot` took."""
    for variable, value in zip(variables, values):
        variable.assign(value)
