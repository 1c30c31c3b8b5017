"""tf.debugging.enable_check_numerics / disable_check_numerics: switch, for the calling thread, the checking of
every op's floating outputs for infinities and NaNs (runtime/numerics_checks.py does the checking)."""

from __future__ import annotations

from tinytf.runtime.context import state


def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """Enable tensor numerics checking in an eager/graph unified fashion: from now on (on this thread) an op
    whose floating output holds an infinity or a NaN raises InvalidArgumentError naming the op; tf.functions
    traced from now on check every run. The limits shape TF's printed stack traces; tinytf prints the op's
    creation line as its errors always do."""
    state.numeric_checks = True


def disable_check_numerics():
    """Disable the eager/graph unified numerics checking (functions traced while it was on keep their checks,
    as in TF)."""
    state.numeric_checks = False
