"""Partitioned variables beyond their conformance programs (tests/conformance/tf1_more_partitioned.py): a
checkpoint TF 2.21 wrote (tests/tf_files/tf1/partitioned, made by make_partitioned.py there) read by tinytf into
the same and other partitionings, and tinytf writing the very same bytes for the same graph (so TF reads
tinytf's); the slice keys against OrderedCode's known encodings."""

from __future__ import annotations

import importlib.util
import os

import numpy as np
import pytest

import tinytf as tf
from tinytf.train.slice_keys import _signed, slice_key

v1 = tf.compat.v1
HERE = os.path.join(os.path.dirname(__file__), "tf_files", "tf1", "partitioned")


def _maker():
    spec = importlib.util.spec_from_file_location("make_partitioned", os.path.join(HERE, "make_partitioned.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


W = np.arange(14, dtype=np.float32).reshape(7, 2)
V = np.arange(10, dtype=np.float32).reshape(2, 5) + 100


def test_tinytf_writes_the_bytes_tf_wrote_for_the_same_partitioned_graph(tmp_path):
    graph = v1.Graph()
    with graph.as_default():
        _maker().build(tf)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            v1.train.Saver().save(sess, str(tmp_path / "ckpt"), write_state=False, write_meta_graph=False)
    for suffix in ("index", "data-00000-of-00001"):
        with open(os.path.join(HERE, f"ckpt.{suffix}"), "rb") as theirs:
            assert (tmp_path / f"ckpt.{suffix}").read_bytes() == theirs.read(), suffix


@pytest.mark.parametrize("shards", [1, 2, 3, 7])
def test_tf_checkpoint_restores_into_any_partitioning(shards):
    graph = v1.Graph()
    with graph.as_default():
        w = v1.get_variable("s/w", [7, 2], partitioner=v1.fixed_size_partitioner(shards))
        v = v1.get_variable("s/v", [2, 5], partitioner=v1.fixed_size_partitioner(shards, axis=1))
        b = v1.get_variable("s/b", [3])
        with v1.Session() as sess:
            v1.train.Saver().restore(sess, os.path.join(HERE, "ckpt"))
            got_w, got_v, got_b = sess.run([tf.convert_to_tensor(w), tf.convert_to_tensor(v), b])
            assert len(sess.run(list(w))) == shards
    np.testing.assert_array_equal(got_w, W)
    np.testing.assert_array_equal(got_v, V)
    np.testing.assert_array_equal(got_b, [1.0, 2.0, 3.0])


def test_tf_checkpoint_through_the_readers():
    reader = tf.train.load_checkpoint(os.path.join(HERE, "ckpt"))
    assert reader.get_variable_to_shape_map() == {"s/w": [7, 2], "s/v": [2, 5], "s/b": [3]}
    np.testing.assert_array_equal(reader.get_tensor("s/v"), V)
    np.testing.assert_array_equal(tf.train.load_variable(os.path.join(HERE, "ckpt"), "s/w"), W)


def test_eager_saver_restores_shards_of_a_graph_checkpoint(tmp_path):
    w = v1.get_variable("w", [7, 2], partitioner=v1.fixed_size_partitioner(2), initializer=tf.zeros_initializer())
    saver = v1.train.Saver({"s/w": w})
    saver.restore(None, os.path.join(HERE, "ckpt"))
    np.testing.assert_array_equal(np.concatenate([s.numpy() for s in w]), W)
    np.testing.assert_array_equal(tf.convert_to_tensor(w).numpy(), W)


def test_slice_keys_follow_ordered_code():
    assert slice_key("s/w", [5, 0], [2, 2]) == b"\x00s/w\x00\x01\x01\x02\x85\x82\x80\x82"
    # OrderedCode's signed numbers: the bytes sort as the numbers do (values from its C++ tests)
    assert _signed(-2 ** 63).hex() == "003f8000000000000000"
    assert _signed(2 ** 63 - 1).hex() == "ffc07fffffffffffffff"
    numbers = [-2 ** 40, -65, -64, -1, 0, 63, 64, 8191, 8192, 2 ** 40]
    assert sorted(numbers, key=_signed) == numbers


def test_gradient_through_the_whole_matches_finite_differences():
    graph = v1.Graph()
    with graph.as_default():
        w = v1.get_variable("w", initializer=tf.constant(W), partitioner=v1.fixed_size_partitioner(3))
        loss = tf.reduce_sum(tf.sin(tf.convert_to_tensor(w)) ** 2)
        grads = v1.gradients(loss, list(w))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            got = np.concatenate(sess.run(grads))
    np.testing.assert_allclose(got, np.sin(2 * W), rtol=1e-5, atol=1e-6)
