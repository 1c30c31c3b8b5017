"""The TF1 leftovers beyond their conformance programs (tests/conformance/tf1_more_*.py): against numpy and finite
differences, eagerly and in tf.function where TF allows it, readers with several threads and compressed files,
and the errors."""

from __future__ import annotations

import gzip
import os

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf

v1 = tf.compat.v1


def test_fused_batch_norm_gradients_match_finite_differences_eagerly_and_in_a_function():
    def training(x, scale, offset):
        return v1.nn.fused_batch_norm(x, scale, offset, epsilon=1e-3)[0]

    def inference(x, scale, offset):
        return v1.nn.fused_batch_norm(x, scale, offset, mean=tf.constant([0.1, -0.2], tf.float64),
                                      variance=tf.constant([1.5, 0.7], tf.float64), is_training=False)[0]

    rng = np.random.default_rng(3)
    arrays = [rng.normal(size=[2, 3, 2, 2]), rng.uniform(0.5, 1.5, [2]), rng.normal(size=[2])]
    check_gradients(training, arrays)
    check_gradients(inference, arrays)


def test_fused_batch_norm_matches_numpy_for_channels_first_5d():
    x = np.random.default_rng(0).normal(size=[2, 3, 2, 2, 2]).astype(np.float32)
    y, mean, var = v1.nn.fused_batch_norm(x, np.ones(3, np.float32), np.zeros(3, np.float32), data_format="NCDHW")
    axes = (0, 2, 3, 4)
    expected = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + 1e-3)
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(var.numpy(), x.var(axes, ddof=1), rtol=1e-5)
    with pytest.raises(ValueError, match="must be a 1D tensor when `is_training` is False"):
        v1.nn.fused_batch_norm(x, np.ones(3, np.float32), np.zeros(3, np.float32), is_training=False,
                               data_format="NCDHW")


def test_conv_backprops_equal_the_gradients_of_conv_in_a_function():
    x = tf.constant(np.random.default_rng(1).normal(size=[1, 6, 5, 2]).astype(np.float32))
    w = tf.constant(np.random.default_rng(2).normal(size=[3, 3, 2, 4]).astype(np.float32))

    @tf.function
    def both(x, w):
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = tf.nn.conv2d(x, w, 2, "SAME")
        g = tf.ones_like(y) * 0.5
        dx, dw = tape.gradient(y, [x, w], output_gradients=g)
        return (dx, dw, v1.nn.conv2d_backprop_input([1, 6, 5, 2], w, g, [1, 2, 2, 1], "SAME"),
                v1.nn.conv2d_backprop_filter(x, [3, 3, 2, 4], g, [1, 2, 2, 1], "SAME"))

    dx, dw, input_grad, filter_grad = both(x, w)
    np.testing.assert_allclose(input_grad.numpy(), dx.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(filter_grad.numpy(), dw.numpy(), rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="must be known when the graph is built"):
        tf.function(lambda s: v1.nn.conv2d_backprop_filter(x, s, tf.ones([1, 3, 3, 4]), 2, "SAME"))(
            tf.constant([3, 3, 2, 4]))


def test_setdiff1d_and_sparse_to_dense_in_a_function_match_numpy():
    @tf.function
    def run(x, y):
        out, idx = v1.setdiff1d(x, y)
        return out, idx, v1.sparse_to_dense(idx, [8], out, default_value=-1)

    x = np.array([5, 1, 7, 1, 3, 9], np.int32)
    out, idx, dense = run(tf.constant(x), tf.constant([1, 9], np.int32))
    keep = ~np.isin(x, [1, 9])
    assert out.numpy().tolist() == x[keep].tolist() and idx.numpy().tolist() == np.nonzero(keep)[0].tolist()
    expected = np.full(8, -1)
    expected[np.nonzero(keep)[0]] = x[keep]
    assert dense.numpy().tolist() == expected.tolist()


def test_ftrl_step_matches_the_kernel_formula_in_numpy():
    lr, l1, l2, power = 0.3, 0.05, 0.1, -0.5
    w0, g_scale = np.array([0.4, -0.3], np.float32), np.array([1.0, -2.0], np.float32)
    graph = v1.Graph()
    with graph.as_default():
        w = tf.Variable(w0)
        loss = tf.reduce_sum(w * g_scale)  # gradient g_scale every step
        train = v1.train.FtrlOptimizer(lr, learning_rate_power=power, l1_regularization_strength=l1,
                                       l2_regularization_strength=l2).minimize(loss)
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        got = []
        for _ in range(3):
            sess.run(train)
            got.append(sess.run(w))
    var, accum, linear = w0.astype(np.float64), np.full(2, 0.1), np.zeros(2)
    for step in range(3):
        new_accum = accum + g_scale ** 2
        linear = linear + g_scale - (new_accum ** -power - accum ** -power) / lr * var
        quadratic = new_accum ** -power / lr + 2 * l2
        var = (np.clip(linear, -l1, l1) - linear) / quadratic
        accum = new_accum
        np.testing.assert_allclose(got[step], var, rtol=1e-5, atol=1e-6)


def test_readers_of_compressed_fixed_records_and_several_reading_threads(tmp_path):
    payload = bytes(range(40))
    path = tmp_path / "records.gz"
    path.write_bytes(gzip.compress(payload))
    text_paths = []
    for i in range(4):
        text_paths.append(str(tmp_path / f"t{i}.txt"))
        with open(text_paths[-1], "w") as f:
            f.write("".join(f"{i}-{j}\n" for j in range(5)))
    graph = v1.Graph()
    with graph.as_default():
        names = v1.train.string_input_producer([str(path)], num_epochs=1, shuffle=False)
        _, record = v1.FixedLengthRecordReader(8, encoding="GZIP").read(names)
        text_names = v1.train.string_input_producer(text_paths, num_epochs=1, shuffle=False)
        reader = v1.TextLineReader()
        lines = v1.train.batch_join([[reader.read(text_names)[1]] for _ in range(3)], batch_size=4,
                                    allow_smaller_final_batch=True)
    with v1.Session(graph=graph) as sess:
        sess.run(v1.local_variables_initializer())
        coord = v1.train.Coordinator()
        threads = v1.train.start_queue_runners(sess, coord)
        records = [sess.run(record) for _ in range(5)]
        seen = []
        try:
            while True:
                seen += [np.asarray(v).item().decode() for v in sess.run(lines)]
        except tf.errors.OutOfRangeError:
            pass
        coord.request_stop()
        coord.join(threads)
    assert [np.asarray(r).item() for r in records] == [payload[i:i + 8] for i in range(0, 40, 8)]
    assert sorted(seen) == sorted(f"{i}-{j}" for i in range(4) for j in range(5))


def test_raw_rnn_in_a_tf_function_equals_dynamic_rnn():
    cell = v1.nn.rnn_cell.GRUCell(3)
    x = tf.constant(np.random.default_rng(4).normal(size=[4, 2, 2]).astype(np.float32))  # time major

    @tf.function
    def both():
        def loop_fn(time, output, state, loop_state):
            state = cell.zero_state(2, tf.float32) if output is None else state
            return time >= 4, x[tf.minimum(time, 3)], state, output, None

        emit, final, _ = v1.nn.raw_rnn(cell, loop_fn)
        outputs, dyn_final = v1.nn.dynamic_rnn(cell, x, time_major=True, dtype=tf.float32)
        return emit.stack(), final, outputs, dyn_final

    emitted, final, outputs, dyn_final = both()
    np.testing.assert_allclose(emitted.numpy(), outputs.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(final.numpy(), dyn_final.numpy(), rtol=1e-5, atol=1e-6)


def test_cluster_spec_round_trips_through_its_proto_bytes():
    spec = tf.train.ClusterSpec({"worker": {0: "a:1", 2: "c:1"}, "ps": ["p:1"]})
    again = tf.train.ClusterSpec(tf.train.ClusterDef.FromString(spec.as_cluster_def().SerializeToString()))
    assert again.as_dict() == {"worker": {0: "a:1", 2: "c:1"}, "ps": ["p:1"]}
    assert again.job_tasks("worker") == ["a:1", None, "c:1"]
    with pytest.raises(TypeError):
        hash(again)


def test_summary_iterator_reads_what_file_writer_wrote(tmp_path):
    writer = v1.summary.FileWriter(str(tmp_path))
    for step in range(3):
        writer.add_summary(v1.Summary(value=[v1.Summary.Value(tag="x", simple_value=step * 0.5)]), step)
    writer.close()
    (events,) = [n for n in os.listdir(tmp_path) if n.startswith("events")]
    read = [(e.step, v.simple_value) for e in v1.train.summary_iterator(str(tmp_path / events))
            for v in e.summary.value]
    assert read == [(0, 0.0), (1, 0.5), (2, 1.0)]
