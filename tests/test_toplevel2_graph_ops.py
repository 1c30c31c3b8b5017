"""Gradients registered by TF op type (tf.RegisterGradient, tf.no_gradient) used by GradientTape eagerly and in
tf.function (passes on and off), checked against finite differences; tf.Operation's get_attr; the TypeSpec
family's protocol on nested and composite specs; tf.conv against tf.nn.conv2d / conv3d."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf
from tinytf import gradient_registry


@pytest.fixture
def registered():
    """Registrations made by a test, undone after it (a registration is process-wide, as in TF)."""
    names = []
    yield names
    for name in names:
        gradient_registry._unregister(name)


def _unique_loss(x):
    y, _ = tf.unique(x)
    return tf.reduce_sum(y * tf.constant([1.0, 2.0, 3.0], x.dtype)[: tf.shape(y)[0]])


def test_register_gradient_is_used_by_the_tape(registered, passes):
    x = tf.constant([3.0, 1.0, 3.0, 2.0])
    with pytest.raises(LookupError, match="unique"):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = _unique_loss(x)
        tape.gradient(loss, x)
    seen = []

    @tf.RegisterGradient("Unique")
    def _unique_grad(op, grad_y, grad_idx):
        seen.append((op.type, len(op.inputs), len(op.outputs), op.get_attr("out_idx"), grad_idx.dtype))
        return tf.gather(grad_y, op.outputs[1])
    registered.append("Unique")

    def gradient(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = _unique_loss(x)
        return tape.gradient(loss, x)
    assert gradient(x).numpy().tolist() == [1.0, 2.0, 1.0, 3.0]
    assert tf.function(gradient)(x).numpy().tolist() == [1.0, 2.0, 1.0, 3.0]
    assert seen[0] == ("Unique", 1, 2, tf.int32, tf.int32)
    # where the values are distinct, unique is the identity: the rule matches finite differences
    check_gradients(lambda v: tf.unique(v)[0] * tf.constant([1.0, -2.0, 0.5], tf.float64),
                    [np.array([0.3, -1.2, 2.5])])
    with pytest.raises(KeyError, match="Registering two gradient with name 'Unique'"):
        tf.RegisterGradient("Unique")(_unique_grad)


def test_unregistered_again_raises(registered):
    x = tf.constant([1.0, 1.0])
    with pytest.raises(LookupError):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = _unique_loss(x)
        tape.gradient(loss, x)


def test_no_gradient_gives_none(registered, passes):
    x = tf.constant([1.0, 2.0])

    def gradient(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.guarantee_const(x) * 2.0) + tf.reduce_sum(x)
        return tape.gradient(y, x)
    with pytest.raises(LookupError):
        gradient(x)
    tf.no_gradient("GuaranteeConst")
    registered.append("GuaranteeConst")
    assert gradient(x).numpy().tolist() == [1.0, 1.0]
    assert tf.function(gradient)(x).numpy().tolist() == [1.0, 1.0]


def test_registering_a_built_in_gradient_is_refused():
    with pytest.raises(KeyError, match="'Sqrt'"):
        tf.RegisterGradient("Sqrt")(lambda op, grad: grad)
    with pytest.raises(KeyError, match="'MatMul'"):
        tf.no_gradient("MatMul")
    assert tf.sqrt(tf.constant(4.0)).numpy() == 2.0


def test_operation_get_attr_and_node_def():
    graph = tf.function(lambda x: tf.cast(x, tf.int64) * 3).get_concrete_function(tf.TensorSpec([None])).graph
    ops = {o.name: o for o in graph.get_operations()}
    assert all(isinstance(o, tf.Operation) for o in ops.values())
    cast = next(o for o in ops.values() if o.type == "Cast")
    assert cast.get_attr("SrcT") == tf.float32 and cast.get_attr("DstT") == tf.int64
    assert cast.node_def.op == "Cast"
    with pytest.raises(ValueError, match="has no attr named 'nope'"):
        cast.get_attr("nope")


def test_type_spec_protocol_on_nested_and_composite_specs():
    nested = tf.OptionalSpec((tf.TensorSpec([2], tf.float32), {"k": tf.RaggedTensorSpec([None, None], tf.int32)}))
    other = tf.OptionalSpec((tf.TensorSpec([3], tf.float32), {"k": tf.RaggedTensorSpec([4, None], tf.int32)}))
    merged = nested.most_specific_common_supertype([other])
    assert merged == tf.OptionalSpec((tf.TensorSpec([None], tf.float32),
                                      {"k": tf.RaggedTensorSpec([None, None], tf.int32)}))
    assert nested.is_subtype_of(merged) and other.is_subtype_of(merged) and not merged.is_subtype_of(nested)
    assert nested.most_specific_common_supertype([tf.OptionalSpec(tf.TensorSpec([2]))]) is None
    assert isinstance(tf.IndexedSlicesSpec([None, 2]), tf.TypeSpec) and isinstance(nested, tf.TypeSpec)
    assert tf.TensorSpec([2, 3]).most_specific_compatible_type(tf.TensorSpec([2, 4])) == tf.TensorSpec([2, None])
    with pytest.raises(ValueError):
        tf.TensorSpec([2]).most_specific_compatible_type(tf.TensorSpec([2], tf.int32))
    # TensorSpecs keep working as input signatures and as dict keys
    f = tf.function(lambda x: x * 2.0, input_signature=[tf.TensorSpec([None], tf.float32)])
    assert f(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert {tf.TensorSpec([1]): 1}[tf.TensorSpec([1])] == 1
    assert hash(tf.NoneTensorSpec()) == hash(tf.NoneTensorSpec())


@pytest.mark.parametrize("strides,padding,dilations", [([1, 1, 1, 1], "SAME", [1, 1, 1, 1]),
                                                       ([1, 2, 1, 1], "VALID", [1, 1, 1, 1]),
                                                       ([1, 1, 1, 1], "SAME", [1, 2, 1, 1])])
def test_conv_matches_conv2d(strides, padding, dilations, passes):
    rng = np.random.default_rng(3)
    x, w = rng.standard_normal((2, 6, 5, 3)).astype(np.float32), rng.standard_normal((3, 2, 3, 4)).astype(np.float32)
    want = tf.nn.conv2d(x, w, strides, padding, dilations=dilations).numpy()
    np.testing.assert_allclose(tf.conv(x, w, strides, padding, dilations=dilations).numpy(), want, rtol=1e-5,
                               atol=1e-5)
    graph = tf.function(lambda a, b: tf.conv(a, b, strides, padding, dilations=dilations))(x, w)
    np.testing.assert_allclose(graph.numpy(), want, rtol=1e-5, atol=1e-5)
    batched = tf.conv(x.reshape(1, 2, 6, 5, 3), w, strides, padding, dilations=dilations, batch_dims=2)
    np.testing.assert_allclose(batched.numpy().reshape(want.shape), want, rtol=1e-5, atol=1e-5)


def test_conv_3d_matches_conv3d():
    rng = np.random.default_rng(4)
    x, w = rng.standard_normal((1, 4, 5, 4, 2)).astype(np.float32), rng.standard_normal((2, 2, 2, 2, 3))
    w = w.astype(np.float32)
    np.testing.assert_allclose(tf.conv(x, w, [1, 2, 1, 1, 1], "SAME").numpy(),
                               tf.nn.conv3d(x, w, [1, 2, 1, 1, 1], "SAME").numpy(), rtol=1e-5, atol=1e-5)
