"""rejection_resample (eagerly and in a graph loop, against the class fractions its construction implies) and
iterator checkpoints (replayed positions through threads, seeded randomness and repeats; a changed pipeline)."""

from __future__ import annotations

import os
import threading
import time

import numpy as np
import pytest

import tinytf as tf

LABELS = np.array([0] * 9 + [1], np.int64)


def _skewed(repeat=None):
    ds = tf.data.Dataset.from_tensor_slices((np.arange(10, dtype=np.float32), LABELS))
    return ds.repeat(repeat)


def test_acceptance_and_mixing_match_the_formula():
    from tinytf.data.resampling import acceptance_and_mixing

    initial, target = np.array([0.9, 0.1], np.float32), np.array([0.5, 0.5], np.float32)
    accept, mixing = acceptance_and_mixing(tf.constant(initial), tf.constant(target))
    ratio = target / initial
    np.testing.assert_allclose(accept.numpy(), (ratio - ratio.min()) / (ratio.max() - ratio.min()), rtol=1e-6)
    np.testing.assert_allclose(float(mixing), ratio.min(), rtol=1e-6)


@pytest.mark.parametrize("initial", [[0.9, 0.1], None])
def test_resampled_classes_follow_the_target(initial):
    resampled = _skewed().rejection_resample(lambda x, y: y, target_dist=[0.3, 0.7], initial_dist=initial, seed=11)
    pairs = list(resampled.take(3000))
    classes = np.array([int(c) for c, _ in pairs])
    assert all(int(c) == int(y) for c, (_, y) in pairs)  # the class is the element's own
    assert abs(classes.mean() - 0.7) < 0.05


def test_resampling_is_seeded_and_runs_in_a_graph_loop():
    def make():
        return _skewed().rejection_resample(lambda x, y: y, [0.5, 0.5], [0.9, 0.1], seed=5).take(400)

    eager = [int(c) for c, _ in make()]
    assert eager == [int(c) for c, _ in make()]

    @tf.function
    def ones(ds):
        n = tf.constant(0, tf.int64)
        for c, _ in ds:
            n += c
        return n

    assert int(ones(make())) == sum(eager)


def test_weights_dataset_of_the_wrong_length_is_refused():
    a, b = tf.data.Dataset.range(3), tf.data.Dataset.range(3)
    mixed = tf.data.Dataset.sample_from_datasets([a, b], weights=tf.data.Dataset.from_tensors([1.0, 0.0, 0.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="3 weights for 2 datasets"):
        list(mixed)


def _producers() -> set:
    return {t for t in threading.enumerate() if t.name == "tinytf-data-prefetch"}


def test_checkpoint_through_parallel_map_and_prefetch(tmp_path):
    earlier = _producers()  # threads of other tests' iterators, not this test's concern
    ds = tf.data.Dataset.range(50).map(lambda x: x * 3, num_parallel_calls=2).prefetch(2)
    it = iter(ds)
    head = [int(next(it)) for _ in range(7)]
    ckpt = tf.train.Checkpoint(iterator=it)
    path = ckpt.write(str(tmp_path / "c"))
    rest = [int(x) for x in it]
    ckpt.read(path)
    assert [int(x) for x in it] == rest == [3 * i for i in range(7, 50)]
    assert head == [3 * i for i in range(7)]
    fresh = iter(ds)
    tf.train.Checkpoint(iterator=fresh).read(path)
    assert int(next(fresh)) == 21
    fresh.close()
    it.close()
    # the restored pipelines' producer threads stop with their iterators (the replaced ones at restore)
    deadline = time.monotonic() + 5
    while _producers() - earlier and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not _producers() - earlier


def test_checkpoint_manager_and_exhausted_iterator(tmp_path):
    small = tf.data.Dataset.range(3)
    it = iter(small)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(it=it), str(tmp_path), max_to_keep=1)
    assert [int(x) for x in it] == [0, 1, 2]
    manager.save()
    again = iter(small)
    tf.train.Checkpoint(it=again).restore(manager.latest_checkpoint)
    assert list(again) == []
    keys = dict(tf.train.list_variables(manager.latest_checkpoint))
    assert "it/.ATTRIBUTES/ITERATOR_STATE" in keys


def test_a_changed_pipeline_is_not_restored(tmp_path):
    it = iter(tf.data.Dataset.range(5))
    path = tf.train.Checkpoint(it=it).write(os.path.join(tmp_path, "c"))
    other = iter(tf.data.Dataset.range(5).batch(2))
    with pytest.raises(tf.errors.NotFoundError, match="Failed to restore dataset iterator"):
        tf.train.Checkpoint(it=other).read(path)


def test_int32_partition_accessors_in_a_graph_match_numpy():
    splits = np.array([0, 2, 2, 5], np.int32)

    @tf.function
    def parts(rt):
        return rt.nrows(), rt.value_rowids(), rt.bounding_shape(), rt.row_lengths()

    rt = tf.RaggedTensor.from_row_splits(tf.range(5), tf.constant(splits))
    for eager, graph in zip((rt.nrows(), rt.value_rowids(), rt.bounding_shape(), rt.row_lengths()), parts(rt)):
        assert eager.dtype is graph.dtype is tf.int32
        np.testing.assert_array_equal(eager.numpy(), graph.numpy())
    np.testing.assert_array_equal(rt.value_rowids().numpy(), np.repeat(np.arange(3), np.diff(splits)))
    np.testing.assert_array_equal(rt.bounding_shape().numpy(), [3, 3])
