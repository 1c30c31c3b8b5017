"""String tensors: conversion, printing, the tf.strings ops (eagerly, as optimized and unoptimized graphs, and
against Python's own bytes methods), string tensors in tf.function signatures, control flow and graph passes."""

from __future__ import annotations

import io

import numpy as np
import pytest
from ways import graph_ops, run_all_ways

import tinytf as tf
from tinytf.runtime.ops import strings as string_ops

WORDS = ["Hello World", "  tensor Flow ", "\u00e9t\u00e9", ""]


def _objects(values):
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


# --- conversion and printing --------------------------------------------------------------------------------------
def test_constants_hold_bytes_as_tf_does():
    scalar = tf.constant("a")
    assert scalar.dtype is tf.string and scalar.shape == () and scalar.numpy() == b"a"
    vector = tf.constant(["a", b"b", "\u00e9"])
    assert vector.numpy().dtype == object
    assert vector.numpy().tolist() == [b"a", b"b", "\u00e9".encode()]
    assert tf.constant(np.array(["x", "yz"])).numpy().tolist() == [b"x", b"yz"]
    assert tf.constant([["a"], ["b"]]).shape == (2, 1)
    empty = tf.constant([[], []], tf.string)
    assert empty.dtype is tf.string and empty.shape == (2, 0) and empty.numpy().dtype == object


def test_string_elements_stay_tensors_when_indexed_or_iterated():
    vector = tf.constant(["ab", "c"])
    assert [t.numpy() for t in vector] == [b"ab", b"c"]
    assert vector[1].numpy() == b"c" and vector[1].shape == ()
    assert (tf.constant("a") + tf.constant("b")).numpy() == b"ab"


def test_conversion_errors():
    with pytest.raises(TypeError):
        tf.constant("a", tf.float32)
    with pytest.raises(TypeError):
        tf.constant(1, tf.string)
    with pytest.raises(TypeError):
        tf.constant(["a", None])
    with pytest.raises(tf.errors.UnimplementedError, match="Cast string to float32 is not supported"):
        tf.cast(tf.constant("a"), tf.float32)


def test_printing():
    assert str(tf.constant("a")) == "tf.Tensor(b'a', shape=(), dtype=string)"
    assert repr(tf.constant(["a", "b"])) == \
        "<tf.Tensor: shape=(2,), dtype=string, numpy=array([b'a', b'b'], dtype=object)>"
    out = io.StringIO()
    tf.print(tf.constant("bare"), output_stream=out)
    tf.print("x", tf.constant("quoted"), tf.constant(["a", "b"]), output_stream=out)
    assert out.getvalue() == 'bare\nx "quoted" ["a" "b"]\n'


def test_tf_print_of_strings_inside_a_function():
    out = io.StringIO()

    @tf.function
    def f(s):
        tf.print("got", s, output_stream=out)
        return s

    f(tf.constant(["p", "q"]))
    f(tf.constant(["r", "s"]))
    assert out.getvalue() == 'got ["p" "q"]\ngot ["r" "s"]\n'


# --- the ops against Python's bytes methods, three ways ---------------------------------------------------------
def test_elementwise_ops_match_python():
    words = tf.constant(WORDS)
    raw = [w.encode() for w in WORDS]
    run_all_ways(tf.strings.lower, words, expected=_objects([w.lower() for w in raw]))
    run_all_ways(tf.strings.upper, words, expected=_objects([w.upper() for w in raw]))
    run_all_ways(tf.strings.strip, words, expected=_objects([w.strip() for w in raw]))
    run_all_ways(tf.strings.length, words, expected=np.array([len(w) for w in raw]))
    run_all_ways(lambda w: tf.strings.length(w, unit="UTF8_CHAR"), words, expected=np.array([len(w) for w in WORDS]))
    run_all_ways(lambda w: tf.strings.upper(w, encoding="utf-8"), words,
                 expected=_objects([w.upper().encode() for w in WORDS]))


def test_join_broadcasts_and_takes_a_separator():
    grid = tf.constant([["a", "b"], ["c", "d"]])
    result = run_all_ways(lambda g: tf.strings.join([g, "x", tf.constant(["1", "2"])], separator="-"), grid)
    assert result.numpy().tolist() == [[b"a-x-1", b"b-x-2"], [b"c-x-1", b"d-x-2"]]
    with pytest.raises(TypeError, match="string tensor"):
        tf.strings.join([grid, tf.constant(1)])


def test_reduce_join_over_axes():
    grid = tf.constant([["a", "b", "c"], ["d", "e", "f"]])
    assert run_all_ways(lambda g: tf.strings.reduce_join(g), grid).numpy() == b"abcdef"
    rows = run_all_ways(lambda g: tf.strings.reduce_join(g, axis=1, separator=","), grid)
    assert rows.numpy().tolist() == [b"a,b,c", b"d,e,f"]
    kept = run_all_ways(lambda g: tf.strings.reduce_join(g, axis=0, keepdims=True), grid)
    assert kept.shape == (1, 3) and kept.numpy().tolist() == [[b"ad", b"be", b"cf"]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
        tf.strings.reduce_join(grid, axis=2)


def test_substr_positions_lengths_and_errors():
    words = tf.constant(["Hello", "World"])
    got = run_all_ways(lambda w: tf.strings.substr(w, 1, 3), words)
    assert got.numpy().tolist() == [b"ell", b"orl"]
    got = run_all_ways(lambda w: tf.strings.substr(w, tf.constant([-2, 0]), tf.constant([5, -1])), words)
    assert got.numpy().tolist() == [b"lo", b"World"]
    assert tf.strings.substr("h\u00e9llo", 1, 2, unit="UTF8_CHAR").numpy() == "\u00e9l".encode()
    with pytest.raises(tf.errors.InvalidArgumentError, match="pos 9 out of range"):
        tf.strings.substr(words, 9, 1)


def test_regex_ops():
    words = tf.constant(["aaa", "bab"])
    assert run_all_ways(lambda w: tf.strings.regex_replace(w, "a+", "x"), words).numpy().tolist() == [b"x", b"bxb"]
    first = tf.strings.regex_replace(words, "a", "x", replace_global=False)
    assert first.numpy().tolist() == [b"xaa", b"bxb"]
    assert tf.strings.regex_replace("john smith", r"(\w+) (\w+)", r"\2 \1").numpy() == b"smith john"
    assert tf.strings.regex_full_match(words, "b.b").numpy().tolist() == [False, True]


def test_as_string_and_to_number_round_trip():
    values = tf.constant([1.5, -2.25, 100.0])
    text = run_all_ways(tf.strings.as_string, values)
    assert text.numpy().tolist() == [b"1.500000", b"-2.250000", b"100.000000"]
    back = run_all_ways(tf.strings.to_number, text, expected=values.numpy())
    assert back.dtype is tf.float32
    ints = tf.strings.to_number(["7", "-8"], tf.int64)
    assert ints.dtype is tf.int64 and ints.numpy().tolist() == [7, -8]
    assert tf.as_string(tf.constant([True, False])).numpy().tolist() == [b"true", b"false"]
    assert tf.strings.as_string(tf.constant(3), width=3, fill="0").numpy() == b"003"
    with pytest.raises(tf.errors.InvalidArgumentError, match="could not correctly convert string: x1"):
        tf.strings.to_number("x1")
    with pytest.raises(ValueError, match="both scientific and shortest"):
        tf.strings.as_string(1.0, scientific=True, shortest=True)


def test_format_writes_as_tf_print():
    got = run_all_ways(lambda t: tf.strings.format("v={} s={}", [t, tf.constant("q")]), tf.range(3))
    assert got.numpy() == b'v=[0 1 2] s="q"'
    assert tf.strings.format("{}", tf.range(10), summarize=1).numpy() == b"[0 ... 9]"
    with pytest.raises(tf.errors.InvalidArgumentError, match="num placeholders"):
        tf.strings.format("{} {}", tf.range(2))


# --- split: flat values and row splits ------------------------------------------------------------------------------
def _split_parts(sep=None, maxsplit=-1):
    return lambda w: string_ops.split_parts(w, sep, maxsplit)


@pytest.mark.parametrize("sep", [None, " ", "o"])
def test_split_parts_match_python(sep):
    words = tf.constant(WORDS)
    values, splits = run_all_ways(_split_parts(sep), words)
    raw = [w.encode().split(None if sep is None else sep.encode()) for w in WORDS]
    assert values.numpy().tolist() == [piece for row in raw for piece in row]
    assert splits.dtype is tf.int64
    assert splits.numpy().tolist() == np.concatenate([[0], np.cumsum([len(r) for r in raw])]).tolist()


def test_split_with_maxsplit_and_of_a_scalar():
    values, splits = string_ops.split_parts(tf.constant(["a b c", "d"]), None, 1)
    assert values.numpy().tolist() == [b"a", b"b c", b"d"] and splits.numpy().tolist() == [0, 2, 3]
    scalar = run_all_ways(lambda s: tf.strings.split(s), tf.constant("x  y z"))
    assert scalar.numpy().tolist() == [b"x", b"y", b"z"]
    assert tf.strings.split("a,,b", ",").numpy().tolist() == [b"a", b"", b"b"]


def test_bytes_split():
    values, splits = run_all_ways(lambda w: string_ops.bytes_split_parts(w), tf.constant(["ab", "", "\u00e9"]))
    assert values.numpy().tolist() == [b"a", b"b", b"\xc3", b"\xa9"] and splits.numpy().tolist() == [0, 2, 2, 4]
    assert tf.strings.bytes_split("hey").numpy().tolist() == [b"h", b"e", b"y"]


def test_split_of_a_vector_needs_ragged_tensors_or_says_so():
    if hasattr(tf, "RaggedTensor"):
        assert tf.strings.split(["a b", "c"]).to_list() == [[b"a", b"b"], [b"c"]]
    else:
        with pytest.raises(NotImplementedError, match="RaggedTensor"):
            tf.strings.split(["a b", "c"])


def test_split_rejects_matrices():
    with pytest.raises(tf.errors.InvalidArgumentError, match="scalar or vector"):
        string_ops.split_parts(tf.constant([["a"]]))


# --- tf.function: signatures, control flow, passes -----------------------------------------------------------------
def test_python_strings_key_traces_by_value_and_string_tensors_by_spec():
    traces = []

    @tf.function
    def shout(s):
        traces.append(1)
        return tf.strings.upper(s)

    assert shout("a").numpy() == b"A" and shout("b").numpy() == b"B" and shout("a").numpy() == b"A"
    assert len(traces) == 2
    shout(tf.constant("x"))
    shout(tf.constant("y"))
    assert len(traces) == 3
    shout(tf.constant(["x", "y"]))
    assert len(traces) == 4
    spec = tf.function(tf.strings.upper, input_signature=[tf.TensorSpec([None], tf.string)])
    assert spec(tf.constant(["q"])).numpy().tolist() == [b"Q"]


def test_strings_through_cond_and_while():
    @tf.function
    def pick(flag, s):
        if flag:
            out = tf.strings.upper(s)
        else:
            out = s + "?"
        return out

    assert pick(tf.constant(True), tf.constant("a")).numpy() == b"A"
    assert pick(tf.constant(False), tf.constant("a")).numpy() == b"a?"

    @tf.function
    def repeat(n):
        s = tf.constant("")
        for _ in tf.range(n):
            s = tf.strings.join([s, "ab"])
        return s

    assert repeat(tf.constant(3)).numpy() == b"ababab"
    assert repeat(tf.constant(0)).numpy() == b""


def test_graph_passes_fold_and_share_string_constants():
    def f():
        a = tf.constant(["x", "y"])
        b = tf.constant(["x", "y"])
        return tf.strings.join([a, "!"]), tf.strings.join([b, "!"]), a == b

    ops = graph_ops(f)
    assert set(ops) == {"const"}  # every string op folded into a constant
    run_all_ways(f)

    def g(s):
        return tf.strings.join([s, "x"]) == tf.strings.join([s, "x"]), tf.strings.length(s) + 1

    assert graph_ops(g, tf.TensorSpec([None], tf.string)).count("string_join") == 1  # CSE shared the join
    run_all_ways(g, tf.constant(["a", "bb"]))


def test_string_ops_have_no_gradient():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.strings.to_number(tf.strings.as_string(x)) * x
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 2.0]  # only the direct path


def test_unicode_split_and_decode():
    text = "\u30a2\u30d2 \U0001F986"
    chars = run_all_ways(lambda s: tf.strings.unicode_split(s, "UTF-8"), tf.constant(text))
    assert chars.numpy().tolist() == [c.encode() for c in text]
    points = run_all_ways(lambda s: tf.strings.unicode_decode(s, "UTF-8"), tf.constant(text),
                          expected=np.array([ord(c) for c in text]))
    assert points.dtype is tf.int32
    rows = tf.strings.unicode_decode(tf.constant(["ab", "\u00e9"]), "UTF-8")
    assert rows.values.numpy().tolist() == [97, 98, 233] and rows.row_splits.numpy().tolist() == [0, 2, 3]
    with pytest.raises(tf.errors.InvalidArgumentError, match="input encoding"):
        tf.strings.unicode_decode("a", "EBCDIC-XYZ")


def test_unsorted_segment_join():
    rows = tf.constant([["Y", "q"], ["Y", "6"], ["p", "G"]])
    got = run_all_ways(lambda r: tf.strings.unsorted_segment_join(r, [1, 0, 1], 3, separator=":"), rows)
    assert got.shape == (3, 2) and got.numpy().tolist() == [[b"Y", b"6"], [b"Y:p", b"q:G"], [b"", b""]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="segment_ids must be in"):
        tf.strings.unsorted_segment_join(["a"], [4], 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="prefix"):
        tf.strings.unsorted_segment_join(["a", "b"], [[0, 1]], 2)


def test_generated_code_shows_string_and_complex_constants():
    def f(s, z):
        return tf.strings.join([s, "!"]), z * (1 + 2j)

    code = tf.function(f).get_concrete_function(tf.TensorSpec([None], tf.string),
                                                tf.TensorSpec([2], tf.complex128)).code
    assert "string constant b'!'" in code
    assert "separator=b''" in code
    assert "= np.complex128((1+2j))" in code
