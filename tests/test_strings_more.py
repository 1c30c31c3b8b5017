"""tf.strings n-grams and Unicode (tinytf/strings_more.py): each function eagerly and in tf.function (passes on
and off), against plain-Python references (Python's codecs, a direct n-gram loop), on random ill-formed bytes,
and its errors. TF 2.21's own outputs are in tests/conformance/strings_more.py."""

from __future__ import annotations

import codecs
import random

import numpy as np
import pytest
from ways import run_all_ways

import tinytf as tf
from tinytf.runtime.ops import strings_unicode


def _random_bytes(count, seed):
    """Mostly valid UTF-8 with ill-formed bytes mixed in (truncated sequences, surrogates, stray continuations)."""
    rng = random.Random(seed)
    pieces = ["a", "\u00e9", "\u4e16", "\U0001f60a", " ", "\x01"]
    bad = [b"\xff", b"\xe2\x82", b"\xed\xa0\x80", b"\x80", b"\xc0\xaf", b"\xf0\x9f\x98"]
    out = []
    for _ in range(count):
        size = rng.randint(0, 8)
        out.append(b"".join(rng.choice(pieces).encode() if rng.random() < 0.7 else rng.choice(bad)
                            for _ in range(size)))
    return out


def test_decode_agrees_with_python_codecs_on_ill_formed_input():
    words = _random_bytes(60, seed=3)
    points, offsets = tf.strings.unicode_decode_with_offsets(words, "UTF-8")
    for word, row, starts in zip(words, points.to_list(), offsets.to_list()):
        assert row == [ord(ch) for ch in word.decode("utf-8", "replace")]
        assert starts == sorted(starts) and all(0 <= s < len(word) for s in starts)
        # each valid character's bytes start at its offset
        for code, start in zip(row, starts):
            if code != 0xFFFD:
                assert word[start:].decode("utf-8", "ignore").startswith(chr(code))
    ignored = tf.strings.unicode_decode(words, "UTF-8", errors="ignore").to_list()
    assert ignored == [[ord(ch) for ch in w.decode("utf-8", "ignore")] for w in words]


def test_decode_all_ways_with_offsets():
    words = tf.constant(["G\u00f6\u00f6d".encode(), "\U0001f60a!".encode(), "a\udcff".encode("utf-8", "surrogatepass")])

    def parts(x):
        points, offsets = tf.strings.unicode_decode_with_offsets(x, "UTF-8", replacement_char=63)
        return points.flat_values, offsets.flat_values, points.row_splits
    got = run_all_ways(parts, words)
    assert got[0].numpy().tolist() == [71, 246, 246, 100, 128522, 33, 97, 63, 63, 63]
    assert got[1].numpy().tolist() == [0, 1, 3, 5, 0, 4, 0, 1, 2, 3]
    assert got[1].dtype is tf.int64 and got[0].dtype is tf.int32


def test_decode_keeps_dense_and_ragged_dimensions():
    matrix = tf.strings.unicode_decode([["ab", "c"], ["", "\u00e9"]], "UTF-8")
    assert matrix.to_list() == [[[97, 98], [99]], [[], [233]]]
    ragged = tf.strings.unicode_decode(tf.ragged.constant([["ab"], ["c", "d"]]), "UTF-8")
    assert ragged.to_list() == [[[97, 98]], [[99], [100]]]
    scalar = tf.strings.unicode_decode("h\u00e9", "UTF-8")
    assert isinstance(scalar, tf.Tensor) and scalar.numpy().tolist() == [104, 233]


def test_decode_utf16_byte_order_marks_and_strict():
    text = "h\u00e9\U0001f60a"
    for name, data in (("UTF-16-BE", text.encode("utf-16-be")), ("UTF-16-LE", text.encode("utf-16-le")),
                       ("UTF-16", codecs.BOM_UTF16_LE + text.encode("utf-16-le")),
                       ("UTF-16", text.encode("utf-16-be")), ("UTF-32-BE", text.encode("utf-32-be"))):
        points, offsets = tf.strings.unicode_decode_with_offsets(data, name)
        assert points.numpy().tolist() == [ord(ch) for ch in text], name
    _, offsets = tf.strings.unicode_decode_with_offsets(codecs.BOM_UTF16_BE + text.encode("utf-16-be"), "UTF-16")
    assert offsets.numpy().tolist() == [2, 4, 6]  # offsets count the byte-order mark's bytes
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid formatting"):
        tf.strings.unicode_decode(b"a\xff", "UTF-8", errors="strict")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not create converter"):
        tf.strings.unicode_decode(b"a", "KOI-Z")
    with pytest.raises(tf.errors.InvalidArgumentError, match="errors"):
        tf.strings.unicode_decode(b"a", "UTF-8", errors="skip")


def test_encode_round_trips_and_errors():
    words = ["h\u00e9llo", "", "\U0001f60a\u4e16"]
    points = tf.strings.unicode_decode(words, "UTF-8")
    for encoding, codec in (("UTF-8", "utf-8"), ("UTF-16-BE", "utf-16-be"), ("UTF-32-BE", "utf-32-be")):
        got = run_all_ways(lambda p, e=encoding: tf.strings.unicode_encode(
            tf.RaggedTensor.from_row_splits(p, points.row_splits), e), points.values)
        assert got.numpy().tolist() == [w.encode(codec) for w in words]
    dense = run_all_ways(lambda p: tf.strings.unicode_encode(p, "UTF-8"), tf.constant([[[72, -5], [0xDFFF, 105]]]))
    assert dense.shape == (1, 2) and dense.numpy().tolist() == [[b"H\xef\xbf\xbd", b"\xef\xbf\xbdi"]]
    assert tf.strings.unicode_encode([72, 0x110000], "UTF-8", errors="ignore").numpy() == b"H"
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range for Unicode"):
        tf.strings.unicode_encode([72, -1], "UTF-8", errors="strict")
    with pytest.raises(tf.errors.InvalidArgumentError, match="not in the list"):
        tf.strings.unicode_encode([72], "UTF-16")


def test_split_with_offsets_reencodes_each_character():
    words = tf.constant(["a\xff\u00e9".encode("latin-1")[:1] + b"\xff" + "\u00e9".encode(), b"xy"])
    chars, offsets = run_all_ways(lambda w: tuple(p.flat_values for p in tf.strings.unicode_split_with_offsets(
        w, "UTF-8")), words)
    assert chars.numpy().tolist() == [b"a", "\ufffd".encode(), "\u00e9".encode(), b"x", b"y"]
    assert offsets.numpy().tolist() == [0, 1, 2, 0, 1]
    utf16 = tf.strings.unicode_split("\u00e9\U0001f60a".encode("utf-16-be"), "UTF-16-BE")
    assert utf16.numpy().tolist() == ["\u00e9".encode("utf-16-be"), "\U0001f60a".encode("utf-16-be")]


def test_transcode_matches_python_codecs():
    words = _random_bytes(40, seed=11)
    for output, codec in (("UTF-16-BE", "utf-16-be"), ("UTF-8", "utf-8"), ("UTF-32-BE", "utf-32-be")):
        got = run_all_ways(lambda w, o=output: tf.strings.unicode_transcode(w, "UTF-8", o), tf.constant(words))
        assert got.numpy().tolist() == [w.decode("utf-8", "replace").encode(codec) for w in words]
    ignored = tf.strings.unicode_transcode(words, "UTF-8", "UTF-8", errors="ignore").numpy().tolist()
    assert ignored == [w.decode("utf-8", "ignore").encode() for w in words]
    controls = tf.strings.unicode_transcode([b"a\x01\x1f\x7f"], "UTF-8", "UTF-8", replace_control_characters=True,
                                            replacement_char=32)
    assert controls.numpy().tolist() == [b"a  \x7f"]  # C0 only: DEL (0x7F) stays
    latin = tf.strings.unicode_transcode([[b"\xe9t\xe9"]], "ISO-8859-1", "UTF-8")
    assert latin.shape == (1, 1) and latin.numpy()[0, 0] == "\u00e9t\u00e9".encode()


def test_script_codes_follow_icu():
    got = run_all_ways(tf.strings.unicode_script, tf.constant([65, 0x3B1, 0x416, 0x627, 0x4E00, 0x30A2, 0x300, 0x20,
                                                               -1, 0x110000, 0x378]))
    # Latin 25, Greek 14, Cyrillic 8, Arabic 2, Han 17, Katakana 22, Inherited 1, Common 0, invalid -1, Unknown 103
    assert got.numpy().tolist() == [25, 14, 8, 2, 17, 22, 1, 0, -1, -1, 103]
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32"):  # TF's eager error for a wrong dtype
        tf.strings.unicode_script(tf.constant([65], tf.int64))
    # the table is runs: every run's first code point has the run's code, the one before it another
    starts = np.asarray(strings_unicode.RUN_STARTS)
    assert (strings_unicode.script_codes(starts) == np.asarray(strings_unicode.RUN_CODES)).all()
    assert (strings_unicode.script_codes(starts[1:] - 1) != np.asarray(strings_unicode.RUN_CODES[1:])).all()


def _reference_ngrams(row, width, separator, left, right, pad):
    """Direct definition: pad each side with min(pad, width - 1) pads (pad -1: width - 1), slide a window."""
    p = width - 1 if pad < 0 else min(pad, width - 1)
    padded = [left] * p + row + [right] * p
    return [separator.join(padded[i:i + width]) for i in range(len(padded) - width + 1)]


@pytest.mark.parametrize("width,pad_values,padding_width", [(1, None, None), (2, None, None), (3, "#", None),
                                                            (3, ("<", ">"), 1), (4, "$", 2), (2, "#", 5)])
def test_ngrams_against_direct_definition(width, pad_values, padding_width):
    rows = [["a", "b", "c", "d", "e"], ["f"], [], ["g", "h"]]
    left, right = (pad_values if isinstance(pad_values, tuple) else (pad_values, pad_values)) if pad_values \
        else ("", "")
    pad = 0 if pad_values is None else (-1 if padding_width is None else padding_width)
    expected = [[g.encode() for g in _reference_ngrams(r, width, "|", left, right, pad)] for r in rows]
    ragged = tf.ragged.constant(rows)
    got = run_all_ways(lambda v, s: tf.strings.ngrams(tf.RaggedTensor.from_row_splits(v, s), width, "|", pad_values,
                                                      padding_width).flat_values, ragged.values, ragged.row_splits)
    assert got.numpy().tolist() == [g for row in expected for g in row]


def test_ngrams_dense_shapes_and_short_sequences():
    dense = run_all_ways(lambda d: tf.strings.ngrams(d, (1, 2), pad_values="_"),
                         tf.constant([[["a", "b"], ["c", "d"]], [["e", "f"], ["g", "h"]]]))
    assert dense.shape == (2, 2, 5) and dense.numpy()[1, 0].tolist() == [b"e", b"f", b"_ e", b"e f", b"f _"]
    short = tf.strings.ngrams(tf.ragged.constant([["a", "b"], [], ["c", "d", "e", "f"]]), 3,
                              preserve_short_sequences=True)
    assert short.to_list() == [[b"a b"], [], [b"c d e", b"d e f"]]
    with pytest.raises(ValueError, match="pad_values must be provided"):
        tf.strings.ngrams(["a"], 2, padding_width=1)
    with pytest.raises(TypeError, match="pad_values"):
        tf.strings.ngrams(["a"], 2, pad_values=("a",))


def test_ngrams_input_signature_with_unknown_rows():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.string)])
    def bigrams(words):
        return tf.strings.ngrams(words, 2, separator="+")
    assert bigrams(tf.constant([["a", "b", "c"]])).numpy().tolist() == [[b"a+b", b"b+c"]]
    assert bigrams(tf.constant([["x", "y"], ["z", "w"]])).numpy().tolist() == [[b"x+y"], [b"z+w"]]
