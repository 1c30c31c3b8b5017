"""String ops (tf.strings.*). A string tensor's value is a numpy object array of `bytes` (a 0-d one for a
scalar), as TF's `.numpy()` shows it; kernels work element by element on those bytes. No string op has a
gradient. split and bytes_split give ragged results as (flat values, int64 row_splits), the parts of a
RaggedTensor."""

from __future__ import annotations

import re

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from .common import broadcast
from .io import format_value

_S = dtypes.string


def _register(name, kernel, infer, doc):
    return register(OpDef(name, kernel, infer, differentiable=False, doc=doc))


def _objects(value) -> np.ndarray:
    """A kernel input (object array, 0-d array or a bare bytes element) as an object array."""
    if isinstance(value, np.ndarray) and value.dtype.hasobject:
        return value
    out = np.empty(np.shape(value), dtype=object)
    out[...] = value
    return out


def _map(fn, value, out_dtype=object) -> np.ndarray:
    """`fn` applied to each element; object results stay an object array (0-d for a scalar)."""
    array = _objects(value)
    out = np.empty(array.shape, dtype=out_dtype)
    flat_out, flat_in = out.reshape(-1), array.reshape(-1)
    for i, item in enumerate(flat_in):
        flat_out[i] = fn(item)
    return out if out.ndim or out_dtype is object else out[()]


def _require_string(*tensors):
    for t in tensors:
        if not t.dtype.is_string:
            raise TypeError(f"expected a string tensor, got {t.dtype.name}")


def _same_shape_string(x, **_attrs):
    _require_string(x)
    return _S, x._shape


# --- elementwise: join, length, case, strip, regex_replace ---------------------------------------------------
def _join_kernel(*inputs, separator):
    parts = np.broadcast_arrays(*[_objects(x) for x in inputs])
    out = np.empty(parts[0].shape, dtype=object)
    flat = [p.reshape(-1) for p in parts]
    for i in range(out.size):
        out.reshape(-1)[i] = separator.join(f[i] for f in flat)
    return out


def _join_infer(*inputs, separator):
    _require_string(*inputs)
    return _S, broadcast(*inputs)


string_join_op = _register("string_join", _join_kernel, _join_infer, "elementwise concatenation with a separator")


def _length_kernel(x, *, unit):
    if unit == "UTF8_CHAR":
        return _map(lambda b: len(b.decode("utf-8")), x, np.int32)
    return _map(len, x, np.int32)


def _length_infer(x, *, unit):
    _require_string(x)
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}")
    return dtypes.int32, x._shape


string_length_op = _register("string_length", _length_kernel, _length_infer, "length in bytes or characters")


def _case_kernel(method):
    def kernel(x, *, encoding):
        if encoding:  # with an encoding, every character changes case; without, only ASCII letters
            return _map(lambda b: getattr(b.decode(encoding), method)().encode(encoding), x)
        return _map(lambda b: getattr(b, method)(), x)

    return kernel


string_lower_op = _register("string_lower", _case_kernel("lower"), _same_shape_string, "lower case")
string_upper_op = _register("string_upper", _case_kernel("upper"), _same_shape_string, "upper case")
string_strip_op = _register("string_strip", lambda x: _map(bytes.strip, x), _same_shape_string,
                            "leading and trailing whitespace removed")


def _regex_replace_kernel(x, *, pattern, rewrite, replace_global):
    compiled = re.compile(pattern.encode("utf-8"))
    replacement = rewrite.encode("utf-8")
    count = 0 if replace_global else 1
    return _map(lambda b: compiled.sub(replacement, b, count=count), x)


string_regex_replace_op = _register("regex_replace", _regex_replace_kernel, _same_shape_string,
                                    "regular-expression substitution")


def _regex_full_match_kernel(x, *, pattern):
    compiled = re.compile(pattern.encode("utf-8"))
    return _map(lambda b: compiled.fullmatch(b) is not None, x, np.bool_)


def _bool_like(x, **_attrs):
    _require_string(x)
    return dtypes.bool_, x._shape


regex_full_match_op = _register("regex_full_match", _regex_full_match_kernel, _bool_like,
                                "whether each string matches a regular expression entirely")


# --- substr ---------------------------------------------------------------------------------------------------
def _substr_one(b, pos, length, unit, index):
    text = b.decode("utf-8") if unit == "UTF8_CHAR" else b
    size = len(text)
    if not -size <= pos <= size:
        raise InvalidArgumentError(f"pos {pos} out of range for string b'{b.decode('utf-8', 'replace')}' at "
                                   f"index {index}")
    start = pos + size if pos < 0 else pos
    piece = text[start:] if length < 0 else text[start:start + length]  # a negative len takes the rest
    return piece.encode("utf-8") if unit == "UTF8_CHAR" else piece


def _substr_kernel(x, pos, length, *, unit):
    strings, positions, lengths = np.broadcast_arrays(_objects(x), np.asarray(pos), np.asarray(length))
    out = np.empty(strings.shape, dtype=object)
    flat = out.reshape(-1)
    for i, (b, p, n) in enumerate(zip(strings.reshape(-1), positions.reshape(-1), lengths.reshape(-1))):
        flat[i] = _substr_one(b, int(p), int(n), unit, i)
    return out


def _substr_infer(x, pos, length, *, unit):
    _require_string(x)
    if not (pos.dtype.is_integer and length.dtype.is_integer):
        raise TypeError(f"pos and len must be integers, got {pos.dtype.name} and {length.dtype.name}")
    return _S, broadcast(x, pos, length)


substr_op = _register("substr", _substr_kernel, _substr_infer, "substrings by position and length")


# --- numbers to and from strings -------------------------------------------------------------------------
def _number_text(value, spec):
    if isinstance(value, (bool, np.bool_)):
        return b"true" if value else b"false"
    if isinstance(value, (complex, np.complexfloating)):
        return f"({value.real:{spec}},{value.imag:{spec}})".encode()
    if isinstance(value, (int, np.integer)):
        return format(int(value), spec.rstrip("fegs").split(".")[0]).encode()
    return format(float(value), spec).encode()


def _as_string_kernel(x, *, precision, scientific, shortest, width, fill):
    kind = "e" if scientific else "g" if shortest else "f"
    spec = (fill or "") + (">" if fill else "") + (str(width) if width > -1 else "")
    spec += (f".{precision}" if precision > -1 else "") + kind
    return _map(lambda v: _number_text(v, spec), np.asarray(x))


def _as_string_infer(x, **_attrs):
    if x.dtype.is_string:
        raise TypeError("as_string takes a number or bool tensor, got string")
    return _S, x._shape


as_string_op = _register("as_string", _as_string_kernel, _as_string_infer, "numbers written as strings")


def _parse(b, out_type):
    try:
        return out_type.np.type(int(b) if out_type.is_integer else float(b))
    except (ValueError, OverflowError):
        raise InvalidArgumentError(f"StringToNumberOp could not correctly convert string: "
                                   f"{b.decode('utf-8', 'replace')}") from None


def _to_number_kernel(x, *, out_type):
    return _map(lambda b: _parse(b, out_type), x, out_type.np)


def _to_number_infer(x, *, out_type):
    _require_string(x)
    if not out_type.is_numeric:
        raise TypeError(f"out_type must be a real number type, got {out_type.name}")
    return out_type, x._shape


string_to_number_op = _register("string_to_number", _to_number_kernel, _to_number_infer, "strings parsed as numbers")


# --- reduce_join ----------------------------------------------------------------------------------------------
def _reduce_join_kernel(x, *, axes, keepdims, separator):
    array = _objects(x)
    # TF reduces the axes one after the other, so the first listed varies fastest in the joined order;
    # all axes (None) means last to first, which is row-major order
    axes = tuple(range(array.ndim - 1, -1, -1)) if axes is None else tuple(a % array.ndim for a in axes)
    kept = [a for a in range(array.ndim) if a not in axes]
    moved = np.transpose(array, kept + list(reversed(axes))).reshape([array.shape[a] for a in kept] + [-1])
    out = np.empty(moved.shape[:-1], dtype=object)
    for index in np.ndindex(out.shape):
        out[index] = separator.join(moved[index])
    if keepdims:
        out = out.reshape([1 if a in axes else array.shape[a] for a in range(array.ndim)])
    return out


def _reduce_join_infer(x, *, axes, keepdims, separator):
    _require_string(x)
    if x._shape is None:
        return _S, None
    rank = len(x._shape)
    for a in axes or ():
        if not -rank <= a < max(rank, 1):
            raise ValueError(f"axis {a} is out of range for a tensor of rank {rank}")
    reduced = set(range(rank)) if axes is None else {a % rank for a in axes}
    if keepdims:
        return _S, tuple(1 if i in reduced else d for i, d in enumerate(x._shape))
    return _S, tuple(d for i, d in enumerate(x._shape) if i not in reduced)


reduce_join_op = _register("reduce_join", _reduce_join_kernel, _reduce_join_infer, "strings joined along axes")


# --- unsorted_segment_join ------------------------------------------------------------------------------------------
def _segment_join_kernel(x, segment_ids, *, num_segments, separator):
    array, ids = _objects(x), np.asarray(segment_ids)
    rows = array.reshape((-1,) + array.shape[ids.ndim:])
    flat_ids = ids.reshape(-1)
    if flat_ids.size and (flat_ids.min() < 0 or flat_ids.max() >= num_segments):
        raise InvalidArgumentError(f"segment_ids must be in [0, {num_segments}), got {flat_ids.tolist()}")
    out = np.empty((num_segments,) + rows.shape[1:], dtype=object)
    for segment in range(num_segments):
        members = rows[flat_ids == segment]  # in row-major order, as TF joins them
        for index in np.ndindex(rows.shape[1:]):
            out[(segment,) + index] = separator.join(members[(slice(None),) + index])
    return out


def _segment_join_infer(x, segment_ids, *, num_segments, separator):
    _require_string(x)
    if not segment_ids.dtype.is_integer:
        raise TypeError(f"segment_ids must be int32 or int64, got {segment_ids.dtype.name}")
    if x._shape is None or segment_ids._shape is None:
        return _S, None
    prefix = len(segment_ids._shape)
    if any(a is not None and b is not None and a != b for a, b in zip(segment_ids._shape, x._shape[:prefix])):
        raise ValueError(f"segment_ids shape {segment_ids._shape} must be a prefix of the input shape {x._shape}")
    return _S, (num_segments,) + tuple(x._shape[prefix:])


unsorted_segment_join_op = _register("unsorted_segment_join", _segment_join_kernel, _segment_join_infer,
                                     "strings joined by segment id")


# --- format ------------------------------------------------------------------------------------------------------
def _format_kernel(*inputs, template, placeholder, summarize):
    pieces = template.split(placeholder)
    text = pieces[0]
    for value, piece in zip(inputs, pieces[1:]):
        text += format_value(value, summarize) + piece
    return _objects(text.encode("utf-8"))


def _format_infer(*inputs, template, placeholder, summarize):
    wanted = template.count(placeholder)
    if wanted != len(inputs):
        raise ValueError(f"num placeholders in template and num inputs must match: {wanted} vs. {len(inputs)}")
    return _S, ()


string_format_op = _register("string_format", _format_kernel, _format_infer, "tensors formatted into a template")


# --- splitting (ragged results as values + row_splits) ------------------------------------------------------
def _split_pieces(b, sep, maxsplit):
    if sep is None or sep == b"":
        return b.split(None, maxsplit)  # runs of whitespace, none empty
    return b.split(sep, maxsplit)


def _ragged(rows):
    """Lists of pieces as (flat object array, int64 row_splits)."""
    splits = np.zeros(len(rows) + 1, dtype=np.int64)
    splits[1:] = np.cumsum([len(r) for r in rows])
    values = np.empty(int(splits[-1]), dtype=object)
    values[:] = [piece for row in rows for piece in row]
    return values, splits


def _split_kernel(x, *, sep, maxsplit):
    return _ragged([_split_pieces(b, sep, maxsplit) for b in _objects(x).reshape(-1)])


def _bytes_split_kernel(x):
    return _ragged([[b[i:i + 1] for i in range(len(b))] for b in _objects(x).reshape(-1)])


def _ragged_infer(x, **_attrs):
    _require_string(x)
    if x._shape is not None and len(x._shape) > 1:
        raise ValueError(f"expected a scalar or vector of strings, got shape {x._shape}")
    rows = 1 if x._shape == () else (None if x._shape is None else x._shape[0])
    return [(_S, (None,)), (dtypes.int64, (None if rows is None else rows + 1,))]


def _split_infer(x, **_attrs):
    """As _ragged_infer, but the row count is left unknown: TF's StringSplitV2 and bytes_split build their
    RaggedTensor from a SparseTensor whose dense shape is a runtime value, so inside a traced function (and in
    a dataset's element_spec) the result's shape is [None, None], not [len(input), None]."""
    values, _ = _ragged_infer(x)
    return [values, (dtypes.int64, (None,))]


string_split_op = _register("string_split", _split_kernel, _split_infer,
                            "strings split on a separator: (values, row_splits)")
bytes_split_op = _register("bytes_split", _bytes_split_kernel, _split_infer,
                           "strings split into single bytes: (values, row_splits)")


# --- Python-facing helpers used by tinytf.strings ---------------------------------------------------------------
def string_tensor(value, what: str = "input"):
    """`value` as a string tensor, with TF's error when it is another type."""
    tensor = convert_to_tensor(value)
    if not tensor.dtype.is_string:
        raise TypeError(f"{what} must be a string tensor, got {tensor.dtype.name}")
    return tensor


def split_parts(input, sep=None, maxsplit=-1):
    """The (values, row_splits) of splitting each string of a scalar or vector."""
    sep = sep.encode("utf-8") if isinstance(sep, str) else sep
    return apply(string_split_op, (string_tensor(input),), {"sep": sep, "maxsplit": maxsplit})


def bytes_split_parts(input):
    return apply(bytes_split_op, (string_tensor(input),))
