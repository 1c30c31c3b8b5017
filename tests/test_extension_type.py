"""tf.experimental.ExtensionType: construction and its errors, immutability, specs and retracing, the
composite protocol through tf.function (passes on and off via TINYTF_PASSES), control flow, tf.nest,
gradients through extension values against finite differences, dispatch, tf.data and map_fn, threads and
memory. TF's own guide is the conformance module `extension_types_guide` (recorded from TF 2.21)."""

import gc
import threading
import typing
import weakref

import numpy as np
import pytest

import tinytf as tf


class Masked(tf.experimental.BatchableExtensionType):
    values: tf.Tensor
    mask: tf.Tensor

    def __validate__(self):
        self.values.shape.assert_is_compatible_with(self.mask.shape)

    def with_values(self, v):
        return Masked(v, self.mask)


class Labeled(tf.experimental.ExtensionType):
    name: str
    weights: typing.Mapping[str, tf.Tensor]
    scale: float = 1.0


def test_constructor_converts_and_checks_fields():
    m = Masked([1.0, 2.0], [True, False])
    assert m.values.dtype is tf.float32 and m.mask.dtype is tf.bool
    with pytest.raises(TypeError, match="mask: expected a Tensor"):
        Masked([1.0], None)
    with pytest.raises(TypeError, match="scale: expected 'float', got 'int'"):
        Labeled("a", {}, scale=2)
    with pytest.raises(ValueError, match="incompatible"):
        Masked([1.0, 2.0], [True])
    with pytest.raises(TypeError):
        Masked([1.0], [True], [False])


def test_unannotated_field_is_refused():
    with pytest.raises(ValueError, match="Field x is missing a type annotation"):
        class Bad(tf.experimental.ExtensionType):
            x = 3


def test_values_and_specs_are_immutable():
    m = Masked([1.0], [True])
    with pytest.raises(AttributeError, match="Cannot mutate attribute `mask`"):
        m.mask = tf.constant([False])
    spec = tf.type_spec_from_value(m)
    with pytest.raises(AttributeError, match="ExtensionTypeSpec"):
        spec.values = tf.TensorSpec([2])
    assert m.mask.numpy().tolist() == [True]


def test_spec_equality_hash_and_compatibility():
    a = tf.type_spec_from_value(Masked([1.0, 2.0], [True, False]))
    b = Masked.Spec(tf.TensorSpec([2]), tf.TensorSpec([2], tf.bool))
    assert a == b and hash(a) == hash(b)
    general = Masked.Spec(tf.TensorSpec([None]), tf.TensorSpec([None], tf.bool))
    assert general.is_compatible_with(a) and a != general
    assert a.most_specific_common_supertype([Masked.Spec(tf.TensorSpec([3]), tf.TensorSpec([3], tf.bool))]) == general
    assert a._batch(4)._unbatch() == a


def test_function_retraces_by_spec_and_matches_eager():
    traces = []

    @tf.function
    def f(m, lab):
        traces.append(1)
        return m.with_values(m.values * lab.weights["w"] * lab.scale)

    def eager(m, lab):
        return m.values.numpy() * lab.weights["w"].numpy() * lab.scale

    m = Masked([1.0, 2.0], [True, False])
    for lab in (Labeled("a", {"w": 2.0}), Labeled("b", {"w": 3.0}), Labeled("b", {"w": 3.0}, scale=0.5)):
        out = f(m, lab)
        np.testing.assert_allclose(out.values.numpy(), eager(m, lab))
        assert out.mask.numpy().tolist() == [True, False]
    assert len(traces) == 3  # a new name, then a new scale: static fields are part of the trace key


def test_gradient_through_extension_values_matches_finite_differences():
    x = tf.Variable([0.3, -1.2, 2.0])

    @tf.function
    def loss(v):
        m = Masked(tf.sin(v) * v, v > 0)
        m = tf.cond(tf.reduce_sum(v) > 0, lambda: m.with_values(m.values * 2.0), lambda: m)
        return tf.reduce_sum(tf.where(m.mask, m.values, tf.zeros_like(m.values)))

    with tf.GradientTape() as tape:
        value = loss(x)
    grad = tape.gradient(value, x).numpy()
    eps, base = 1e-3, x.numpy().astype(np.float64)
    numeric = []
    for i in range(3):
        hi, lo = base.copy(), base.copy()
        hi[i] += eps
        lo[i] -= eps
        up, down = loss(tf.constant(hi, tf.float32)).numpy(), loss(tf.constant(lo, tf.float32)).numpy()
        numeric.append((up - down) / (2 * eps))
    np.testing.assert_allclose(grad, numeric, rtol=2e-2, atol=2e-3)


def test_while_loop_and_nest():
    m = Masked([1.0, 2.0], [True, True])
    _, out = tf.while_loop(lambda i, _: i < 3, lambda i, v: (i + 1, v.with_values(v.values + 1.0)), [0, m])
    assert out.values.numpy().tolist() == [4.0, 5.0]
    flat = tf.nest.flatten(m, expand_composites=True)
    assert len(flat) == 2
    rebuilt = tf.nest.pack_sequence_as(m, [flat[0] * 10, flat[1]], expand_composites=True)
    assert isinstance(rebuilt, Masked) and rebuilt.values.numpy().tolist() == [10.0, 20.0]


def test_dispatch_targets_and_their_errors():
    @tf.experimental.dispatch_for_api(tf.math.reduce_sum)
    def masked_sum(input_tensor: Masked, axis=None, keepdims=False, name=None):
        return tf.reduce_sum(tf.where(input_tensor.mask, input_tensor.values, 0.0), axis, keepdims)

    try:
        m = Masked([1.0, 2.0, 4.0], [True, False, True])
        assert tf.reduce_sum(m).numpy() == 5.0 and tf.math.reduce_sum(m).numpy() == 5.0
        assert tf.reduce_sum(tf.constant([1.0, 2.0])).numpy() == 3.0  # plain tensors keep the API

        @tf.experimental.dispatch_for_api(tf.math.reduce_sum, {"input_tensor": Masked})
        def other(input_tensor, axis=None, keepdims=False, name=None):
            return 0.0

        with pytest.raises(ValueError, match="Multiple dispatch targets"):
            tf.reduce_sum(m)
        tf.experimental.unregister_dispatch_for(other)
    finally:
        tf.experimental.unregister_dispatch_for(masked_sum)
    with pytest.raises(ValueError, match="was not registered"):
        tf.experimental.unregister_dispatch_for(masked_sum)
    with pytest.raises(ValueError, match="unsupported type"):
        tf.reduce_sum(Masked([1.0], [True]))


def test_datasets_and_map_fn_of_batchable_values():
    batch = Masked(tf.reshape(tf.range(6.0), [3, 2]), tf.constant([[True, False]] * 3))
    rows = list(tf.data.Dataset.from_tensor_slices(batch))
    assert [r.values.numpy().tolist() for r in rows] == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    ds = tf.data.Dataset.from_tensor_slices(batch).map(lambda m: m.with_values(m.values + 1)).batch(2)
    assert repr(ds.element_spec) == repr(Masked.Spec(tf.TensorSpec([None, 2]), tf.TensorSpec([None, 2], tf.bool)))
    assert [b.values.numpy().tolist() for b in ds] == [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0]]]
    doubled = tf.map_fn(lambda m: m.with_values(m.values * 2), batch)
    assert isinstance(doubled, Masked) and doubled.values.numpy().tolist() == [[0.0, 2.0], [4.0, 6.0], [8.0, 10.0]]
    graph = tf.function(lambda b: tf.map_fn(lambda m: m.with_values(m.values * 2), b))(batch)
    assert graph.values.numpy().tolist() == doubled.values.numpy().tolist()


def test_concurrent_calls_share_one_trace():
    traces = []

    @tf.function
    def f(m):
        traces.append(1)
        return tf.reduce_sum(m.values)

    results, errors = [], []

    def work(k):
        try:
            results.append(float(f(Masked([float(k), 1.0], [True, True])).numpy()))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and sorted(results) == [k + 1.0 for k in range(8)] and len(traces) == 1


def test_dropped_classes_and_functions_are_freed():
    def make():
        class Temp(tf.experimental.ExtensionType):
            v: tf.Tensor

        f = tf.function(lambda t: Temp(t.v + 1))
        f(Temp(1.0))
        list(tf.data.Dataset.from_tensors(Temp(2.0)))
        return weakref.ref(Temp), weakref.ref(f)

    cls_ref, fn_ref = make()
    for _ in range(3):  # the spec's weak-keyed caches let go of their cycle at a following collection
        gc.collect()
    assert cls_ref() is None and fn_ref() is None


class Named(tf.experimental.ExtensionType):
    __name__ = "tinytf_tests.Named"
    values: tf.Tensor
    shape: tf.TensorShape
    kind: tf.DType = tf.float32


def test_saved_model_round_trip_of_a_registered_type(tmp_path):
    class Grow(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(2.0)

        @tf.function
        def __call__(self, n):
            return Named(n.values * self.v, n.shape, n.kind)

    module = Grow()
    module.__call__.get_concrete_function(Named.Spec(tf.TensorSpec(None), tf.TensorShape([3]), tf.float32))
    tf.saved_model.save(module, str(tmp_path / "named"))
    loaded = tf.saved_model.load(str(tmp_path / "named"))
    out = loaded(Named([1.0, 2.0, 3.0], [3]))
    assert isinstance(out, Named) and out.values.numpy().tolist() == [2.0, 4.0, 6.0] and out.shape == [3]


def test_saving_an_unregistered_type_is_refused(tmp_path):
    from tinytf.saved_model.extension_specs import NotEncodableError

    class Keep(tf.Module):
        @tf.function
        def __call__(self, m):
            return m.values

    module = Keep()
    module.__call__.get_concrete_function(Masked([1.0], [True]))
    with pytest.raises(NotEncodableError, match="No encoder for object"):
        tf.saved_model.save(module, str(tmp_path / "masked"))


def test_a_saved_model_written_by_tensorflow_loads():
    """tests/tf_files/saved_models/extension_type, written by TF 2.21 (make_extension_type.py there)."""
    import os

    class TFMasked(tf.experimental.ExtensionType):
        __name__ = "tftest.Masked"
        values: tf.Tensor
        mask: tf.Tensor
        tag: str = "t"
        shape: tf.TensorShape = None

    path = os.path.join(os.path.dirname(__file__), "tf_files", "saved_models", "extension_type")
    loaded = tf.saved_model.load(path)
    out = loaded.grow(TFMasked([1.0, 2.0], [True, False], "t", [2]))
    assert isinstance(out, TFMasked) and out.values.numpy().tolist() == [3.0, 6.0]
    assert out.mask.numpy().tolist() == [True, False] and out.tag == "t!" and out.shape == [2]
    with pytest.raises(ValueError, match="does not match|Could not find matching"):
        loaded.grow(TFMasked([1.0, 2.0], [True, False], "other", [2]))  # a static field differs: no trace fits
