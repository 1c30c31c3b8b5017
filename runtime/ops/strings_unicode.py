"""Unicode ops of tf.strings that keep track of errors and positions: decoding with byte offsets, encoding code
points, transcoding, and the ICU script of a code point. None has a gradient.

TF decodes with ICU converters; Python's codecs follow the same Unicode practice for ill-formed input (one
replacement per maximal ill-formed subpart: b"\\xe2\\x82" is one U+FFFD, the surrogate b"\\xed\\xa0\\x80" three),
checked against TF 2.21 in tests/test_strings_more.py. A codec error handler records where each ill-formed
subpart starts and ends, which gives the byte offset of every decoded character.

"UTF-16" and "UTF-32" without an explicit byte order read an optional byte-order mark and default to big endian,
as ICU does (Python's own "utf-16" would default to the machine's order)."""

from __future__ import annotations

import codecs
import threading

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from .unicode_script_table import RUN_CODES, RUN_STARTS

OUTPUT_ENCODINGS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}

# ICU converter names accepted for input (compared as ICU compares aliases: case and punctuation ignored)
_INPUT_CODECS = {
    "utf8": "utf-8", "utf16be": "utf-16-be", "utf16le": "utf-16-le", "utf32be": "utf-32-be",
    "utf32le": "utf-32-le", "utf16": "utf-16", "utf32": "utf-32", "usascii": "ascii", "ascii": "ascii",
    "iso646us": "ascii", "usascii7": "ascii", "iso88591": "latin-1", "latin1": "latin-1", "l1": "latin-1",
}
_BOMS = {"utf-16": (b"\xfe\xff", "utf-16-be", b"\xff\xfe", "utf-16-le"),
         "utf-32": (b"\x00\x00\xfe\xff", "utf-32-be", b"\xff\xfe\x00\x00", "utf-32-le")}
_ERRORS = ("strict", "replace", "ignore")


def input_codec(encoding: str) -> str:
    """The Python codec of an ICU input encoding name, or TF's error for one tinytf does not know."""
    key = "".join(ch for ch in str(encoding).lower() if ch.isalnum())
    if key not in _INPUT_CODECS:
        raise InvalidArgumentError(f"Could not create converter for input encoding: {encoding} (tinytf knows "
                                   "UTF-8, UTF-16(-BE/-LE), UTF-32(-BE/-LE), US-ASCII and ISO-8859-1)")
    return _INPUT_CODECS[key]


def output_codec(encoding: str, what: str = "output_encoding") -> str:
    if encoding not in OUTPUT_ENCODINGS:
        raise InvalidArgumentError(f"Value for attr '{what}' of \"{encoding}\" is not in the list of allowed "
                                   "values: \"UTF-8\", \"UTF-16-BE\", \"UTF-32-BE\"")
    return OUTPUT_ENCODINGS[encoding]


def check_errors(errors: str) -> str:
    if errors not in _ERRORS:
        raise InvalidArgumentError(f"Value for attr 'errors' of \"{errors}\" is not in the list of allowed "
                                   "values: \"strict\", \"replace\", \"ignore\"")
    return errors


_local = threading.local()  # .spans: the (start, end) of each ill-formed subpart of the string being decoded


def _record(error: UnicodeDecodeError):
    _local.spans.append((error.start, error.end))
    return "\ufffd", error.end


# codecs' error handlers are process-wide: a name of this module's own, so that a second copy of the module
# (imported under another package name) cannot replace the handler that records into this copy's `_local`
_HANDLER = f"tinytf_record_spans_{id(_local):x}"
codecs.register_error(_HANDLER, _record)


def _without_bom(data: bytes, codec: str):
    """A byte-order mark chooses the order of "utf-16"/"utf-32" and is dropped; big endian without one."""
    if codec not in _BOMS:
        return data, codec, 0
    big_bom, big, little_bom, little = _BOMS[codec]
    if data.startswith(big_bom):
        return data[len(big_bom):], big, len(big_bom)
    if data.startswith(little_bom):
        return data[len(little_bom):], little, len(little_bom)
    return data, big, 0


def decode_string(data: bytes, codec: str, errors: str, replacement: int, replace_control: bool):
    """The code points of `data` and the byte offset where each starts (lists of ints)."""
    body, codec, skipped = _without_bom(data, codec)
    spans = _local.spans = []
    text = body.decode(codec, _HANDLER)
    if spans and errors == "strict":
        raise InvalidArgumentError("Invalid formatting on input string")
    points, offsets = [], []
    position, next_span = 0, 0
    for ch in text:
        if next_span < len(spans) and spans[next_span][0] == position:
            start, end = spans[next_span]
            next_span += 1
            position = end
            if errors == "replace":
                points.append(replacement)
                offsets.append(start + skipped)
            continue
        code = ord(ch)
        if replace_control and code < 0x20:
            code = replacement
        points.append(code)
        offsets.append(position + skipped)
        position += len(ch.encode(codec))
    return points, offsets


def _flat_strings(x):
    return [x] if not isinstance(x, np.ndarray) else list(np.asarray(x, dtype=object).reshape(-1))


def _decode_kernel(x, *, codec, errors, replacement_char, replace_control_characters):
    rows = [decode_string(b, codec, errors, replacement_char, replace_control_characters) for b in _flat_strings(x)]
    splits = np.zeros(len(rows) + 1, dtype=np.int64)
    splits[1:] = np.cumsum([len(points) for points, _ in rows])
    points = np.array([p for row, _ in rows for p in row], dtype=np.int32)
    offsets = np.array([o for _, row in rows for o in row], dtype=np.int64)
    return points, offsets, splits


def _decode_infer(x, **_attrs):
    if not x.dtype.is_string:
        raise TypeError(f"unicode_decode expects a string tensor, got {x.dtype.name}")
    rows = None if x._shape is None or None in x._shape else int(np.prod(x._shape, dtype=np.int64))
    return [(dtypes.int32, (None,)), (dtypes.int64, (None,)), (dtypes.int64, (None if rows is None else rows + 1,))]


unicode_decode_with_offsets_op = register(OpDef(
    "unicode_decode_with_offsets", _decode_kernel, _decode_infer, differentiable=False,
    doc="the strings (flattened) decoded: (int32 code points, int64 start byte offsets, int64 row_splits)"))


def _valid_scalar(code: int) -> bool:
    return 0 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF


def encode_points(points, codec: str, errors: str, replacement: int) -> bytes:
    chars = []
    for code in points:
        code = int(code)
        if not _valid_scalar(code):
            if errors == "strict":
                raise InvalidArgumentError("Code point is out of range for Unicode, or is a surrogate.")
            if errors == "ignore":
                continue
            code = replacement
        chars.append(chr(code))
    return "".join(chars).encode(codec)


def _encode_kernel(points, splits, *, codec, errors, replacement_char):
    points = np.asarray(points).reshape(-1)
    splits = np.asarray(splits)
    out = np.empty(max(len(splits) - 1, 0), dtype=object)
    for i in range(len(out)):
        out[i] = encode_points(points[splits[i]:splits[i + 1]], codec, errors, replacement_char)
    return out


def _encode_infer(points, splits, **_attrs):
    if not points.dtype.is_integer:
        raise TypeError(f"unicode_encode expects int32 code points, got {points.dtype.name}")
    rows = None if splits._shape is None or splits._shape[0] is None else splits._shape[0] - 1
    return dtypes.string, (rows,)


unicode_encode_op = register(OpDef(
    "unicode_encode", _encode_kernel, _encode_infer, differentiable=False,
    doc="rows of code points (flat values, row_splits) encoded as one string each"))


def _transcode_kernel(x, *, codec, output, errors, replacement_char, replace_control_characters):
    def one(data):
        points, _ = decode_string(data, codec, errors, replacement_char, replace_control_characters)
        return encode_points(points, output, "replace", replacement_char)
    if not isinstance(x, np.ndarray):
        return one(x)
    out = np.empty(x.shape, dtype=object)
    flat = out.reshape(-1)
    for i, data in enumerate(x.reshape(-1)):
        flat[i] = one(data)
    return out


def _same_shape_strings(x, **_attrs):
    if not x.dtype.is_string:
        raise TypeError(f"unicode_transcode expects a string tensor, got {x.dtype.name}")
    return dtypes.string, x._shape


unicode_transcode_op = register(OpDef(
    "unicode_transcode", _transcode_kernel, _same_shape_strings, differentiable=False,
    doc="strings decoded from one encoding and encoded in another"))

_STARTS = np.asarray(RUN_STARTS, dtype=np.int64)
_CODES = np.asarray(RUN_CODES, dtype=np.int32)


def script_codes(points) -> np.ndarray:
    """ICU's UScriptCode of each code point; -1 (USCRIPT_INVALID_CODE) outside 0..0x10FFFF."""
    points = np.asarray(points, dtype=np.int64)
    runs = np.searchsorted(_STARTS, points, side="right") - 1
    codes = _CODES[np.clip(runs, 0, len(_CODES) - 1)]
    return np.where((points < 0) | (points > 0x10FFFF), np.int32(-1), codes).astype(np.int32)


def _script_kernel(x):
    out = script_codes(x)
    return out if out.ndim else np.int32(out)


def _script_infer(x):
    if x.dtype is not dtypes.int32:
        raise TypeError(f"unicode_script expects int32 code points, got {x.dtype.name}")
    return dtypes.int32, x._shape


unicode_script_op = register(OpDef(
    "unicode_script", _script_kernel, _script_infer, differentiable=False, elementwise=False,
    doc="the ICU script code (UScriptCode) of each code point"))
