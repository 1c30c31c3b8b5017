"""tf.compat.v1.data's V1 Dataset and Iterator (helper v1rest): against plain numpy, inside tf.function, and in
TF1 sessions with nested elements (TF's recorded results: tests/conformance/compat_v1_rest_data.py)."""

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1


def test_v1_dataset_in_tf_function_matches_numpy():
    ds = v1.data.Dataset.from_tensor_slices(np.arange(6, dtype=np.float32)).map(lambda x: x * x).batch(4)

    @tf.function
    def total(dataset):
        s = tf.constant(0.0)
        for batch in dataset:
            s += tf.reduce_sum(batch)
        return s

    assert isinstance(ds, v1.data.Dataset)
    assert float(total(ds)) == float(np.sum(np.arange(6) ** 2))


def test_reinitializable_iterator_with_nested_elements():
    graph = tf.Graph()
    with graph.as_default():
        iterator = v1.data.Iterator.from_structure({"x": tf.float32, "y": tf.int32}, {"x": [2], "y": []})
        a = v1.data.Dataset.from_tensor_slices({"x": np.ones((2, 2), np.float32), "y": np.array([5, 6], np.int32)})
        init = iterator.make_initializer(a)
        element = iterator.get_next()
        assert element["x"].shape.as_list() == [2] and element["y"].dtype == tf.int32
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        got = [sess.run(element) for _ in range(2)]
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(element)
    assert [g["y"] for g in got] == [5, 6]
    np.testing.assert_array_equal(got[0]["x"], [1.0, 1.0])


def test_make_initializer_rejects_other_structures():
    graph = tf.Graph()
    with graph.as_default():
        iterator = v1.data.Iterator.from_structure((tf.int64, tf.int64))
        with pytest.raises(TypeError, match="Expected output types"):
            iterator.make_initializer(v1.data.Dataset.range(3))


def test_feedable_iterator_rejects_unknown_handle():
    graph = tf.Graph()
    with graph.as_default():
        handle = v1.placeholder(tf.string, [])
        element = v1.data.Iterator.from_string_handle(handle, tf.int64).get_next()
    with v1.Session(graph=graph) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="iterator string handle"):
            sess.run(element, {handle: b"nothing"})
