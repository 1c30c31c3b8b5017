"""The last small names of tf.compat.v1 (helper tf1rest): TF1's Dimension and dimension_at_index, the switch
back to TF1's tensor equality (== compares identity, variables hash by id), batch_scatter_update, TF1's
signatures of decode_csv / string_split / parse_example / parse_single_example, the TF1 orthogonal and
uniform-unit-scaling initializers (TF's stateful draws), tables_initializer, extract_image_patches and
batch_to_space_nd under their TF1 arguments."""

from __future__ import annotations

import math

from tinytf.runtime.dimension import Dimension
from tinytf.runtime.ops.operators import TensorEquality

from .initializers import _V1Initializer


def _tf():
    import tinytf

    return tinytf


# --- Dimension (runtime/dimension.py: TensorShape.dims lists them) ------------------------------------------------
def dimension_at_index(shape, index) -> Dimension:
    """Dimension `index` of `shape` as a Dimension (Dimension(None) when the rank is unknown, as TF's)."""
    shape = _tf().TensorShape(shape)
    if shape.rank is None:
        return Dimension(None)
    return Dimension(shape.as_list()[index])


# --- TF1's tensor equality --------------------------------------------------------------------------------------
def disable_tensor_equality():
    """TF1's `==`: tensors and variables compare by identity, and variables hash by id (for the whole program,
    until enable_tensor_equality, as TF's switch)."""
    TensorEquality.enabled = False


def enable_tensor_equality():
    """TF2's `==`: elementwise, and tensors and variables are unhashable (use `.ref()`)."""
    TensorEquality.enabled = True


# --- variables ------------------------------------------------------------------------------------------------
def batch_scatter_update(ref, indices, updates, use_locking=True, name=None):
    """`ref[i_1, ..., i_n, indices[i_1, ..., i_n, j]] = updates[i_1, ..., i_n, j]`: scatter_update along the
    axis after the batch axes of `indices` (TF builds the same scatter_nd_update)."""
    tf = _tf()
    indices = tf.convert_to_tensor(indices)
    updates = tf.convert_to_tensor(updates, dtype=ref.dtype)
    rank = indices.shape.rank
    if rank is None:
        raise ValueError("batch_scatter_update needs indices of known rank")
    if rank == 1:
        return ref.scatter_nd_update(tf.expand_dims(indices, -1), updates, name=name)
    shape = tf.shape(indices, out_type=indices.dtype)
    grids = []
    for axis in range(rank - 1):  # the batch coordinates of every index: i_1, ..., i_n
        size = shape[axis]
        grid = tf.range(size, dtype=indices.dtype)
        grid = tf.reshape(grid, [1] * axis + [-1] + [1] * (rank - 1 - axis))
        grids.append(tf.broadcast_to(grid, shape))
    nd_indices = tf.stack([*grids, indices], axis=-1)
    return ref.scatter_nd_update(nd_indices, updates, name=name)


def tables_initializer(name="init_all_tables"):
    """The op that initializes the default graph's lookup tables (tinytf's tables are filled when made, so
    this groups whatever table initializers the graph collected: none gives a no-op, as in TF)."""
    tf = _tf()
    from .variables import get_collection

    initializers = get_collection("table_initializer")
    if initializers:
        return tf.group(*initializers, name=name)
    return tf.no_op(name=name)


initialize_all_tables = tables_initializer


# --- TF1 signatures -----------------------------------------------------------------------------------------------
def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None):
    return _tf().io.decode_csv(records, record_defaults, field_delim=field_delim, use_quote_delim=use_quote_delim,
                               name=name, na_value=na_value, select_cols=select_cols)


def string_split(source, sep=None, skip_empty=True, delimiter=None, result_type="SparseTensor", name=None):
    """TF1's split: every character of `sep` (default " ") separates, empty pieces dropped when `skip_empty`;
    a rank-2 SparseTensor (or RaggedTensor) of the pieces."""
    tf = _tf()
    if result_type not in ("SparseTensor", "RaggedTensor"):
        raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")
    sep = delimiter if sep is None else sep
    sep = " " if sep is None else sep
    if isinstance(sep, bytes):
        sep = sep.decode()
    if not isinstance(sep, str):
        raise ValueError("delimiter must be a character, got %r" % (sep,))
    source = tf.convert_to_tensor(source, dtype=tf.string)
    if sep == "":  # TF1: an empty delimiter splits into characters
        pieces = tf.strings.bytes_split(source)
    else:
        if len(sep) > 1:  # any of the characters separates: make them all the first one
            import re

            source = tf.strings.regex_replace(source, "[" + re.escape(sep) + "]", sep[0])
        pieces = tf.strings.split(source, sep=sep[0])
    if skip_empty:
        pieces = tf.ragged.boolean_mask(pieces, tf.strings.length(pieces) > 0)
    return pieces if result_type == "RaggedTensor" else pieces.to_sparse()


def parse_example(serialized, features, name=None, example_names=None):
    return _tf().io.parse_example(serialized, features, example_names=example_names, name=name)


def parse_single_example(serialized, features, name=None, example_names=None):
    return _tf().io.parse_single_example(serialized, features, example_names=example_names, name=name)


def extract_image_patches(images, ksizes=None, strides=None, rates=None, padding=None, name=None, sizes=None):
    """TF1's tf.image.extract_patches (`ksizes` is the old name of `sizes`)."""
    if ksizes is not None and sizes is not None:
        raise ValueError("Cannot specify both 'ksizes' and 'sizes'.")
    sizes = ksizes if sizes is None else sizes
    return _tf().image.extract_patches(images, sizes=sizes, strides=strides, rates=rates, padding=padding,
                                       name=name)


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002 - TF's argument name
    return _tf().batch_to_space(input, block_shape, crops, name=name)


# --- TF1 initializers (stateful draws with the op seed, as TF1's) --------------------------------------------------
class _Orthogonal(_V1Initializer):
    def _make(self, shape, dtype):
        tf = _tf()
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional")
        rows = math.prod(shape[:-1])
        cols = shape[-1]
        flat = (cols, rows) if rows < cols else (rows, cols)
        a = tf.random.normal(flat, dtype=dtype, seed=self._config["seed"])
        q, r = tf.linalg.qr(a, full_matrices=False)
        q = q * tf.sign(tf.linalg.diag_part(r))  # the unique Q whose R has a positive diagonal
        if rows < cols:
            q = tf.linalg.matrix_transpose(q)
        return self._config["gain"] * tf.reshape(q, shape)


def orthogonal_initializer(gain=1.0, seed=None, dtype=None):
    """`tf.compat.v1.orthogonal_initializer`: Q of the QR of a normal draw (TF1's stateful draw with `seed`)."""
    return _Orthogonal(dtype, gain=gain, seed=seed)


class _UniformUnitScaling(_V1Initializer):
    def _make(self, shape, dtype):
        input_size = max(float(math.prod(shape[:-1])), 1.0)  # TF's estimate: every axis but the last
        limit = math.sqrt(3 / input_size) * self._config["factor"]
        return _tf().random.uniform(shape, -limit, limit, dtype, seed=self._config["seed"])


def uniform_unit_scaling_initializer(factor=1.0, seed=None, dtype=None):
    """`tf.compat.v1.uniform_unit_scaling_initializer`: uniform in +-sqrt(3 / fan_in) * factor."""
    return _UniformUnitScaling(dtype, factor=factor, seed=seed)


__all__ = ["Dimension", "dimension_at_index", "disable_tensor_equality", "enable_tensor_equality",
           "batch_scatter_update", "tables_initializer", "initialize_all_tables", "decode_csv", "string_split",
           "parse_example", "parse_single_example", "extract_image_patches", "batch_to_space_nd",
           "orthogonal_initializer", "uniform_unit_scaling_initializer"]
