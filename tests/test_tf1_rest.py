"""tf1rest's pieces beyond the conformance programs: the tensor-equality switch always restored, Session
fetches of SparseTensors in nested structures (and the fast path never keyed on converted fetches), a
tf.train.Checkpoint of TF1 graph variables without a Session, the eager Saver's errors, Dimension arithmetic
against plain Python, warm_start refusing eager mode."""

from __future__ import annotations

import os

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1


def test_tensor_equality_switch_is_global_and_restorable():
    x = tf.constant([1.0, 2.0])
    try:
        v1.disable_tensor_equality()
        assert (x == x) is True and (x != x) is False
        var = tf.Variable(1.0)
        assert {var: 1}[var] == 1
    finally:
        v1.enable_tensor_equality()
    assert (x == x).numpy().tolist() == [True, True]
    with pytest.raises(TypeError, match="Variable is unhashable"):
        hash(tf.Variable(1.0))


def test_session_fetches_sparse_tensors_in_structures():
    with tf.Graph().as_default():
        dense = v1.placeholder(tf.float32, [2, 3])
        sparse = tf.sparse.from_dense(dense)
        total = tf.reduce_sum(dense)
        with v1.Session() as sess:
            feed = {dense: [[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]]}
            for _ in range(3):  # repeated calls: the converted fetches are rebuilt each time
                out = sess.run({"s": sparse, "pair": (sparse, total)}, feed)
            assert isinstance(out["s"], v1.SparseTensorValue)
            assert out["s"].indices.tolist() == [[0, 1], [1, 0], [1, 2]]
            assert out["pair"][0].values.tolist() == [1.0, 2.0, 3.0]
            assert float(out["pair"][1]) == 6.0
            assert sess.run(sparse, feed).dense_shape.tolist() == [2, 3]
            assert not any(isinstance(k, v1.SparseTensorValue) for k in sess._fast)


def test_checkpoint_of_graph_variables_needs_a_session(tmp_path):
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=2.0)
        ckpt = tf.train.Checkpoint(w=w)
        with pytest.raises(ValueError, match="default Session"):
            ckpt.save(os.fspath(tmp_path / "c"))
        with v1.Session() as sess:
            sess.run(w.initializer)
            first = ckpt.save(os.fspath(tmp_path / "c"))
            second = ckpt.save(os.fspath(tmp_path / "c"))
            assert [os.path.basename(first), os.path.basename(second)] == ["c-1", "c-2"]
            assert "save_counter:0" in [v.name for v in v1.global_variables()]
        with v1.Session() as other:  # a new session: the restore gives it the saved value
            other.run(w.initializer)
            other.run(w.assign(0.0))
            ckpt.restore(first).run_restore_ops()
            assert float(other.run(w)) == 2.0


def test_eager_saver_errors(tmp_path):
    with pytest.raises(RuntimeError, match="var_list"):
        v1.train.Saver()
    with tf.Graph().as_default():
        g = v1.get_variable("g", initializer=1.0)
        saver = v1.train.Saver([g])
    with pytest.raises(ValueError, match="needs a Session"):
        saver.save(None, os.fspath(tmp_path / "x"))


@pytest.mark.parametrize("a,b", [(3, 4), (0, 7), (12, 5)])
def test_dimension_arithmetic_matches_python(a, b):
    D = v1.Dimension
    assert (D(a) + b).value == a + b and (D(a) * D(b)).value == a * b
    assert (D(a) // D(b)).value == a // b and (D(a) % b).value == a % b
    assert (D(a) < b) == (a < b) and (D(a) >= D(b)) == (a >= b)
    assert (D(a) + D(None)).value is None and (D(None) < b) is None


def test_warm_start_is_graph_only(tmp_path):
    with pytest.raises(RuntimeError, match="eager"):
        v1.train.warm_start(os.fspath(tmp_path))


def test_orthogonal_initializer_is_orthonormal_for_many_shapes():
    for shape in ([5, 3], [3, 5], [2, 3, 4]):
        q = np.reshape(v1.orthogonal_initializer(seed=3)(shape).numpy(), (-1, shape[-1]))
        small = min(q.shape)
        gram = q.T @ q if q.shape[0] >= q.shape[1] else q @ q.T
        np.testing.assert_allclose(gram, np.eye(small), atol=1e-5)
