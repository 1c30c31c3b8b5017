"""tf.compat.v1.saved_model.main_op: the op a TF1 SavedModel runs after restoring its variables (initialize the
global and local variables and the tables), as TF 2.21's main_op_impl."""

from __future__ import annotations


def main_op():
    """One op initializing all global variables, all local variables and all tables of the default graph."""
    from ...core_api import group
    from . import global_variables_initializer, local_variables_initializer, tables_initializer

    return group(global_variables_initializer(), local_variables_initializer(), tables_initializer())


def main_op_with_restore(restore_op_name):
    """main_op(), then a group of `restore_op_name` that runs after it. Despite the argument's name, TF 2.21's
    group takes only tensors and ops: an op name (a string) raises TypeError there, and here."""
    from ...control_dependencies import control_dependencies
    from ...core_api import group

    with control_dependencies([main_op()]):  # main_op is made first, also when the group below fails (as TF)
        if isinstance(restore_op_name, (str, bytes)):
            raise TypeError(f"'inputs' should be zero or more (nested) Tensors. Received '{restore_op_name}' with "
                            f"type '{type(restore_op_name)}'.")
        return group(restore_op_name)


__all__ = ["main_op", "main_op_with_restore"]
