"""`tf.strings`: string tensors (bytes, UTF-8 for text) joined, measured, cased, formatted, parsed and split.
Each function is a thin wrapper over one registered op of runtime/ops/strings.py."""

from __future__ import annotations

import tinytf
from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.ops import strings as _ops
from tinytf.runtime.ops.common import as_int_tuple
from tinytf.runtime.tensor import Tensor


def _bytes(text) -> bytes:
    return text.encode("utf-8") if isinstance(text, str) else bytes(text)


def join(inputs, separator: str = "", name=None) -> Tensor:
    """Elementwise concatenation of the strings of `inputs` (broadcast together), with `separator` between."""
    tensors = [_ops.string_tensor(x, "inputs") for x in inputs]
    if not tensors:
        raise ValueError("tf.strings.join needs at least one input")
    return apply(_ops.string_join_op, tensors, {"separator": _bytes(separator)})


def length(input, unit: str = "BYTE", name=None) -> Tensor:
    """The length of each string in bytes (unit="BYTE") or in Unicode characters (unit="UTF8_CHAR")."""
    return apply(_ops.string_length_op, (_ops.string_tensor(input),), {"unit": unit})


def lower(input, encoding: str = "", name=None) -> Tensor:
    """Lower case: ASCII letters only, unless `encoding="utf-8"` is given."""
    return apply(_ops.string_lower_op, (_ops.string_tensor(input),), {"encoding": encoding})


def upper(input, encoding: str = "", name=None) -> Tensor:
    """Upper case: ASCII letters only, unless `encoding="utf-8"` is given."""
    return apply(_ops.string_upper_op, (_ops.string_tensor(input),), {"encoding": encoding})


def strip(input, name=None) -> Tensor:
    """Each string without its leading and trailing whitespace."""
    return apply(_ops.string_strip_op, (_ops.string_tensor(input),))


def regex_replace(input, pattern: str, rewrite: str, replace_global: bool = True, name=None) -> Tensor:
    """Replace matches of `pattern` by `rewrite` (\\1 names a group), every match or only the first."""
    return apply(_ops.string_regex_replace_op, (_ops.string_tensor(input),),
                 {"pattern": pattern, "rewrite": rewrite, "replace_global": bool(replace_global)})


def regex_full_match(input, pattern: str, name=None) -> Tensor:
    """Whether each whole string matches `pattern`."""
    return apply(_ops.regex_full_match_op, (_ops.string_tensor(input),), {"pattern": pattern})


def substr(input, pos, len, unit: str = "BYTE", name=None) -> Tensor:  # noqa: A002 - TF's argument name
    """The substring of each string starting at `pos` (negative: from the end), at most `len` long."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}")
    x = _ops.string_tensor(input)
    pos = convert_to_tensor(pos)
    size = convert_to_tensor(len, dtype_hint=pos.dtype)
    return apply(_ops.substr_op, (x, pos, size), {"unit": unit})


def as_string(input, precision: int = -1, scientific: bool = False, shortest: bool = False, width: int = -1,
              fill: str = "", name=None) -> Tensor:
    """Numbers and bools written as strings: floats with 6 decimals unless `precision`, `scientific` or
    `shortest` say otherwise, padded to `width` with `fill`."""
    if scientific and shortest:
        raise ValueError("Cannot select both scientific and shortest notation")
    return apply(_ops.as_string_op, (convert_to_tensor(input),),
                 {"precision": precision, "scientific": bool(scientific), "shortest": bool(shortest),
                  "width": width, "fill": fill})


def to_number(input, out_type=dtypes.float32, name=None) -> Tensor:
    """Each string parsed as a number of `out_type` (InvalidArgumentError when one is not a number)."""
    return apply(_ops.string_to_number_op, (_ops.string_tensor(input),), {"out_type": dtypes.as_dtype(out_type)})


def reduce_join(inputs, axis=None, keepdims: bool = False, separator: str = "", name=None) -> Tensor:
    """The strings joined along `axis` (all axes when None), with `separator` between them."""
    x = _ops.string_tensor(inputs, "inputs")
    if axis is not None:
        axis = (int(axis),) if not isinstance(axis, (list, tuple)) else tuple(int(a) for a in axis)
    return apply(_ops.reduce_join_op, (x,), {"axes": axis, "keepdims": bool(keepdims),
                                             "separator": _bytes(separator)})


def unsorted_segment_join(inputs, segment_ids, num_segments, separator: str = "", name=None) -> Tensor:
    """Join the strings (rows) of `inputs` that share a segment id, in row-major order; empty segments give ""."""
    x = _ops.string_tensor(inputs, "inputs")
    ids = convert_to_tensor(segment_ids)
    return apply(_ops.unsorted_segment_join_op, (x, ids), {"num_segments": as_int_tuple(num_segments),
                                                           "separator": _bytes(separator)})


def format(template: str, inputs, placeholder: str = "{}", summarize: int = 3, name=None) -> Tensor:
    """A scalar string: `template` with each `placeholder` replaced by one tensor, written as tf.print does."""
    if isinstance(inputs, (list, tuple)):
        tensors = [convert_to_tensor(x) for x in inputs]
    else:
        tensors = [convert_to_tensor(inputs)]
    return apply(_ops.string_format_op, tensors, {"template": template, "placeholder": placeholder,
                                                  "summarize": summarize})


def _ragged_or_dense(values, row_splits, scalar_input: bool):
    """A scalar input gives the pieces as a vector; a vector input gives a RaggedTensor (one row per string)."""
    if scalar_input:
        return values
    ragged = getattr(tinytf, "RaggedTensor", None)
    if ragged is None:
        raise NotImplementedError("splitting a vector of strings returns a tf.RaggedTensor, which this build of "
                                  "tinytf lacks; tf.strings.split of a scalar string works")
    return ragged.from_row_splits(values, row_splits)


def split(input, sep=None, maxsplit: int = -1, name=None):
    """Split each string on `sep` (runs of whitespace when None): a vector for a scalar input, else a
    RaggedTensor with one row per string."""
    x = _ops.string_tensor(input)
    values, row_splits = _ops.split_parts(x, sep, maxsplit)
    return _ragged_or_dense(values, row_splits, x._shape == ())


def bytes_split(input, name=None):
    """Split each string into its bytes: a vector for a scalar input, else a RaggedTensor."""
    x = _ops.string_tensor(input)
    values, row_splits = _ops.bytes_split_parts(x)
    return _ragged_or_dense(values, row_splits, x._shape == ())


__all__ = ["as_string", "bytes_split", "format", "join", "length", "lower", "reduce_join", "regex_full_match",
           "regex_replace", "split", "strip", "substr", "to_number", "unicode_decode", "unicode_split",
           "unsorted_segment_join", "upper"]


# --- hashing (runtime/ops/string_hash.py) ----------------------------------------------------------------------
from tinytf.runtime.ops import string_hash as _hash_ops  # noqa: E402 - grouped with the functions it serves


def _buckets(num_buckets, what) -> int:
    if isinstance(num_buckets, bool) or int(num_buckets) != num_buckets:
        raise TypeError(f"{what}: num_buckets must be an int, got {num_buckets!r}")
    return int(num_buckets)


def to_hash_bucket_fast(input, num_buckets: int, name=None) -> Tensor:  # noqa: A002 - TF's argument name
    """Each string's FarmHash Fingerprint64 modulo `num_buckets` (int64): TF's fast, stable, non-keyed hash."""
    return apply(_hash_ops.to_hash_bucket_fast_op, (convert_to_tensor(input),),
                 {"num_buckets": _buckets(num_buckets, "to_hash_bucket_fast")}, name=name)


def to_hash_bucket_strong(input, num_buckets: int, key, name=None) -> Tensor:  # noqa: A002
    """Each string's SipHash-2-4 under the 128-bit `key` (two ints) modulo `num_buckets`: hard to collide on
    purpose without the key."""
    key = [int(k) for k in key]
    if len(key) != 2:
        raise ValueError(f"to_hash_bucket_strong: key must be a list of 2 ints, got {key}")
    return apply(_hash_ops.to_hash_bucket_strong_op, (convert_to_tensor(input),),
                 {"num_buckets": _buckets(num_buckets, "to_hash_bucket_strong"),
                  "key": tuple(k & ((1 << 64) - 1) for k in key)}, name=name)


def to_hash_bucket(input, num_buckets: int, name=None) -> Tensor:  # noqa: A002
    """Each string's hash by TF's legacy 64-bit hash modulo `num_buckets` (prefer to_hash_bucket_fast)."""
    return apply(_hash_ops.to_hash_bucket_op, (convert_to_tensor(input),),
                 {"num_buckets": _buckets(num_buckets, "to_hash_bucket")}, name=name)


# --- n-grams and Unicode with offsets, encoding, transcoding, scripts (tinytf/strings_more.py) -----------------
# unicode_decode and unicode_split are redefined there on the op that knows errors, replacement_char and N-d input
from tinytf.strings_more import (  # noqa: E402, F811
    ngrams,
    unicode_decode,
    unicode_decode_with_offsets,
    unicode_encode,
    unicode_script,
    unicode_split,
    unicode_split_with_offsets,
    unicode_transcode,
)

__all__ += ["ngrams", "unicode_decode_with_offsets", "unicode_encode", "unicode_script", "unicode_split_with_offsets",
            "unicode_transcode"]
