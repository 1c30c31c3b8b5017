"""tf.compat.v1.train.init_from_checkpoint: make variables start from a checkpoint's tensors instead of their
initializers (fine-tuning a pretrained TF1 model). It replaces each mapped variable's initializer with an op that
reads the checkpoint tensor when a session runs it (a py_function over the checkpoint reader, as TF's restore op
reads the file then), so call it before building global_variables_initializer(). The assignment map is TF's:
{'ckpt_name': 'var_name' or a variable} for one variable, {'ckpt_scope/': 'scope/'} for every get_variable of a
scope, '/' for the checkpoint's root."""

from __future__ import annotations

from ...train.reader import load_checkpoint
from .graph import get_default_graph
from .variable_scope import _store


def _tf():
    import tinytf

    return tinytf


def _is_variable(value) -> bool:
    return hasattr(value, "assign") and hasattr(value, "dtype") and hasattr(value, "shape")


def _set_initializer(variable, reader, ckpt_file, tensor_name):
    """The variable's initializer becomes `assign(checkpoint[tensor_name])`, read when the session runs it."""
    tf = _tf()
    dtype = variable.dtype
    with get_default_graph().as_default(), tf.name_scope("checkpoint_initializer"):
        restored = tf.py_function(lambda: reader.get_tensor(tensor_name).astype(dtype.as_numpy_dtype), [], dtype)
        restored.set_shape(variable.shape)
        variable._v1_initializer = variable.assign(restored)
        variable._v1_initial_value = restored


def init_from_checkpoint(ckpt_dir_or_file, assignment_map):
    tf = _tf()
    if tf.executing_eagerly():
        raise RuntimeError("init_from_checkpoint is not supported when eager execution is enabled (TF's restores "
                           "run in a TF1 graph): restore a tf.train.Checkpoint instead")
    reader = load_checkpoint(ckpt_dir_or_file)
    variable_map = reader.get_variable_to_shape_map()
    store_vars = _store(get_default_graph())["variables"]
    items = sorted(assignment_map.items(), key=lambda item: item[0])
    for tensor_name_in_ckpt, current in items:
        variable = current if _is_variable(current) else store_vars.get(current)
        if variable is not None:
            if tensor_name_in_ckpt not in variable_map:
                raise ValueError(f"Tensor {tensor_name_in_ckpt} is not found in {ckpt_dir_or_file} checkpoint "
                                 f"{variable_map}")
            shape = tf.TensorShape(variable_map[tensor_name_in_ckpt])
            if not variable.shape.is_compatible_with(shape):
                raise ValueError(f"Shape of variable {variable.name} ({variable.shape}) doesn't match with shape of "
                                 f"tensor {tensor_name_in_ckpt} ({list(shape.as_list())}) from checkpoint reader.")
            _set_initializer(variable, reader, ckpt_dir_or_file, tensor_name_in_ckpt)
            continue
        scopes = current[:current.rindex("/")] if "/" in current else ""
        if not tensor_name_in_ckpt.endswith("/"):
            raise ValueError(f"Assignment map with scope only name {scopes} should map to scope only "
                             f"{tensor_name_in_ckpt}. Should be 'scope/': 'other_scope/'.")
        names = sorted(name for name in store_vars if not scopes or name.startswith(scopes + "/"))
        for var_name in names:
            full = var_name[len(scopes):]
            if current != "/":
                full = full[1:]
            if tensor_name_in_ckpt != "/":
                full = tensor_name_in_ckpt + full
            full = full.rstrip("/")
            if full not in variable_map:
                raise ValueError(f"Tensor {full} ({var_name[len(scopes) + 1:]} in {tensor_name_in_ckpt}) is not "
                                 f"found in {ckpt_dir_or_file} checkpoint")
            _set_initializer(store_vars[var_name], reader, ckpt_dir_or_file, full)


__all__ = ["init_from_checkpoint"]
