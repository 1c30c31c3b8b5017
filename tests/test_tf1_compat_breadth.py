"""tf.compat.v1 breadth beyond the conformance programs: the alias table against tinytf's own TF2 names, the
TF1 wrappers eagerly and inside tf.function against numpy, gradients of compat.v1.losses against finite
differences, and eager behaviour that differs from graph mode (no LOSSES collection, decays as callables)."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf
from tinytf.compat.v1 import tf1_aliases
from tinytf.compat.v1.tf2_same_objects import SAME_OBJECTS, SAME_SIGNATURE

v1 = tf.compat.v1


def _namespace(name):
    module = v1
    for part in [p for p in name.split(".") if p]:  # dotted: tf.compat.v1.config.experimental
        module = getattr(module, part)
    return module


def test_every_alias_is_tinytfs_tf2_object_or_absent():
    checked = missing = 0
    for namespace in set(SAME_OBJECTS) | set(SAME_SIGNATURE):
        module = _namespace(namespace)
        for name, path in tf1_aliases.tf2_paths(namespace).items():
            try:
                target = tf1_aliases.resolve(path)
            except AttributeError:
                assert not hasattr(module, name) or name in vars(module), (namespace, name)
                missing += 1
                continue
            value = getattr(module, name)
            # a TF1 version of the module's own (v1 arguments) comes first; otherwise the very TF2 object
            assert value is target or name in _own_names(module), (namespace, name)
            checked += 1
    assert checked > 500 and missing > 0


def _own_names(module):
    return {n for n, v in vars(module).items() if getattr(v, "__module__", "").startswith("tinytf.compat.v1")}


def test_dir_lists_the_aliases_and_missing_ones_raise_attribute_error():
    assert {"reshape", "random_normal", "GraphKeys", "reduce_sum"} <= set(dir(v1))
    assert "abs" in dir(v1.math) and "sqrt" in dir(v1.math)
    import tinytf.compat.v1.math as v1_math  # the alias namespaces are importable modules

    assert v1_math.sqrt is tf.math.sqrt
    with pytest.raises(AttributeError, match="not_a_tf_name"):
        v1.not_a_tf_name  # noqa: B018


@pytest.mark.parametrize("compiled", [False, True])
def test_v1_reductions_and_renamed_arguments_against_numpy(compiled):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 10.0

    def run(t):
        return [v1.reduce_sum(t, reduction_indices=[1], keep_dims=True), v1.reduce_max(t, 2),
                v1.argmax(t, dimension=1), v1.count_nonzero(t > 0, reduction_indices=2),
                v1.expand_dims(t, dim=0), v1.squeeze(v1.expand_dims(t, 1), squeeze_dims=1),
                v1.div(tf.cast(t, tf.int32), 3), v1.nn.softmax(t, dim=1), v1.nn.moments(t, [0], keep_dims=True)[0]]

    fn = tf.function(run) if compiled else run
    got = [np.asarray(r) for r in fn(tf.constant(x))]
    e = np.exp(x - x.max(axis=1, keepdims=True))
    expected = [x.sum(1, keepdims=True), x.max(2), x.argmax(1), (x > 0).sum(2), x[None], x,
                np.floor_divide(x.astype(np.int32), 3), e / e.sum(1, keepdims=True), x.mean(0, keepdims=True)]
    for g, want in zip(got, expected):
        np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-6)
    assert got[2].dtype == np.int64 and got[3].dtype == np.int64


def _finite_difference(f, x, eps=1e-3):
    grad = np.zeros_like(x)
    for i in np.ndindex(*x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        grad[i] = (f(up) - f(down)) / (2 * eps)
    return grad


@pytest.mark.parametrize("loss_name", ["mean_squared_error", "absolute_difference", "huber_loss", "log_loss",
                                       "sigmoid_cross_entropy", "softmax_cross_entropy", "mean_pairwise"])
def test_v1_loss_gradients_match_finite_differences(loss_name):
    rng = np.random.default_rng(3)
    labels = rng.uniform(0.1, 0.9, size=(3, 4)).astype(np.float64)
    preds = rng.uniform(0.2, 0.8, size=(3, 4)).astype(np.float64)
    weights = np.array([[1.0], [0.0], [2.0]])
    L = v1.losses

    def loss(p):
        p = tf.convert_to_tensor(p)
        if loss_name == "sigmoid_cross_entropy":
            return L.sigmoid_cross_entropy(labels > 0.5, p, weights=weights, label_smoothing=0.1)
        if loss_name == "softmax_cross_entropy":
            return L.softmax_cross_entropy(np.eye(4)[[0, 3, 1]], p, label_smoothing=0.2)
        if loss_name == "mean_pairwise":
            return L.mean_pairwise_squared_error(labels, p)
        return getattr(L, loss_name)(labels, p, weights=weights)

    x = tf.Variable(preds.astype(np.float32))
    with tf.GradientTape() as tape:
        value = loss(x)
    analytic = np.asarray(tape.gradient(value, x))
    numeric = _finite_difference(lambda p: float(loss(p.astype(np.float32))), preds.astype(np.float32), eps=1e-2)
    np.testing.assert_allclose(analytic, numeric, rtol=2e-2, atol=2e-3)


def test_eager_losses_are_not_collected_and_decays_are_callables():
    with tf.Graph().as_default():
        pass  # (a fresh default graph is not needed: eagerly nothing is collected)
    before = len(v1.get_collection(v1.GraphKeys.LOSSES))
    v1.losses.mean_squared_error([1.0, 2.0], [1.5, 2.5])
    assert len(v1.get_collection(v1.GraphKeys.LOSSES)) == before
    step = tf.Variable(0, dtype=tf.int64)
    rate = v1.train.exponential_decay(0.1, step, 2, 0.5)
    assert callable(rate)
    np.testing.assert_allclose(float(rate()), 0.1)
    step.assign(4)
    np.testing.assert_allclose(float(rate()), 0.025, rtol=1e-6)


def test_v1_softmax_cross_entropy_stops_label_gradients_v2_does_not():
    labels = tf.Variable([[0.2, 0.8]])
    logits = tf.constant([[1.0, -1.0]])
    with tf.GradientTape(persistent=True) as tape:
        first = v1.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        second = v1.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
    assert tape.gradient(first, labels) is None
    log_softmax = np.log(np.exp([1.0, -1.0]) / np.exp([1.0, -1.0]).sum())
    np.testing.assert_allclose(np.asarray(tape.gradient(second, labels))[0], -log_softmax, rtol=1e-5)


def test_get_variable_collections_and_regularizer_in_a_graph():
    with tf.Graph().as_default():
        local = v1.get_variable("c", [], collections=[v1.GraphKeys.LOCAL_VARIABLES], trainable=False)
        w = v1.get_variable("w", [2], regularizer=lambda t: tf.reduce_sum(t * t))
        assert local not in v1.global_variables() and local in v1.local_variables()
        assert w in v1.global_variables() and len(v1.losses.get_regularization_losses()) == 1
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            value = sess.run(w)
            np.testing.assert_allclose(sess.run(v1.losses.get_regularization_loss()), (value ** 2).sum(), rtol=1e-6)


def test_config_proto_behaves_like_a_message():
    config = v1.ConfigProto(log_device_placement=True)
    assert config.gpu_options is config.gpu_options  # a submessage, kept once read
    config.gpu_options.allow_growth = 1
    assert config.gpu_options.allow_growth is True and config.HasField("gpu_options")
    copy = v1.ConfigProto()
    copy.CopyFrom(config)
    assert copy == config and str(copy) == "gpu_options {\n  allow_growth: true\n}\nlog_device_placement: true\n"
    copy.gpu_options.allow_growth = False  # a copy, not a view
    assert config.gpu_options.allow_growth is True
    with pytest.raises(TypeError):
        config.intra_op_parallelism_threads = "two"


def test_disable_v2_behavior_builds_graphs_until_enabled_again():
    try:
        v1.disable_v2_behavior()
        assert not v1.executing_eagerly() and not v1.executing_eagerly_outside_functions()
        x = v1.placeholder(tf.float32, [2])
        y = v1.Print(x * 2.0, [x], "x: ", first_n=1)
        with v1.Session() as sess:
            np.testing.assert_allclose(sess.run(y, {x: [1.0, 2.0]}), [2.0, 4.0])
    finally:
        v1.enable_v2_behavior()
        v1.reset_default_graph()
    assert v1.executing_eagerly() and float(tf.constant(2.0) * 3.0) == 6.0


@pytest.mark.parametrize("compiled", [False, True])
def test_v1_where_selects_rows_without_broadcasting(compiled):
    def pick(c, a, b):
        return v1.where(c, a, b)

    fn = tf.function(pick) if compiled else pick
    a, b = np.arange(6.0).reshape(3, 2), -np.arange(6.0).reshape(3, 2)
    got = fn(tf.constant([True, False, True]), tf.constant(a), tf.constant(b))
    np.testing.assert_allclose(np.asarray(got), np.where(np.array([True, False, True])[:, None], a, b))
    with pytest.raises(tf.errors.InvalidArgumentError):
        v1.where(tf.constant([True, False]), tf.constant([[1.0, 2.0]]), tf.constant([[3.0, 4.0]]))
