"""TF's top-level core names (tinytf/core_api.py) against numpy, eagerly and in tf.function with unknown shapes;
TF's own values are in tests/conformance/core_api_tf.py, finite differences in tests/test_gradients_registry.py."""

import numpy as np
import pytest

import tinytf as tf
from tinytf.graph_def.export import as_graph_def


@pytest.mark.parametrize("compiled", [False, True])
def test_repeat_matches_numpy_with_counts_known_only_at_run_time(compiled):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    fn = tf.function(lambda a, r: tf.repeat(a, r, axis=1),
                     input_signature=[tf.TensorSpec([None, 4]), tf.TensorSpec([None], tf.int32)])
    call = fn if compiled else (lambda a, r: tf.repeat(a, r, axis=1))
    np.testing.assert_array_equal(call(x, np.array([0, 2, 1, 3], np.int32)).numpy(), np.repeat(x, [0, 2, 1, 3], 1))
    if compiled:
        out = fn.get_concrete_function().structured_outputs
        assert out.shape.as_list() == [None, None]
    assert tf.repeat(x, [1, 2, 3], axis=0).shape == (6, 4)  # counts known when traced give a static size
    np.testing.assert_array_equal(tf.repeat(x, 2).numpy(), np.repeat(x, 2))


def test_sequence_mask_in_function_with_unknown_lengths():
    fn = tf.function(lambda n: tf.sequence_mask(n, 4, dtype=tf.int32),
                     input_signature=[tf.TensorSpec([None, None], tf.int32)])
    lengths = np.array([[0, 4], [2, 1]], np.int32)
    np.testing.assert_array_equal(fn(lengths).numpy(), (np.arange(4) < lengths[..., None]).astype(np.int32))


def test_ensure_shape_checks_at_run_time_inside_a_function():
    fn = tf.function(lambda x: tf.ensure_shape(x, [None, 3]) * 2.0,
                     input_signature=[tf.TensorSpec([None, None], tf.float32)])
    assert fn.get_concrete_function().structured_outputs.shape.as_list() == [None, 3]
    np.testing.assert_array_equal(fn(tf.ones([2, 3])).numpy(), np.full((2, 3), 2.0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="not compatible"):
        fn(tf.ones([2, 2]))
    with pytest.raises(ValueError, match="not compatible"):
        tf.function(lambda x: tf.ensure_shape(x, [3]))(tf.ones([2]))


def test_dynamic_partition_stitch_round_trip_in_function():
    @tf.function(input_signature=[tf.TensorSpec([None, 2]), tf.TensorSpec([None], tf.int32)])
    def round_trip(data, parts):
        positions = tf.range(tf.shape(parts)[0])
        return tf.dynamic_stitch(tf.dynamic_partition(positions, parts, 3), tf.dynamic_partition(data, parts, 3))

    data = np.random.default_rng(0).standard_normal((7, 2)).astype(np.float32)
    np.testing.assert_array_equal(round_trip(data, np.array([2, 0, 1, 1, 0, 2, 2], np.int32)).numpy(), data)


def test_space_to_batch_round_trip_and_layout():
    x = np.random.default_rng(1).standard_normal((2, 4, 6, 3)).astype(np.float32)
    y = tf.space_to_batch_nd(x, [2, 3], [[0, 0], [0, 0]]).numpy()
    # TF's layout: output batch (i * 3 + j) * 2 + n holds x[n, i::2, j::3]
    for i in range(2):
        for j in range(3):
            for n in range(2):
                np.testing.assert_array_equal(y[(i * 3 + j) * 2 + n], x[n, i::2, j::3])
    fn = tf.function(lambda v: tf.batch_to_space(tf.space_to_batch_nd(v, [2, 2], [[1, 1], [0, 2]]), [2, 2],
                                                 [[1, 1], [0, 2]]))
    np.testing.assert_array_equal(fn(x).numpy(), x)


def test_bitcast_is_numpy_view():
    x = np.array([[1.5, -2.0], [3.0, 0.25]], np.float32)
    np.testing.assert_array_equal(tf.bitcast(x, tf.int32).numpy(), x.view(np.int32))
    np.testing.assert_array_equal(tf.bitcast(x, tf.uint8).numpy(), x.view(np.uint8).reshape(2, 2, 4))
    np.testing.assert_array_equal(tf.bitcast(x, tf.float64).numpy(), x.view(np.float64)[:, 0])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.bitcast(tf.constant([1, 2, 3], tf.int16), tf.int32)


def test_timestamp_runs_at_each_call_and_exports():
    fn = tf.function(lambda: tf.timestamp())
    first, second = fn(), fn()
    assert first.dtype == tf.float64 and float(second) >= float(first) > 1.5e9
    graph_def = as_graph_def(fn.get_concrete_function().graph)
    assert "Timestamp" in {node.op for node in graph_def.node}


def test_hessians_match_the_analytic_one():
    a = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)

    @tf.function
    def h(x):
        return tf.hessians(0.5 * tf.reduce_sum(x * tf.linalg.matvec(tf.constant(a), x)) + tf.reduce_sum(x ** 3), x)

    x = np.array([0.5, -1.0], np.float32)
    np.testing.assert_allclose(h(x)[0].numpy(), a + np.diag(6 * x), rtol=1e-6)
    with pytest.raises(RuntimeError, match="eager"):
        tf.hessians(tf.constant(1.0), tf.constant(1.0))


def test_recompute_grad_runs_forward_again_and_matches():
    w = tf.Variable(0.7)
    calls = []

    def f(v):
        calls.append(1)
        return tf.tanh(v * w) * v

    g = tf.recompute_grad(f)
    x = tf.constant([0.3, -1.2])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(g(g(x)))
    got = tape.gradient(y, [x, w])
    assert len(calls) == 4  # two forward calls, two recomputations in the backward pass
    with tf.GradientTape() as tape:
        tape.watch(x)
        y2 = tf.reduce_sum(f(f(x)))
    want = tape.gradient(y2, [x, w])
    np.testing.assert_allclose(float(y), float(y2), rtol=1e-6)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5)


def test_group_tuple_and_scopes_in_a_function():
    v = tf.Variable(0.0)
    seen = {}

    @tf.function
    def step(x):
        with tf.name_scope("outer"):
            seen["scope"] = tf.get_current_name_scope()
        seen["inside"] = tf.inside_function()
        op = tf.group(v.assign_add(x), [tf.identity(x)])
        seen["group"] = op is not None and tf.no_op() is not None
        a, b = tf.tuple([x * 2.0, x + 1.0])
        return a + b

    assert float(step(tf.constant(1.0))) == 4.0 and float(v.numpy()) == 1.0
    assert seen == {"scope": "outer", "inside": True, "group": True}
    assert tf.group(tf.constant(1)) is None and tf.no_op() is None and not tf.inside_function()
    assert tf.get_logger().name == "tensorflow"
    assert tf.identity_n([tf.constant(1), tf.constant([2.0])])[1].dtype == tf.float32
    assert [s.numpy().tolist() for s in tf.shape_n([tf.ones([2, 3]), tf.ones([4])])] == [[2, 3], [4]]


def test_errors_keep_tinytf_and_tf_constructors():
    import pickle

    raised = tf.errors.InvalidArgumentError("one message")  # how tinytf raises its errors
    assert raised.message == "one message" and raised.error_code == tf.errors.INVALID_ARGUMENT
    assert isinstance(raised, ValueError)  # tinytf's errors stay catchable as the Python errors they are
    made = tf.errors.AlreadyExistsError(None, None, "exists")  # TF's form
    assert str(made) == "exists" and made.error_code == 6 and made.op is None
    again = pickle.loads(pickle.dumps(made))
    assert type(again) is tf.errors.AlreadyExistsError and again.message == "exists"
    try:
        tf.reshape(tf.ones([2, 3]), [4])
    except tf.errors.OpError as e:
        assert e.error_code == tf.errors.INVALID_ARGUMENT and "reshape" in e.message


def test_seeded_initializers_repeat_and_unseeded_ones_do_not():
    seeded = tf.random_normal_initializer(seed=7)
    np.testing.assert_array_equal(seeded([3, 2]).numpy(), seeded([3, 2]).numpy())
    free = tf.random_uniform_initializer(0.0, 1.0)
    a, b = free([50]).numpy(), free([50]).numpy()
    assert not np.array_equal(a, b) and a.min() >= 0.0 and a.max() < 1.0
    v = tf.Variable(tf.random_uniform_initializer(-2, 3, seed=1)([4, 4], tf.int64))
    assert v.dtype == tf.int64 and -2 <= int(tf.reduce_min(v)) and int(tf.reduce_max(v)) < 3
    assert tf.version.VERSION == tf.__version__ and tf.version.GRAPH_DEF_VERSION > 0
