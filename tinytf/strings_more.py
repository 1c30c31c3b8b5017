"""More of `tf.strings`: n-grams, Unicode decoding with byte offsets, encoding, transcoding and scripts. Each
function wraps one op of runtime/ops/strings_unicode.py or strings_ngrams.py; the shapes TF gives (a dense input
of rank N gives a RaggedTensor of rank N + 1, a ragged input keeps its ragged dimensions) are built here from the
op's flat values and row splits, with ops, so that they work inside tf.function too."""

from __future__ import annotations

import tinytf
from tinytf.ragged.ragged_tensor import RaggedTensor
from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.ops import strings_ngrams as _ngram_ops
from tinytf.runtime.ops import strings_unicode as _ops


def _bytes(text) -> bytes:
    return text.encode("utf-8") if isinstance(text, str) else bytes(text)


def _check_replacement(replacement_char) -> int:
    code = int(replacement_char)
    if not (0 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF):
        raise tinytf.errors.InvalidArgumentError(None, None, f"replacement_char {code} is not a valid Unicode "
                                                 "scalar value")
    return code


def _nest_rows(flat_rows: RaggedTensor, dense):
    """`flat_rows` has one row per element of `dense` (flattened); give it `dense`'s leading dimensions back."""
    rank = len(dense._shape)
    if rank <= 1:
        return flat_rows
    dims = tinytf.shape(dense, out_type=dtypes.int64)
    result = flat_rows
    for axis in range(rank - 1, 0, -1):
        outer = tinytf.reduce_prod(dims[:axis])
        splits = tinytf.range(outer + 1, dtype=dtypes.int64) * dims[axis]
        result = RaggedTensor.from_row_splits(result, splits, validate=False)
    return result


def _decode(input, encoding, errors, replacement_char, replace_control_characters):
    """(code points, offsets) of a string tensor or RaggedTensor, in TF's result shapes."""
    if isinstance(input, RaggedTensor):
        points, offsets = _decode(input.flat_values, encoding, errors, replacement_char, replace_control_characters)
        return input.with_flat_values(points), input.with_flat_values(offsets)
    x = convert_to_tensor(input, dtype_hint=dtypes.string)
    if not x.dtype.is_string:
        raise TypeError(f"unicode_decode: input must be a string tensor, got {x.dtype.name}")
    if x._shape is None:
        raise ValueError("unicode_decode: the rank of input must be known statically")
    attrs = {"codec": _ops.input_codec(encoding), "errors": _ops.check_errors(errors),
             "replacement_char": _check_replacement(replacement_char),
             "replace_control_characters": bool(replace_control_characters)}
    points, offsets, splits = apply(_ops.unicode_decode_with_offsets_op, (x,), attrs)
    if x._shape == ():
        return points, offsets
    return (_nest_rows(RaggedTensor.from_row_splits(points, splits, validate=False), x),
            _nest_rows(RaggedTensor.from_row_splits(offsets, splits, validate=False), x))


def unicode_decode_with_offsets(input, input_encoding: str, errors: str = "replace", replacement_char: int = 65533,
                                replace_control_characters: bool = False, name=None):
    """(int32 code points, int64 start byte offsets) of each string: Tensors for a scalar, else RaggedTensors
    with one more (ragged) dimension than `input`."""
    return _decode(input, input_encoding, errors, replacement_char, replace_control_characters)


def unicode_decode(input, input_encoding: str, errors: str = "replace", replacement_char: int = 65533,
                   replace_control_characters: bool = False, name=None):
    """The int32 code points of each string: a Tensor for a scalar, else a RaggedTensor with one more (ragged)
    dimension than `input`."""
    return _decode(input, input_encoding, errors, replacement_char, replace_control_characters)[0]


def unicode_split(input, input_encoding: str, errors: str = "replace", replacement_char: int = 65533, name=None):
    """Each string split into its characters, each one a string encoded in `input_encoding`."""
    return unicode_split_with_offsets(input, input_encoding, errors, replacement_char)[0]


def unicode_encode(input, output_encoding: str, errors: str = "replace", replacement_char: int = 65533, name=None):
    """Each innermost row of code points (dense or ragged int tensor of rank N + 1) encoded as one string: a
    string tensor of rank N."""
    codec = _ops.output_codec(output_encoding)
    attrs = {"codec": codec, "errors": _ops.check_errors(errors),
             "replacement_char": _check_replacement(replacement_char)}
    if isinstance(input, RaggedTensor):
        if input.ragged_rank > 1:
            return input.with_values(unicode_encode(input.values, output_encoding, errors, replacement_char))
        values = input.values
        if values._shape is not None and len(values._shape) != 1:
            return unicode_encode(input.to_tensor(), output_encoding, errors, replacement_char)
        return apply(_ops.unicode_encode_op, (tinytf.cast(values, dtypes.int32), input.row_splits), attrs)
    x = convert_to_tensor(input, dtype_hint=dtypes.int32)
    if not x.dtype.is_integer:
        raise TypeError(f"unicode_encode: input must be an integer tensor of code points, got {x.dtype.name}")
    if x._shape is None or len(x._shape) == 0:
        raise ValueError("unicode_encode: input must have rank >= 1 (known statically)")
    x = tinytf.cast(x, dtypes.int32)
    dims = tinytf.shape(x, out_type=dtypes.int64)
    width = dims[-1]
    rows = tinytf.reduce_prod(dims[:-1])
    splits = tinytf.range(rows + 1, dtype=dtypes.int64) * width
    strings = apply(_ops.unicode_encode_op, (tinytf.reshape(x, [-1]), splits), attrs)
    return tinytf.reshape(strings, dims[:-1]) if len(x._shape) != 1 else tinytf.reshape(strings, [])


def unicode_split_with_offsets(input, input_encoding: str, errors: str = "replace", replacement_char: int = 65533,
                               name=None):
    """(each character as its own string, its start byte offset): the characters are re-encoded in
    `input_encoding` (an ill-formed subpart becomes `replacement_char`), as TF does."""
    points, offsets = _decode(input, input_encoding, errors, replacement_char, False)
    encoding = input_encoding if input_encoding in _ops.OUTPUT_ENCODINGS else "UTF-8"

    def encode_each(flat):
        return unicode_encode(tinytf.expand_dims(flat, -1), encoding, errors, replacement_char)
    if isinstance(points, RaggedTensor):
        return points.with_flat_values(encode_each(points.flat_values)), offsets
    return encode_each(points), offsets


def unicode_transcode(input, input_encoding: str, output_encoding: str, errors: str = "replace",
                      replacement_char: int = 65533, replace_control_characters: bool = False, name=None):
    """Each string decoded from `input_encoding` (any shape) and encoded in `output_encoding`."""
    x = convert_to_tensor(input, dtype_hint=dtypes.string)
    attrs = {"codec": _ops.input_codec(input_encoding), "output": _ops.output_codec(output_encoding),
             "errors": _ops.check_errors(errors), "replacement_char": _check_replacement(replacement_char),
             "replace_control_characters": bool(replace_control_characters)}
    return apply(_ops.unicode_transcode_op, (x,), attrs, name=name)


def unicode_script(input, name=None):
    """The ICU script code (UScriptCode: 0 Common, 25 Latin, 8 Cyrillic, ...) of each int32 code point; -1 for a
    value that is not a code point."""
    return apply(_ops.unicode_script_op, (convert_to_tensor(input, dtype_hint=dtypes.int32),), name=name)


def _pad_values(pad_values):
    if pad_values is None:
        return b"", b""
    if isinstance(pad_values, (list, tuple)):
        if len(pad_values) != 2 or not all(isinstance(p, (str, bytes)) for p in pad_values):
            raise TypeError("pad_values must be a string, tuple of strings, or None.")
        return _bytes(pad_values[0]), _bytes(pad_values[1])
    if not isinstance(pad_values, (str, bytes)):
        raise TypeError("pad_values must be a string, tuple of strings, or None.")
    return _bytes(pad_values), _bytes(pad_values)


def ngrams(data, ngram_width, separator: str = " ", pad_values=None, padding_width=None,
           preserve_short_sequences: bool = False, name=None):
    """The n-grams of the innermost dimension of `data` (strings joined by `separator`), for each width of
    `ngram_width`, optionally padded with `pad_values`: a RaggedTensor for a ragged input, a Tensor for a
    dense one (its rows have equal counts)."""
    left, right = _pad_values(pad_values)
    if padding_width is not None and padding_width < 1:
        raise ValueError("padding_width must be greater than 0.")
    if padding_width is not None and pad_values is None:
        raise ValueError("pad_values must be provided if padding_width is set.")
    widths = list(ngram_width) if isinstance(ngram_width, (list, tuple)) else [ngram_width]
    for width in widths:
        if width < 1:
            raise ValueError(f"All ngram_widths must be greater than 0. Got {ngram_width}")
    attrs = {"separator": _bytes(separator), "widths": tuple(int(w) for w in widths), "left_pad": left,
             "right_pad": right, "pad_width": 0 if pad_values is None else (-1 if padding_width is None
                                                                           else int(padding_width)),
             "preserve_short_sequences": bool(preserve_short_sequences)}

    def rows_ngrams(rt: RaggedTensor) -> RaggedTensor:
        if rt.ragged_rank > 1:
            return rt.with_values(rows_ngrams(rt.values))
        values, splits = apply(_ngram_ops.string_ngrams_op, (rt.values, rt.row_splits), attrs, name=name)
        return RaggedTensor.from_row_splits(values, splits, validate=False)

    if isinstance(data, RaggedTensor):
        return rows_ngrams(data)
    x = convert_to_tensor(data, dtype_hint=dtypes.string)
    if x._shape is None:
        raise ValueError("Rank of data must be known.")
    if len(x._shape) == 0:
        raise ValueError("Data must have rank>0")
    dims = tinytf.shape(x, out_type=dtypes.int64)
    rows = tinytf.reduce_prod(dims[:-1])  # 1 for a vector: one sequence
    splits = tinytf.range(rows + 1, dtype=dtypes.int64) * dims[-1]
    flat = RaggedTensor.from_row_splits(tinytf.reshape(x, [-1]), splits, validate=False)
    out = rows_ngrams(flat).values
    if len(x._shape) == 1:
        return out
    return tinytf.reshape(out, tinytf.concat([dims[:-1], convert_to_tensor([-1], dtype=dtypes.int64)], 0))


__all__ = ["ngrams", "unicode_decode", "unicode_decode_with_offsets", "unicode_encode", "unicode_script",
           "unicode_split", "unicode_split_with_offsets", "unicode_transcode"]
