"""tf.strings n-grams and Unicode: the `>>>` examples of TensorFlow's docstrings (ngrams, unicode_encode,
unicode_transcode, unicode_split_with_offsets, unicode_decode_with_offsets, unicode_script) and the cases around
them: ill-formed UTF-8/UTF-16 under each `errors` policy, byte-order marks, padding and short sequences, dense,
ragged and nested inputs, and the same calls inside tf.function."""

from __future__ import annotations

import numpy as np

from . import outcome, program


def sv(x):
    """A tensor or RaggedTensor as [dtype, shape or "ragged", values], bytes written as their repr (JSON has
    no bytes)."""
    if isinstance(x, (list, tuple)):
        return [sv(v) for v in x]
    if hasattr(x, "to_list"):
        return [x.dtype.name, "ragged", _plain(x.to_list())]
    if hasattr(x, "numpy"):
        return [x.dtype.name, x.shape.as_list(), _plain(x.numpy())]
    return _plain(x)


def _plain(value):
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value] if value.ndim else _plain(value[()])
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return repr(value)
    if isinstance(value, np.generic):
        return value.item()
    return value


ILL_FORMED = [b"a\xffb", b"\xe2\x82", b"\xe2\x82x", b"\xf0\x9f\x98", b"\xc0\xaf", b"\xed\xa0\x80", b"ok\x01\x1f",
              "G\u00f6\u00f6dnight \U0001f60a".encode()]


# --- docstring examples --------------------------------------------------------------------------------------
@program
def p_doc_ngrams_bigrams(tf):
    return sv(tf.strings.ngrams(["A", "B", "C", "D"], 2))


@program
def p_doc_ngrams_unigrams(tf):
    return sv(tf.strings.ngrams(["TF", "and", "keras"], 1))


@program
def p_doc_unicode_encode(tf):
    return sv(tf.strings.unicode_encode(tf.ragged.constant([[71, 246, 246, 100, 110, 105, 103, 104, 116],
                                                            [128522]]), "UTF-8"))


@program
def p_doc_unicode_transcode_utf16(tf):
    return sv(tf.strings.unicode_transcode(["Hello", "TensorFlow", "2.x"], "UTF-8", "UTF-16-BE"))


@program
def p_doc_unicode_transcode_ascii(tf):
    return sv(tf.strings.unicode_transcode(["A", "B", "C"], "US ASCII", "UTF-8"))


@program
def p_doc_unicode_split_with_offsets(tf):
    words = [s.encode("utf8") for s in ("G\xf6\xf6dnight", "\U0001f60a")]
    return sv(tf.strings.unicode_split_with_offsets(words, "UTF-8"))


@program
def p_doc_unicode_decode_with_offsets(tf):
    words = [s.encode("utf8") for s in ("G\xf6\xf6dnight", "\U0001f60a")]
    return sv(tf.strings.unicode_decode_with_offsets(words, "UTF-8"))


@program
def p_doc_unicode_script(tf):
    return sv(tf.strings.unicode_script([1, 31, 38]))


# --- decoding: errors, replacement, control characters, shapes -------------------------------------------------
@program
def p_decode_errors_policies(tf):
    return {errors: sv(tf.strings.unicode_decode_with_offsets(ILL_FORMED, "UTF-8", errors=errors))
            for errors in ("replace", "ignore")}


@program
def p_decode_strict_raises(tf):
    return outcome(lambda: tf.strings.unicode_decode_with_offsets(ILL_FORMED, "UTF-8", errors="strict"),
                   "Invalid formatting")


@program
def p_decode_replacement_and_controls(tf):
    return sv(tf.strings.unicode_decode_with_offsets(ILL_FORMED, "UTF-8", replacement_char=63,
                                                     replace_control_characters=True))


@program
def p_decode_scalar_and_matrix(tf):
    return [sv(tf.strings.unicode_decode_with_offsets("h\xe9!", "UTF-8")),
            sv(tf.strings.unicode_decode([[b"ab", b"c"], [b"d", b""]], "UTF-8")),
            sv(tf.strings.unicode_decode_with_offsets(tf.ragged.constant([[b"ab"], [b"c", "\xe9"]]), "UTF-8"))]


@program
def p_decode_utf16_and_32(tf):
    return [sv(tf.strings.unicode_decode_with_offsets([b"\x00A\xd8=\xde\x0a\x00", b"\xfe\xff\x00B"], "UTF-16-BE")),
            sv(tf.strings.unicode_decode_with_offsets([b"\x00\x00\x00A\x00\x01\xf6\x0a"], "UTF-32-BE"))]


@program
def p_decode_unknown_encoding(tf):
    return outcome(lambda: tf.strings.unicode_decode([b"a"], "FOO"), "Could not create converter")


@program
def p_split_with_offsets_ill_formed(tf):
    return sv(tf.strings.unicode_split_with_offsets(ILL_FORMED, "UTF-8", replacement_char=42))


@program
def p_split_utf16(tf):
    return sv(tf.strings.unicode_split(["h\xe9\U0001f60a".encode("utf-16-be")], "UTF-16-BE"))


# --- encoding ------------------------------------------------------------------------------------------------
@program
def p_encode_invalid_code_points(tf):
    points = [[71, -1, 0x110000, 0xD800, 66]]
    return [sv(tf.strings.unicode_encode(points, "UTF-8")),
            sv(tf.strings.unicode_encode(points, "UTF-8", errors="ignore")),
            sv(tf.strings.unicode_encode(points, "UTF-16-BE", replacement_char=ord("?"))),
            outcome(lambda: tf.strings.unicode_encode(points, "UTF-8", errors="strict"), "out of range")]


@program
def p_encode_shapes(tf):
    return [sv(tf.strings.unicode_encode([71, 72], "UTF-16-BE")),
            sv(tf.strings.unicode_encode(tf.zeros([2, 3, 0], tf.int32), "UTF-8")),
            sv(tf.strings.unicode_encode([[[104, 105]], [[0x1F600, 33]]], "UTF-32-BE")),
            sv(tf.strings.unicode_encode(tf.ragged.constant([[[104, 105], []], [[0x1F600]]]), "UTF-8"))]


# --- transcoding ---------------------------------------------------------------------------------------------
@program
def p_transcode_policies(tf):
    return [sv(tf.strings.unicode_transcode(ILL_FORMED, "UTF-8", "UTF-16-BE")),
            sv(tf.strings.unicode_transcode(ILL_FORMED, "UTF-8", "UTF-8", errors="ignore")),
            sv(tf.strings.unicode_transcode(ILL_FORMED, "UTF-8", "UTF-32-BE", replace_control_characters=True)),
            outcome(lambda: tf.strings.unicode_transcode(ILL_FORMED, "UTF-8", "UTF-8", errors="strict"),
                    "Invalid formatting")]


@program
def p_transcode_byte_order_marks(tf):
    return [sv(tf.strings.unicode_transcode([b"\xfe\xff\x00A", b"\xff\xfeA\x00", b"\x00A\xd8\x00"], "UTF-16",
                                            "UTF-8")),
            sv(tf.strings.unicode_transcode([b"\xfe\xff\x00A", b"\x00A\xd8\x00", b"\x00A\x00"], "UTF-16-BE",
                                            "UTF-8")),
            sv(tf.strings.unicode_transcode([[b"\xe9t\xe9"], [b"abc"]], "ISO-8859-1", "UTF-8")),
            sv(tf.strings.unicode_transcode([b"abc\x80"], "US-ASCII", "UTF-8"))]


@program
def p_transcode_bad_output_encoding(tf):
    return outcome(lambda: tf.strings.unicode_transcode([b"a"], "UTF-8", "UTF-16"), "not in the list")


# --- scripts -------------------------------------------------------------------------------------------------
@program
def p_script_codes(tf):
    # Latin, Greek, Han, Katakana, combining mark (Inherited), invalid values, Cyrillic, Arabic, Hebrew,
    # Devanagari, Thai, Hangul, an unassigned code point (Unknown = 103), an emoji (Common)
    points = [65, 0x3B1, 0x4E00, 0x30A2, 0x300, -1, 0x110000, 0x416, 0x627, 0x5D0, 0x915, 0xE01, 0xAC00, 0x10FFFF,
              0x1F600, 0x0E3F, 0x2028]
    return sv(tf.strings.unicode_script(points))


@program
def p_script_of_decoded_text(tf):
    text = "Hi \u03b3\u03b5\u03b9\u03ac \u043f\u0440\u0438 \u4e16\u754c"
    return sv(tf.strings.unicode_script(tf.strings.unicode_decode(text, "UTF-8")))


# --- n-grams -------------------------------------------------------------------------------------------------
NGRAM_ROWS = [["a", "b", "c", "d"], ["e"], [], ["f", "g"]]
NGRAM_CASES = [dict(ngram_width=2), dict(ngram_width=3, pad_values="#"),
               dict(ngram_width=(1, 2, 3), pad_values=("<", ">"), separator="_"),
               dict(ngram_width=3, pad_values=("L", "R"), padding_width=1),
               dict(ngram_width=4, preserve_short_sequences=True),
               dict(ngram_width=5, pad_values="P", padding_width=1, preserve_short_sequences=True),
               dict(ngram_width=[3, 2], pad_values="P", padding_width=3)]


@program
def p_ngrams_ragged_options(tf):
    rows = tf.ragged.constant(NGRAM_ROWS)
    return [sv(tf.strings.ngrams(rows, **case)) for case in NGRAM_CASES]


@program
def p_ngrams_dense_and_nested(tf):
    return [sv(tf.strings.ngrams([["a", "b", "c"], ["d", "e", "f"]], 2, pad_values="x")),
            sv(tf.strings.ngrams(tf.constant([[["a", "b", "c"], ["d", "e", "f"]]]), 2)),
            sv(tf.strings.ngrams(tf.ragged.constant([[["a", "b"], ["c"]], [["d", "e", "f"]]]), 2))]


@program
def p_ngrams_errors(tf):
    rows = tf.ragged.constant(NGRAM_ROWS)
    return [outcome(lambda: tf.strings.ngrams(rows, 0), "greater than 0"),
            outcome(lambda: tf.strings.ngrams(rows, 2, padding_width=1), "pad_values must be provided"),
            outcome(lambda: tf.strings.ngrams(rows, 2, pad_values=3), "pad_values must be a string"),
            outcome(lambda: tf.strings.ngrams(rows, 2, pad_values="x", padding_width=0), "greater than 0"),
            outcome(lambda: tf.strings.ngrams("a", 2), "rank>0")]


# --- inside tf.function ----------------------------------------------------------------------------------------
@program
def p_strings_more_in_tf_function(tf):
    @tf.function
    def pipeline(text):
        points, offsets = tf.strings.unicode_decode_with_offsets(text, "UTF-8")
        words = tf.strings.split(text)
        return (tf.strings.unicode_encode(points, "UTF-16-BE"), offsets.flat_values,
                tf.strings.unicode_script(points.flat_values), tf.strings.ngrams(words, 2).flat_values,
                tf.strings.unicode_transcode(text, "UTF-8", "UTF-32-BE"))
    return sv(pipeline(tf.constant(["h\xe9 \u4e16 a", "x\xffy z"])))


@program
def p_ngrams_empty_inputs(tf):
    return [sv(tf.strings.ngrams(tf.constant([], tf.string), 2)),
            sv(tf.strings.ngrams(tf.zeros([2, 0], tf.string), 2, pad_values="x")),
            sv(tf.strings.ngrams(tf.ragged.constant([[], []], dtype=tf.string), 2, pad_values="x")),
            sv(tf.strings.ngrams(tf.ragged.constant([[], ["a"]], dtype=tf.string), 2, pad_values="x")),
            sv(tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"]], row_splits_dtype=tf.int32), 2))]
