"""tf.summary.graph / tf.summary.write read back by TensorBoard's EventAccumulator (graphs of tf.function traces
and TF1 graphs; generic summaries eagerly and every call of a tf.function), tf.autograph.set_verbosity's log, and
tf.config's deprecated eager aliases. (TF's outputs: conformance small_namespaces_featcol.)"""

import logging

import numpy as np
from tensorboard.backend.event_processing import event_accumulator
from tensorboard.compat.proto import summary_pb2
from tensorboard.util import tensor_util

import tinytf as tf


def _load(folder):
    acc = event_accumulator.EventAccumulator(str(folder), size_guidance={"tensors": 0})
    acc.Reload()
    return acc


def test_graph_of_a_traced_function_reaches_tensorboard(tmp_path):
    @tf.function
    def f(x):
        return tf.nn.relu(tf.matmul(x, x)) + 1.0

    concrete = f.get_concrete_function(tf.TensorSpec([2, 2], tf.float32))
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        assert bool(tf.summary.graph(concrete.graph))
    writer.flush()
    ops = {node.op for node in _load(tmp_path).Graph().node}
    assert {"MatMul", "Relu"} <= ops


def test_write_eagerly_and_in_function(tmp_path):
    metadata = summary_pb2.SummaryMetadata()
    metadata.plugin_data.plugin_name = "mine"
    writer = tf.summary.create_file_writer(str(tmp_path))

    @tf.function
    def step(value, i):
        return tf.summary.write("traced", value, step=i, metadata=metadata)

    with writer.as_default():
        for i in range(3):
            assert bool(step(tf.constant([1.0, 2.0]) * i, tf.constant(i, tf.int64)))
        tf.summary.write("eager", tf.constant([[1, 2], [3, 4]]), step=5)
    writer.flush()
    acc = _load(tmp_path)
    traced = acc.Tensors("traced")
    assert [e.step for e in traced] == [0, 1, 2]
    np.testing.assert_allclose(tensor_util.make_ndarray(traced[2].tensor_proto), [2.0, 4.0])
    assert acc.SummaryMetadata("traced").plugin_data.plugin_name == "mine"
    assert tensor_util.make_ndarray(acc.Tensors("eager")[0].tensor_proto).tolist() == [[1, 2], [3, 4]]


def test_autograph_verbosity_logs_conversions(caplog):
    def body(x):
        if x > 0:
            x = x * 2
        return x

    tf.autograph.set_verbosity(2)
    try:
        with caplog.at_level(logging.INFO, logger="tensorflow"):
            tf.function(body)(tf.constant(3))
    finally:
        tf.autograph.set_verbosity(0)
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "Converted call" in text and "Transformed" in text and "def tf__body" in text


def test_experimental_run_functions_eagerly_is_the_same_switch(caplog):
    from tinytf import deprecation_warning
    deprecation_warning._warned.discard("experimental_run_functions_eagerly")
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        tf.config.experimental_run_functions_eagerly(True)
        try:
            assert tf.config.functions_run_eagerly()
            assert tf.function(lambda: tf.executing_eagerly())()
        finally:
            tf.config.experimental_run_functions_eagerly(False)
    assert not tf.config.functions_run_eagerly()
    assert sum("experimental_run_functions_eagerly" in r.getMessage() for r in caplog.records) == 1
