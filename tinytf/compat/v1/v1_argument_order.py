"""tf.compat.v1 functions that are TF2's with TF1's argument order (`name` before the arguments TF2 added:
`transpose(a, perm, name, conjugate)`, `pad(tensor, paddings, mode, name, constant_values)`, ...) or TF1's
argument names (`string_tensor`, `keep_dims`), so that TF1 calls passing them by position still mean what
they meant."""

from __future__ import annotations

from .deprecated_args import one_of


def _tf():
    import tinytf

    return tinytf


def transpose(a, perm=None, name="transpose", conjugate=False):
    return _tf().transpose(a, perm=perm, conjugate=conjugate, name=name)


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):
    return _tf().pad(tensor, paddings, mode=mode, constant_values=constant_values, name=name)


def boolean_mask(tensor, mask, name="boolean_mask", axis=None):
    return _tf().boolean_mask(tensor, mask, axis=axis, name=name)


def gather_nd(params, indices, name=None, batch_dims=0):
    return _tf().gather_nd(params, indices, batch_dims=batch_dims, name=name)


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002 - TF's name
    return _tf().nn.depth_to_space(input, block_size, data_format=data_format, name=name)


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002 - TF's name
    return _tf().nn.space_to_depth(input, block_size, data_format=data_format, name=name)


def confusion_matrix(labels, predictions, num_classes=None, dtype=None, name=None, weights=None):
    tf = _tf()
    return tf.math.confusion_matrix(labels, predictions, num_classes=num_classes, weights=weights,
                                    dtype=dtype or tf.int32, name=name)


def tuple(tensors, name=None, control_inputs=None):  # noqa: A001 - TF's name
    return _tf().tuple(tensors, control_inputs=control_inputs, name=name)


def string_to_number(string_tensor=None, out_type=None, name=None, input=None):  # noqa: A002 - TF's name
    tf = _tf()
    string_tensor = one_of("input", input, "string_tensor", string_tensor)
    return tf.strings.to_number(string_tensor, out_type=out_type or tf.float32, name=name)


def string_to_hash_bucket(string_tensor=None, num_buckets=None, name=None, input=None):  # noqa: A002
    string_tensor = one_of("input", input, "string_tensor", string_tensor)
    return _tf().strings.to_hash_bucket(string_tensor, num_buckets, name=name)


def substr(input, pos, len, name=None, unit="BYTE"):  # noqa: A002 - TF's names
    return _tf().strings.substr(input, pos, len, unit=unit, name=name)


def reduce_join(inputs, axis=None, keep_dims=None, separator="", name=None, reduction_indices=None,
                keepdims=None):
    axis = one_of("axis", axis, "reduction_indices", reduction_indices)
    keepdims = one_of("keepdims", keepdims, "keep_dims", keep_dims)
    return _tf().strings.reduce_join(inputs, axis=axis, keepdims=bool(keepdims), separator=separator, name=name)


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=None):
    tf = _tf()
    return tf.math.bincount(arr, weights=weights, minlength=minlength, maxlength=maxlength, dtype=dtype or tf.int32)


def no_regularizer(_):
    """The regularizer that adds no loss (get_variable(regularizer=no_regularizer))."""
    return None


__all__ = ["transpose", "pad", "boolean_mask", "gather_nd", "depth_to_space", "space_to_depth", "confusion_matrix",
           "tuple", "string_to_number", "string_to_hash_bucket", "substr", "reduce_join", "bincount",
           "no_regularizer"]
