"""tf.compat.v1's own versions of TF2 functions: their TF1 arguments (`keep_dims`, `reduction_indices`,
`dimension`, `dim`, `squeeze_dims`, `fn1`/`fn2`), TF1's names (`arg_max`, `to_float`, `div`,
`initialize_all_variables`) and TF1's reference-variable functions (`assign(ref, value)`), each calling
tinytf's TF2 function as TF 2.21's compat.v1 wrapper calls TF's."""

from __future__ import annotations

from .deprecated_args import one_of


def _tf():
    import tinytf

    return tinytf


# --- reductions: keep_dims and reduction_indices --------------------------------------------------------------
def _reduction(tf2_name: str):
    def reduce(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
        axis = one_of("axis", axis, "reduction_indices", reduction_indices)
        keepdims = one_of("keepdims", keepdims, "keep_dims", keep_dims)
        return getattr(_tf().math, tf2_name)(input_tensor, axis=axis, keepdims=bool(keepdims), name=name)

    reduce.__name__ = reduce.__qualname__ = tf2_name
    reduce.__doc__ = f"TF1's {tf2_name}: also `reduction_indices` (axis) and `keep_dims` (keepdims)."
    return reduce


reduce_sum = _reduction("reduce_sum")
reduce_mean = _reduction("reduce_mean")
reduce_max = _reduction("reduce_max")
reduce_min = _reduction("reduce_min")
reduce_prod = _reduction("reduce_prod")
reduce_all = _reduction("reduce_all")
reduce_any = _reduction("reduce_any")
reduce_logsumexp = _reduction("reduce_logsumexp")


def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=None, name=None, reduction_indices=None,
                  keep_dims=None, input=None):  # noqa: A002 - TF's name
    tf = _tf()
    input_tensor = one_of("input", input, "input_tensor", input_tensor)
    axis = one_of("axis", axis, "reduction_indices", reduction_indices)
    keepdims = one_of("keepdims", keepdims, "keep_dims", keep_dims)
    return tf.math.count_nonzero(input_tensor, axis=axis, keepdims=bool(keepdims),
                                 dtype=tf.int64 if dtype is None else dtype, name=name)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None, keep_dims=None):  # noqa: A002
    keepdims = one_of("keepdims", keepdims, "keep_dims", keep_dims)
    return _tf().norm(tensor, ord=ord, axis=axis, keepdims=bool(keepdims), name=name)


# --- argmax / argmin: dimension -------------------------------------------------------------------------------
def argmax(input, axis=None, name=None, dimension=None, output_type=None):  # noqa: A002 - TF's name
    tf = _tf()
    axis = one_of("axis", axis, "dimension", dimension)
    return tf.math.argmax(input, axis=0 if axis is None else axis, output_type=output_type or tf.int64, name=name)


def argmin(input, axis=None, name=None, dimension=None, output_type=None):  # noqa: A002 - TF's name
    tf = _tf()
    axis = one_of("axis", axis, "dimension", dimension)
    return tf.math.argmin(input, axis=0 if axis is None else axis, output_type=output_type or tf.int64, name=name)


def arg_max(input, dimension, output_type=None, name=None):  # noqa: A002 - TF's name (the raw ArgMax op)
    return argmax(input, dimension, name=name, output_type=output_type)


def arg_min(input, dimension, output_type=None, name=None):  # noqa: A002 - TF's name (the raw ArgMin op)
    return argmin(input, dimension, name=name, output_type=output_type)


# --- shapes: dim, squeeze_dims -------------------------------------------------------------------------------
def expand_dims(input, axis=None, name=None, dim=None):  # noqa: A002 - TF's name
    axis = one_of("axis", axis, "dim", dim)
    if axis is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    return _tf().expand_dims(input, axis, name=name)


def squeeze(input, axis=None, name=None, squeeze_dims=None):  # noqa: A002 - TF's name
    axis = one_of("axis", axis, "squeeze_dims", squeeze_dims)
    if isinstance(axis, int):
        axis = [axis]
    return _tf().squeeze(input, axis, name=name)


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None,  # noqa: A002 - TF's name
                     seq_dim=None, batch_dim=None):
    seq_axis = one_of("seq_axis", seq_axis, "seq_dim", seq_dim)
    batch_axis = one_of("batch_axis", batch_axis, "batch_dim", batch_dim)
    return _tf().reverse_sequence(input, seq_lengths, seq_axis=seq_axis, batch_axis=0 if batch_axis is None else
                                  batch_axis, name=name)


def shape(input, name=None, out_type=None):  # noqa: A002 - TF's name
    tf = _tf()
    return tf.shape(input, out_type=out_type or tf.int32, name=name)


def size(input, name=None, out_type=None):  # noqa: A002 - TF's name
    tf = _tf()
    return tf.size(input, out_type=out_type or tf.int32, name=name)


def ones_like(tensor, dtype=None, name=None, optimize=True):
    """`optimize` (TF: a constant when the shape is known) changes nothing in the values."""
    return _tf().ones_like(tensor, dtype=dtype, name=name)


def zeros_like(tensor, dtype=None, name=None, optimize=True):
    return _tf().zeros_like(tensor, dtype=dtype, name=name)


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
    """`validate_indices` is TF1's, and ignored there too (indices are always checked on a CPU)."""
    return _tf().gather(params, indices, axis=axis, batch_dims=batch_dims, name=name)


def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
    """TF1's constant: with `verify_shape`, a value whose shape is not `shape` raises TypeError."""
    import numpy as np

    tf = _tf()
    if verify_shape and shape is not None and tuple(np.shape(value)) != tuple(shape):
        raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {tuple(np.shape(value))}.")
    return tf.constant(value, dtype=dtype, shape=shape, name=name)


def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, dtype_hint=None):
    dtype_hint = one_of("dtype_hint", dtype_hint, "preferred_dtype", preferred_dtype)
    return _tf().convert_to_tensor(value, dtype=dtype, dtype_hint=dtype_hint, name=name)


# --- casts and division ---------------------------------------------------------------------------------------
def _cast_to(dtype_name: str, default_name: str):
    def cast(x, name=default_name):
        tf = _tf()
        return tf.cast(x, getattr(tf, dtype_name), name=name)

    cast.__doc__ = f"`tf.cast(x, tf.{dtype_name})` (TF1)."
    return cast


to_float = _cast_to("float32", "ToFloat")
to_double = _cast_to("float64", "ToDouble")
to_int32 = _cast_to("int32", "ToInt32")
to_int64 = _cast_to("int64", "ToInt64")
to_bfloat16 = _cast_to("bfloat16", "ToBFloat16")
to_complex64 = _cast_to("complex64", "ToComplex64")
to_complex128 = _cast_to("complex128", "ToComplex128")


def div(x, y, name=None):
    """Python 2's `/`: floor division for integers (-7 / 2 = -4), true division for floats."""
    tf = _tf()
    x = tf.convert_to_tensor(x)
    y = tf.convert_to_tensor(y, dtype=x.dtype)
    if x.dtype.is_floating or x.dtype.is_complex:
        return tf.math.divide(x, y, name=name)
    return tf.math.floordiv(x, y, name=name)


def floor_div(x, y, name=None):
    return _tf().math.floordiv(x, y, name=name)


# --- control flow: TF1's argument names ----------------------------------------------------------------------
def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
    true_fn = one_of("true_fn", true_fn, "fn1", fn1)
    false_fn = one_of("false_fn", false_fn, "fn2", fn2)
    if true_fn is None:
        raise TypeError("true_fn must not be None.")
    if false_fn is None:
        raise TypeError("false_fn must not be None.")
    return _tf().cond(pred, true_fn, false_fn, name=name)


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,  # noqa: A002
               back_prop=True, swap_memory=False, name=None, maximum_iterations=None,
               return_same_structure=False):
    """TF1's while_loop, as it builds a graph: with one loop variable the body may return it bare, and the
    result is that one tensor (unless return_same_structure)."""
    if not loop_vars:
        raise ValueError("'loop_vars' must be provided.")
    single = isinstance(loop_vars, (list, tuple)) and len(loop_vars) == 1

    def packed_body(*values):
        result = body(*values)
        if single and not isinstance(result, (list, tuple)):
            result = [result]
        return type(loop_vars)(result) if single else result

    result = _tf().while_loop(cond, packed_body if single else body, loop_vars, shape_invariants=shape_invariants,
                              parallel_iterations=parallel_iterations, maximum_iterations=maximum_iterations,
                              name=name)
    if single and not return_same_structure:
        return result[0]
    return result


# --- TF1's variables: reference-style assignments and old names ----------------------------------------------
def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    return ref.assign(value, name=name)


def assign_add(ref, value, use_locking=None, name=None):
    return ref.assign_add(value, name=name)


def assign_sub(ref, value, use_locking=None, name=None):
    return ref.assign_sub(value, name=name)


def _scatter(method: str):
    def scatter(ref, indices, updates, use_locking=True, name=None):
        tf = _tf()
        return getattr(ref, method)(tf.IndexedSlices(tf.convert_to_tensor(updates), tf.convert_to_tensor(indices)),
                                    name=name)

    scatter.__doc__ = f"`ref.{method}(IndexedSlices(updates, indices))` (TF1's reference-variable function)."
    return scatter


scatter_update = _scatter("scatter_update")
scatter_add = _scatter("scatter_add")
scatter_sub = _scatter("scatter_sub")
scatter_mul = _scatter("scatter_mul")
scatter_div = _scatter("scatter_div")
scatter_max = _scatter("scatter_max")
scatter_min = _scatter("scatter_min")


def _v1():
    from tinytf.compat import v1

    return v1


def all_variables():
    """TF1's old name of global_variables()."""
    return _v1().global_variables()


def initialize_all_variables():
    """TF1's old name of global_variables_initializer()."""
    return _v1().global_variables_initializer()


def initialize_variables(var_list, name="init"):
    return _v1().variables_initializer(var_list, name=name)


def local_variables(scope=None):
    return _v1().get_collection("local_variables", scope)


def local_variables_initializer():
    return _v1().variables_initializer(local_variables(), name="init")


initialize_local_variables = local_variables_initializer


def model_variables(scope=None):
    return _v1().get_collection("model_variables", scope)


def moving_average_variables(scope=None):
    return _v1().get_collection("moving_average_variables", scope)


def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=False,
                       collections=None, **kwargs):
    """get_variable in the LOCAL_VARIABLES collection (not saved, not in global_variables())."""
    collections = list(collections or []) + ["local_variables"]
    return _v1().get_variable(name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                              trainable=trainable, collections=collections, **kwargs)


def add_to_collections(names, value) -> None:
    names = (names,) if isinstance(names, str) else set(names)
    for name in names:
        _v1().add_to_collection(name, value)


def get_collection_ref(key):
    """The default graph's collection `key` itself (a list that adding to changes the collection)."""
    return _v1().get_default_graph().collections.setdefault(key, [])


__all__ = [name for name, value in list(globals().items())
           if not name.startswith("_") and callable(value) and name != "one_of"]
