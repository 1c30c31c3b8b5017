"""TF1's Saver and import_meta_graph: a `.meta` and checkpoint written by TF 2.21's Saver (tests/tf_files/tf1/
saver/, made by make_tf1_graphs.py after three training steps) restore into a tinytf Session and give TF's
numbers; the imported train op keeps training; tinytf's Saver writes name-keyed bundles that restore per
session, with TF's errors for missing keys and wrong shapes."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import tinytf as tf

pytest.importorskip("tensorboard.compat.proto.meta_graph_pb2")

v1 = tf.compat.v1
HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(HERE, "tf_files", "tf1", "saver")
REFERENCE = json.load(open(os.path.join(HERE, "tf_reference", "tf1_graph_import.json")))["resource_variables"]
X = np.array(json.load(open(os.path.join(HERE, "tf_reference", "tf1_graph_import.json")))["x"], np.float32)


def imported():
    graph = v1.Graph()
    with graph.as_default():
        saver = v1.train.import_meta_graph(os.path.join(FOLDER, "model.meta"))
    return graph, saver


def test_import_meta_graph_restores_tfs_checkpoint():
    graph, saver = imported()
    with graph.as_default():
        assert [v.name for v in v1.global_variables()] == ["W:0", "b:0"]
        assert [v.name for v in v1.trainable_variables()] == ["W:0", "b:0"]
        (train,) = v1.get_collection("train_op")
    assert train.name == "train" and train.type == "NoOp"
    assert v1.train.latest_checkpoint(FOLDER) == os.path.join(FOLDER, "model")
    with v1.Session(graph=graph) as sess:
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run("y:0", {"x:0": X})
        saver.restore(sess, v1.train.latest_checkpoint(FOLDER))
        np.testing.assert_allclose(sess.run("y:0", {"x:0": X}), REFERENCE["trained"], rtol=1e-6)
        sess.run("init")  # the imported initializers give the initial values back
        np.testing.assert_allclose(sess.run("y:0", {"x:0": X}), REFERENCE["first"], rtol=1e-6)
        for _ in range(3):  # TF's own gradient graph and update ops, imported: the same three steps as TF
            sess.run(train, {"x:0": X})
        np.testing.assert_allclose(sess.run("y:0", {"x:0": X}), REFERENCE["trained"], rtol=1e-5)
        w = graph.get_tensor_by_name("W:0")
        sess.run(w.initializer)
        np.testing.assert_allclose(sess.run(w), np.arange(6, dtype=np.float32).reshape(3, 2) / 4)


def model_graph():
    graph = v1.Graph()
    with graph.as_default():
        with v1.variable_scope("layer"):
            w = v1.get_variable("w", initializer=np.ones((2, 2), np.float32))
            b = v1.get_variable("b", [2], initializer=v1.zeros_initializer())
        step = w.assign(w * 2.0 + b)
        init = v1.global_variables_initializer()
        saver = v1.train.Saver(max_to_keep=2)
    return graph, w, b, step, init, saver


def test_saver_round_trip_per_session(tmp_path):
    graph, w, b, step, init, saver = model_graph()
    prefix = str(tmp_path / "model")
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        sess.run(step)
        paths = [saver.save(sess, prefix, global_step=i) for i in range(3)]
    assert paths[-1] == prefix + "-2" and saver.last_checkpoints == paths[1:]
    assert not os.path.exists(paths[0] + ".index")  # max_to_keep=2 removed the oldest
    assert v1.train.latest_checkpoint(str(tmp_path)) == paths[-1]
    assert dict(tf.train.list_variables(paths[-1])) == {"layer/b": [2], "layer/w": [2, 2]}
    with v1.Session(graph=graph) as other:
        saver.restore(other, paths[-1])  # restoring initializes: no initializer run needed
        np.testing.assert_array_equal(other.run(w), np.full((2, 2), 2.0, np.float32))
        other.run(step)
        np.testing.assert_array_equal(other.run(w), np.full((2, 2), 4.0, np.float32))
    assert float(w.numpy()[0, 0]) == 1.0


def test_saver_errors(tmp_path):
    graph, w, b, step, init, saver = model_graph()
    prefix = str(tmp_path / "model")
    with v1.Session(graph=graph) as sess:
        with pytest.raises(tf.errors.FailedPreconditionError):  # nothing to save before initialization
            saver.save(sess, prefix)
        sess.run(init)
        saver.save(sess, prefix)
    other = v1.Graph()
    with other.as_default():
        w2 = v1.get_variable("layer/w", [3, 2])
        missing = v1.get_variable("nope", [1])
        wrong_shape, not_found = v1.train.Saver([w2]), v1.train.Saver([missing])
    with v1.Session(graph=other) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="layer/w"):
            wrong_shape.restore(sess, prefix)
        with pytest.raises(tf.errors.NotFoundError, match="Key nope not found in checkpoint"):
            not_found.restore(sess, prefix)
        with pytest.raises(tf.errors.FailedPreconditionError):  # nothing was half-restored
            sess.run(w2)
    with pytest.raises(ValueError, match="No variables to save"):
        with v1.Graph().as_default():
            v1.train.Saver()
