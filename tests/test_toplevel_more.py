"""The top level's leftovers of TF 2.21 (helper toplvl): each against numpy or a plain-Python model, eagerly and
inside tf.function, gradients against finite differences where TF has them. TF's own values are in conformance
toplevel_more."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients
from tensorboard.compat.proto import tensor_pb2

import tinytf as tf


def levenshtein(a, b):
    table = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    return table[-1][-1]


def test_device_spec_parses_prints_and_merges():
    d = tf.DeviceSpec.from_string("/job:ps/replica:1/task:2/device:GPU:3")
    assert (d.job, d.replica, d.task, d.device_type, d.device_index) == ("ps", 1, 2, "GPU", 3)
    assert tf.DeviceSpec.from_string(d.to_string()) == d and hash(tf.DeviceSpec.from_string(d.to_string())) == hash(d)
    merged = d.make_merged_spec(tf.DeviceSpec(task=7, device_index=0))
    assert merged.to_string() == "/job:ps/replica:1/task:7/device:GPU:0"
    assert d.replace(job="w", device_type="cpu").to_string() == "/job:w/replica:1/task:2/device:CPU:3"
    assert d.parse_from_string("/cpu:*").to_string() == "/device:CPU:*"
    assert {d, tf.DeviceSpec.from_string(d.to_string())} == {d}
    with pytest.raises(AttributeError):
        d.job = "x"  # immutable, as TF 2's DeviceSpec
    with tf.device(tf.DeviceSpec(device_type="CPU", device_index=0)):  # tf.device takes a spec too
        assert float(tf.constant(2.0) * 2.0) == 4.0
    with pytest.raises(ValueError, match="Unknown attribute 'foo'"):
        tf.DeviceSpec.from_string("/foo:1")


def test_variable_creator_scope_chains_innermost_first_also_on_a_functions_first_trace():
    calls = []

    def outer(next_creator, **kwargs):
        calls.append("outer")
        return next_creator(**kwargs)

    def inner(next_creator, **kwargs):
        calls.append("inner")
        kwargs["initial_value"] = kwargs["initial_value"] + 1.0
        return next_creator(**kwargs)

    made = []

    @tf.function
    def build():
        if not made:
            made.append(tf.Variable(1.0))
        return made[0].read_value() * 2.0

    with tf.variable_creator_scope(outer), tf.variable_creator_scope(inner):
        v = tf.Variable(tf.constant([1.0, 2.0]), name="w")
        result = build()
    assert calls[:2] == ["inner", "outer"] and len(calls) == 4
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0])
    assert v.name == "w:0" and float(result) == 4.0
    assert isinstance(tf.Variable(0.0), tf.Variable) and len(calls) == 4  # the scopes are gone

    def replacing(next_creator, **kwargs):
        return "not a variable"

    with tf.variable_creator_scope(replacing):
        assert tf.Variable(1.0) == "not a variable"


def test_registered_conversions_are_tried_by_priority_and_checked():
    class Box:
        def __init__(self, value):
            self.value = value

    class Bad:
        pass

    tf.register_tensor_conversion_function(Box, lambda v, dtype=None, name=None, as_ref=False:
                                           tf.constant(v.value, dtype=dtype))
    tf.register_tensor_conversion_function(Bad, lambda v, dtype=None, name=None, as_ref=False: 3.0)
    np.testing.assert_array_equal(tf.add(Box([1.0, 2.0]), 1.0).numpy(), [2.0, 3.0])
    assert tf.function(lambda: tf.reduce_sum(tf.convert_to_tensor(Box([1.0, 2.0]))))().numpy() == 3.0
    assert tf.convert_to_tensor(Box(1), dtype=tf.int64).dtype is tf.int64
    with pytest.raises(RuntimeError, match="non-Tensor"):
        tf.convert_to_tensor(Bad())
    with pytest.raises(RuntimeError, match="incompatible dtype"):
        tf.register_tensor_conversion_function(Bad, lambda v, dtype=None, name=None, as_ref=False: tf.constant(1),
                                               priority=0)
        tf.convert_to_tensor(Bad(), dtype=tf.float32)
    with pytest.raises(TypeError, match="NumPy"):
        tf.register_tensor_conversion_function(np.ndarray, lambda *a, **k: None)


@pytest.mark.parametrize("value,dtype,shape", [
    (np.arange(6, dtype=np.int64).reshape(2, 3), None, None), (np.float16([1.5, -2]), None, None),
    ([[1.0, 2.0]], tf.float64, None), (5, None, [2, 2]), ([True, False, True], None, None), (["ab", b"c"], None, None),
    (np.array([1 + 2j, 3j], np.complex64), None, None), (np.uint32([1, 2**32 - 1]), None, None), (2.5, None, None),
    ([1, 2], tf.float32, [4]),
])
def test_tensor_protos_round_trip(value, dtype, shape):
    proto = tf.make_tensor_proto(value, dtype=dtype, shape=shape)
    assert isinstance(proto, tensor_pb2.TensorProto)
    back = tf.make_ndarray(tensor_pb2.TensorProto.FromString(proto.SerializeToString()))
    want = np.asarray(value)
    if want.dtype.kind in "US":
        want = np.array([s.encode() if isinstance(s, str) else s for s in value], object)
    if shape is not None:  # the last value repeats, as TF reads splats
        flat = want.reshape(-1)
        want = np.concatenate([flat, np.repeat(flat[-1:], int(np.prod(shape)) - flat.size)]).reshape(shape)
    if dtype is not None:
        want = want.astype(dtype.as_numpy_dtype)
    assert back.shape == want.shape
    assert back.tolist() == want.tolist()
    # the proto is the one tf.io.parse_tensor reads
    parsed = tf.io.parse_tensor(proto.SerializeToString(), tf.as_dtype(back.dtype) if back.dtype != object
                                else tf.string)
    assert parsed.numpy().tolist() == back.tolist()


def test_edit_distance_matches_a_python_model_eagerly_and_in_graphs():
    rng = np.random.default_rng(3)
    h_entries, t_entries = [], []
    for i in range(3):
        for j in range(2):
            h_entries += [((i, j, k), int(rng.integers(0, 3))) for k in range(int(rng.integers(0, 4)))]
            t_entries += [((i, j, k), int(rng.integers(0, 3))) for k in range(int(rng.integers(0, 4)))]

    def sparse(entries, shape):
        return tf.SparseTensor([e[0] for e in entries] or np.zeros([0, 3], np.int64),
                               tf.constant([e[1] for e in entries], tf.int64), shape)

    hyp, truth = sparse(h_entries, [3, 2, 4]), sparse(t_entries, [3, 2, 4])
    for normalize in (True, False):
        want = np.zeros([3, 2], np.float32)
        for i in range(3):
            for j in range(2):
                h = [v for idx, v in h_entries if idx[:2] == (i, j)]
                t = [v for idx, v in t_entries if idx[:2] == (i, j)]
                d = levenshtein(h, t)
                want[i, j] = (d / len(t) if t else (np.inf if h else 0.0)) if normalize else d
        eager = tf.edit_distance(hyp, truth, normalize=normalize)
        graph = tf.function(lambda a, b, n=normalize: tf.edit_distance(a, b, normalize=n))(hyp, truth)
        for got in (eager, graph):
            np.testing.assert_allclose(got.numpy(), want)
    with pytest.raises(TypeError, match="Truth must be a SparseTensor"):
        tf.edit_distance(hyp, tf.constant([1]))


def volume_patches_model(x, k, s, padding):
    b, dims, c = x.shape[0], x.shape[1:4], x.shape[4]
    outs, befores = [], []
    for n, kk, ss in zip(dims, k, s):
        out = (n - kk) // ss + 1 if padding == "VALID" else -(-n // ss)
        outs.append(out)
        befores.append(0 if padding == "VALID" else max((out - 1) * ss + kk - n, 0) // 2)
    result = np.zeros([b, *outs, int(np.prod(k)) * c], x.dtype)
    for od in range(outs[0]):
        for oh in range(outs[1]):
            for ow in range(outs[2]):
                pieces = []
                for kd in range(k[0]):
                    for kh in range(k[1]):
                        for kw in range(k[2]):
                            pos = [o * ss + kk - bf for o, ss, kk, bf in zip((od, oh, ow), s, (kd, kh, kw), befores)]
                            inside = all(0 <= p < n for p, n in zip(pos, dims))
                            pieces.append(x[:, pos[0], pos[1], pos[2], :] if inside else np.zeros([b, c], x.dtype))
                result[:, od, oh, ow, :] = np.concatenate(pieces, axis=-1)
    return result


@pytest.mark.parametrize("k,s,padding", [((2, 2, 2), (2, 2, 2), "VALID"), ((3, 2, 2), (2, 1, 3), "SAME"),
                                         ((1, 3, 2), (1, 2, 2), "SAME"), ((2, 1, 3), (1, 1, 1), "VALID")])
def test_extract_volume_patches_matches_loops_and_finite_differences(k, s, padding):
    x = np.sin(np.arange(2 * 4 * 5 * 4 * 2) * 0.7).reshape(2, 4, 5, 4, 2)
    call = lambda t: tf.extract_volume_patches(t, [1, *k, 1], [1, *s, 1], padding)  # noqa: E731
    want = volume_patches_model(x, k, s, padding)
    for got in (call(tf.constant(x)), tf.function(call)(tf.constant(x))):
        np.testing.assert_array_equal(got.numpy(), want)
    check_gradients(call, [x[:1, :3, :4, :3, :1].copy()])


def test_approx_top_k_and_guarantee_const_in_graphs():
    x = np.float32(np.sin(np.arange(24) * 1.3).reshape(4, 6))
    values, indices = tf.function(lambda t: tf.approx_top_k(t, 3))(tf.constant(x))
    order = np.argsort(-x, axis=-1, kind="stable")[:, :3]
    np.testing.assert_array_equal(indices.numpy(), order)
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(x, order, -1))
    check_gradients(lambda t: tf.approx_top_k(tf.cast(t, tf.float32), 2).values, [x.astype(np.float64)], rtol=1e-3,
                    atol=1e-3, eps=1e-3)
    with pytest.raises(tf.errors.NotFoundError):
        tf.approx_top_k(x, 2, reduction_dimension=0)
    graph = tf.function(lambda t: tf.guarantee_const(t) + 1.0)
    np.testing.assert_array_equal(graph(tf.constant(x)).numpy(), x + 1.0)
    with tf.GradientTape() as tape:
        t = tf.constant(x)
        tape.watch(t)
        y = tf.reduce_sum(tf.guarantee_const(t))
    with pytest.raises(LookupError, match="guarantee_const"):  # TF registers no gradient for GuaranteeConst
        tape.gradient(y, t)


def test_eig_and_matrix_square_root_are_the_linalg_ops():
    a = np.array([[2.0, 1.0], [0.5, 3.0]])
    w, v = tf.eig(a)
    np.testing.assert_allclose(np.sort(w.numpy().real), np.sort(np.linalg.eigvals(a).real))
    np.testing.assert_allclose(a @ v.numpy(), v.numpy() * w.numpy(), atol=1e-12)
    np.testing.assert_allclose(tf.eigvals(a).numpy(), w.numpy())
    root = tf.function(tf.matrix_square_root)(tf.constant(a @ a.T))
    np.testing.assert_allclose(root.numpy() @ root.numpy(), a @ a.T, atol=1e-10)
    assert tf.AggregationMethod.DEFAULT == tf.AggregationMethod.ADD_N == 0


@pytest.mark.parametrize("top", [0, 5, 99, 4095, 70000])
def test_random_index_shuffle_is_a_seeded_bijection_eagerly_and_in_graphs(top):
    indices = tf.range(top + 1, dtype=tf.int64)
    seed = tf.constant([7, 8, 9], tf.int64)
    eager = tf.random_index_shuffle(indices, seed, tf.constant(top, tf.int64)).numpy()
    graph = tf.function(lambda i: tf.random_index_shuffle(i, seed, tf.constant(top, tf.int64)))(indices).numpy()
    np.testing.assert_array_equal(eager, graph)
    assert sorted(eager.tolist()) == list(range(top + 1))  # a permutation
    other = tf.random_index_shuffle(indices, tf.constant([7, 8, 10], tf.int64), tf.constant(top, tf.int64)).numpy()
    assert top < 5 or other.tolist() != eager.tolist()  # another key, another permutation
    scalar = tf.random.experimental.index_shuffle(tf.constant(3, tf.int64), [8, 9], tf.constant(top, tf.int64))
    assert scalar.shape == [] and 0 <= int(scalar) <= top


def test_random_index_shuffle_checks_its_arguments():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Seed must be"):
        tf.random_index_shuffle(tf.range(3), [[1, 2, 3]] * 2, 5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not in the list"):
        tf.random_index_shuffle(tf.constant(1.0), [1, 2, 3], 5.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="rounds"):
        tf.random_index_shuffle(1, [1, 2, 3], 5, rounds=3)
