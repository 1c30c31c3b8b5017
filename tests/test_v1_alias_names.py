"""tf.compat.v1 names beyond TF2's objects (helper v1alias): the nested alias namespaces, tf.compat.v1.errors'
code table, TF1's resize family eagerly, in tf.function and against numpy, with gradients against finite
differences. TF's own numbers are in tests/conformance/v1_alias_names.py."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1


def test_nested_namespaces_are_modules_holding_tinytfs_objects():
    assert v1.config.experimental.set_memory_growth is tf.config.experimental.set_memory_growth
    assert v1.data.experimental.service.distribute is tf.data.experimental.service.distribute
    assert v1.random.experimental.stateless_fold_in is tf.random.fold_in
    assert v1.math.reduce_sum is v1.reduce_sum and v1.sparse.add is v1.sparse_add
    assert "tinytf.compat.v1.config.experimental" in sys.modules
    assert "set_memory_growth" in dir(v1.config.experimental)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        v1.data.experimental.nope  # noqa: B018


def test_error_codes_round_trip_and_status():
    e = v1.errors
    for code in range(1, 17):
        cls = e.exception_type_from_error_code(code)
        assert e.error_code_from_exception_type(cls) == code == cls.error_code
    with pytest.raises(KeyError):
        e.exception_type_from_error_code(e.OK)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        unknown = e.error_code_from_exception_type(KeyError)
    assert isinstance(unknown, tf.errors.UnknownError) and caught
    with pytest.raises(tf.errors.OutOfRangeError, match="end of input"):
        with e.raise_exception_on_not_ok_status() as status:
            status.set(e.OUT_OF_RANGE, "end of input")


def _bilinear_numpy(x, out_h, out_w, align_corners):
    def axis_weights(n_in, n_out):
        scale = (n_in - 1) / (n_out - 1) if align_corners and n_out > 1 else n_in / n_out
        src = np.arange(n_out) * np.float32(scale)
        low = np.floor(src).astype(int)
        return low, np.minimum(low + 1, n_in - 1), src - low

    lo, hi, f = axis_weights(x.shape[2], out_w)
    x = x[:, :, lo] + (x[:, :, hi] - x[:, :, lo]) * f[None, None, :, None]
    lo, hi, f = axis_weights(x.shape[1], out_h)
    return x[:, lo] + (x[:, hi] - x[:, lo]) * f[None, :, None, None]


@pytest.mark.parametrize("align_corners", [False, True])
def test_resize_bilinear_eager_function_numpy(align_corners):
    x = np.random.RandomState(0).rand(2, 5, 6, 3).astype(np.float32)
    eager = v1.image.resize_bilinear(x, [7, 4], align_corners=align_corners)
    traced = tf.function(lambda t: v1.image.resize_bilinear(t, [7, 4], align_corners=align_corners))(x)
    np.testing.assert_allclose(eager.numpy(), _bilinear_numpy(x, 7, 4, align_corners), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(eager.numpy(), traced.numpy())


def test_resize_nearest_neighbor_keeps_dtype_and_picks_pixels():
    x = np.arange(2 * 4 * 6).reshape(2, 4, 6, 1).astype(np.int32)
    out = v1.image.resize_nearest_neighbor(x, [2, 3])
    assert out.dtype == tf.int32
    np.testing.assert_array_equal(out.numpy(), x[:, ::2, ::2])
    traced = tf.function(lambda t: v1.image.resize_nearest_neighbor(t, [8, 12], align_corners=True))(x)
    np.testing.assert_array_equal(traced.numpy(), v1.image.resize_nearest_neighbor(x, [8, 12], True).numpy())


def test_resize_bilinear_gradient_matches_finite_differences():
    x = np.random.RandomState(1).rand(1, 3, 4, 1)
    weights = np.random.RandomState(2).rand(1, 5, 7, 1)

    def loss(t):
        return tf.reduce_sum(v1.image.resize_bilinear(t, [5, 7], align_corners=True) * weights)

    xt = tf.constant(x, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        value = loss(xt)
    grad = tape.gradient(value, xt).numpy()
    eps, numeric = 1e-2, np.zeros_like(x)
    for index in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[index] += eps
        down[index] -= eps
        numeric[index] = (loss(tf.constant(up, tf.float32)).numpy() - loss(tf.constant(down, tf.float32)).numpy()) / (
            2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=1e-3, atol=1e-3)


def test_resize_images_methods_and_errors():
    x = np.random.RandomState(3).rand(5, 7, 2).astype(np.float32)
    assert v1.image.resize_images(x, [5, 7]).shape == (5, 7, 2)
    assert v1.image.resize(x, [3, 3], method=v1.image.ResizeMethod.AREA).shape == (3, 3, 2)
    with pytest.raises(ValueError, match="not implemented"):
        v1.image.resize_images(x, [3, 3], method=9)
    with pytest.raises(tf.errors.InvalidArgumentError, match="half_pixel_centers"):
        v1.image.resize_nearest_neighbor(x[None], [3, 3], align_corners=True, half_pixel_centers=True)
    padded = v1.image.resize_image_with_pad(x, 10, 7)
    assert padded.shape == (10, 7, 2) and np.all(padded.numpy()[0] == 0)


def test_strings_split_and_length_v1_eager_and_function():
    def run(t):
        sparse = v1.strings.split(t, sep=",")
        return sparse.indices, sparse.values, sparse.dense_shape, v1.strings.length(t)

    data = tf.constant(["a,b", "c,,d"])
    for indices, values, shape, lengths in (run(data), tf.function(run)(data)):
        np.testing.assert_array_equal(indices.numpy(), [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]])
        assert values.numpy().tolist() == [b"a", b"b", b"c", b"", b"d"]
        np.testing.assert_array_equal(shape.numpy(), [2, 3])
        np.testing.assert_array_equal(lengths.numpy(), [3, 4])


def test_v1_initializers_statistics_and_identity_partition():
    he = v1.initializers.he_uniform(seed=3)([200, 50]).numpy()
    assert np.abs(he).max() <= np.sqrt(6 / 200) and abs(he.std() - np.sqrt(2 / 200)) < 0.01
    lecun = v1.initializers.lecun_normal(seed=3)([400, 50]).numpy()
    assert abs(lecun.std() - np.sqrt(1 / 400)) < 0.005

    class Part:  # a partitioned variable's second half of rows
        full_shape, var_offset = [4, 4], [2, 0]

    np.testing.assert_array_equal(v1.initializers.identity(2.0)([2, 4], partition_info=Part()).numpy(),
                                  2 * np.eye(4)[2:])


def test_stateless_multinomial_is_stateless_categorical():
    logits = [[0.0, 1.0, -1.0]]
    a = v1.random.stateless_multinomial(logits, 5, [1, 2], output_dtype=tf.int32)
    b = tf.random.stateless_categorical(logits, 5, [1, 2], dtype=tf.int32)
    assert a.dtype == tf.int32
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert v1.test.get_temp_dir() == v1.test.get_temp_dir()


def test_v1_text_and_tensor_summaries_join_summaries_and_merge():
    graph = v1.Graph()
    with graph.as_default():
        text = v1.summary.text("notes", tf.constant(["a"]))
        count = v1.summary.tensor_summary("count", tf.constant(256), family="fam")  # its proto ends in NUL bytes
        scalar = v1.summary.scalar("loss", 0.5, family="fam")
        assert v1.get_collection(v1.GraphKeys.SUMMARIES) == [text, count, scalar]
        with v1.Session() as sess:
            merged = v1.Summary.FromString(sess.run(v1.summary.merge_all()))
    assert [v.tag for v in merged.value] == ["notes", "fam/fam/count", "fam/fam/loss"]
    assert tf.make_ndarray(merged.value[1].tensor) == 256 and merged.value[2].simple_value == 0.5
    with pytest.raises(ValueError, match="dtype string"):
        v1.summary.text("bad", tf.constant(1.0))


def test_io_record_names_are_python_ios(tmp_path):
    assert v1.io.tf_record_iterator is v1.python_io.tf_record_iterator
    assert v1.io.TFRecordCompressionType is v1.python_io.TFRecordCompressionType
    path = str(tmp_path / "r.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        writer.write(b"one")
        writer.write(b"two")
    assert list(v1.io.tf_record_iterator(path)) == [b"one", b"two"]


def test_extract_sub_graph_keeps_what_the_destination_needs_and_still_runs():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2], name="x")
        tf.multiply(x, 3.0, name="tripled")
        tf.add(x, 1.0, name="unused")
    sub = v1.graph_util.extract_sub_graph(graph.as_graph_def(), ["tripled"])
    assert "unused" not in [n.name for n in sub.node] and sub.node[-1].name == "tripled"
    with v1.Graph().as_default() as again:
        v1.import_graph_def(sub, name="")
        with v1.Session() as sess:
            out = sess.run(again.get_tensor_by_name("tripled:0"), {again.get_tensor_by_name("x:0"): [1.0, 2.0]})
    np.testing.assert_array_equal(out, [3.0, 6.0])


def test_remove_training_nodes_splices_identities_and_the_graph_still_computes():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2], name="x")
        tf.multiply(tf.identity(tf.identity(x, name="copy"), name="copy2"), 2.0, name="out")
        v1.check_numerics(x, "bad", name="check")
        tf.identity(tf.add(x, 1.0, name="plus"), name="protected")
    slim = v1.graph_util.remove_training_nodes(graph.as_graph_def(), protected_nodes=["protected"])
    assert [n.name for n in slim.node if n.op in ("Identity", "CheckNumerics")] == ["protected"]
    assert list(next(n for n in slim.node if n.name == "out").input)[0] == "x"  # through both copies
    with v1.Graph().as_default() as again:
        v1.import_graph_def(slim, name="")
        with v1.Session() as sess:
            out = sess.run(again.get_tensor_by_name("out:0"), {again.get_tensor_by_name("x:0"): [1.0, 4.0]})
    np.testing.assert_array_equal(out, [2.0, 8.0])


def test_ragged_constant_value_matches_tf_ragged_constant():
    value = v1.ragged.constant_value([[[1.0], [2.0, 3.0]], [[4.0]]])
    tensor = tf.ragged.constant([[[1.0], [2.0, 3.0]], [[4.0]]], dtype=tf.float64)
    assert value.to_list() == tensor.to_list() and value.dtype == np.float64 and value.ragged_rank == 2
    for ours, theirs in zip(value.nested_row_splits, tensor.nested_row_splits):
        np.testing.assert_array_equal(ours, theirs.numpy())
    with pytest.raises(ValueError, match="same dtype"):
        v1.ragged.RaggedTensorValue(value.values, np.array([0, 2], np.int32))
