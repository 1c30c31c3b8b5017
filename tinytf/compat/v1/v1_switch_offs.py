"""TF1's opt-outs that TF 2.21 keeps in tf.compat.v1: disable_control_flow_v2, disable_resource_variables,
disable_v2_tensorshape, experimental.output_all_intermediates; and autograph's TF1 signatures (to_code /
to_graph with the deprecated arg_values, arg_types, indentation arguments, which TF drops).

tinytf has one implementation of each: functional (v2) control flow, resource variables and TF2's
TensorShape, so the opt-outs cannot switch it. They do what TF does where its switch has no effect (TF
documents v2 control flow as always on inside tf.function): the behaviour stays v2, and, because a TF1 program
that calls them expects TF1 behaviour, each says so in a warning (once) rather than passing silently; the
*_enabled() queries keep telling the truth (True)."""

from __future__ import annotations

import logging

_warned: set = set()
_intermediates = {"override": None}


def _kept(switch: str, what: str) -> None:
    if switch not in _warned:
        _warned.add(switch)
        logging.getLogger("tensorflow").warning(
            "tf.compat.v1.%s() has no effect in tinytf: %s stays as in TF2 (tinytf has only that form).", switch,
            what)


def disable_control_flow_v2():
    """Opt out of control flow v2: tinytf's cond and while_loop are always TF2's, as TF's inside tf.function."""
    _kept("disable_control_flow_v2", "control flow (tf.cond, tf.while_loop)")


def disable_resource_variables():
    """Opt out of resource variables: tinytf's variables are always resource variables."""
    _kept("disable_resource_variables", "variables (resource variables)")


def disable_v2_tensorshape():
    """Opt out of TF2's TensorShape (TF1's indexes to Dimension objects): tinytf's shapes index to ints/None."""
    _kept("disable_v2_tensorshape", "TensorShape (dimensions are ints or None)")


def output_all_intermediates(state):
    """Whether functional cond/while ops output all their intermediates (True, False, or None for TF's default).
    It decides only which tensors TF keeps for the gradient, never a value; tinytf's loops keep what their
    gradients need whatever the setting, so it is recorded (and `output_all_intermediates_override()` reads it)."""
    _intermediates["override"] = state


def output_all_intermediates_override():
    return _intermediates["override"]


def to_graph(entity, recursive=True, arg_values=None, arg_types=None, experimental_optional_features=None):
    """tf.compat.v1.autograph.to_graph: tf.autograph.to_graph (arg_values and arg_types are dropped, as in TF)."""
    import tinytf

    return tinytf.autograph.to_graph(entity, recursive=recursive,
                                     experimental_optional_features=experimental_optional_features)


def to_code(entity, recursive=True, arg_values=None, arg_types=None, indentation="  ",
            experimental_optional_features=None):
    """tf.compat.v1.autograph.to_code: tf.autograph.to_code (arg_values, arg_types and indentation are dropped, as
    in TF)."""
    import tinytf

    return tinytf.autograph.to_code(entity, recursive=recursive,
                                    experimental_optional_features=experimental_optional_features)


NAMES = ("disable_control_flow_v2", "disable_resource_variables", "disable_v2_tensorshape")
