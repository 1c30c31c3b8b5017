"""tf.data's background threads and bad input: errors reach the consumer with TF's class, the
transformation and the user's line; no thread outlives its iterator; dropped pipelines free memory."""

from __future__ import annotations

import gc
import threading
import time
import weakref

import numpy as np
import pytest

import tinytf as tf


def settle(baseline: int, timeout: float = 2.0) -> int:
    """threading.active_count() once background threads had a moment to end."""
    deadline = time.monotonic() + timeout
    while threading.active_count() > baseline and time.monotonic() < deadline:
        gc.collect()
        time.sleep(0.01)
    return threading.active_count()


def test_error_in_parallel_map_reaches_consumer_and_threads_end():
    baseline = threading.active_count()
    ds = tf.data.Dataset.from_tensor_slices([0, 1, 7, 1, 0] * 10).map(
        lambda i: tf.gather([1.0, 2.0], i), num_parallel_calls=4)
    seen = []
    with pytest.raises(tf.errors.InvalidArgumentError):
        for x in ds:
            seen.append(float(x))
    assert seen == [1.0, 2.0]
    assert settle(baseline) == baseline


def test_exception_in_prefetch_thread_reaches_consumer_and_thread_ends():
    baseline = threading.active_count()

    def gen():
        yield 1
        yield 2
        raise RuntimeError("the generator broke")

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int32)).prefetch(2)
    got = []
    with pytest.raises(RuntimeError, match="the generator broke"):
        for x in ds:
            got.append(int(x))
    assert got == [1, 2]
    assert settle(baseline) == baseline


def test_dropped_iterator_stops_its_threads():
    baseline = threading.active_count()
    ds = tf.data.Dataset.range(10_000).map(lambda x: x + 1, num_parallel_calls=3).prefetch(4)
    it = iter(ds)
    assert int(next(it)) == 1
    assert threading.active_count() > baseline
    del it
    assert settle(baseline) == baseline


def test_exhausted_iterator_leaves_no_thread():
    baseline = threading.active_count()
    assert len(list(tf.data.Dataset.range(50).map(lambda x: x, num_parallel_calls=2).prefetch(1))) == 50
    assert settle(baseline) == baseline


def test_dropped_dataset_frees_its_memory():
    big = np.zeros((1000, 100), np.float32)
    ds = tf.data.Dataset.from_tensor_slices(big).map(lambda x: x * 2).prefetch(2)
    ref = weakref.ref(ds)
    for _ in ds.take(3):
        pass
    del ds
    gc.collect()
    assert ref() is None


def test_batch_of_different_shapes_names_the_transformation_and_line():
    ds = tf.data.Dataset.range(1, 4).map(lambda x: tf.range(x)).batch(2)  # this line is named
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        list(ds)
    message = str(info.value)
    assert "Cannot add tensor to the batch" in message and "BatchDataset" in message
    assert "test_data_threads_and_errors.py" in message and ".batch(2)" in message


def test_ignore_errors_skips_a_bad_batch():
    ds = tf.data.Dataset.range(1, 5).map(lambda x: tf.range(x) * 0 + 1).batch(1).unbatch().batch(2)
    ok = tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]]).concatenate(
        tf.data.Dataset.range(1, 3).map(lambda x: tf.cast(tf.range(x), tf.int32)).batch(2))
    assert [b.tolist() for b in ok.ignore_errors().as_numpy_iterator()] == [[1, 2], [3, 4]]
    assert len(list(ds.ignore_errors())) == 0


def test_generator_wrong_dtype_names_from_generator_and_line():
    def gen():
        yield 1
        yield "not a number"
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int32))
    it = iter(ds)
    assert int(next(it)) == 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="from_generator") as info:
        next(it)
    assert "expected type was int32" in str(info.value)
    assert "test_data_threads_and_errors.py" in str(info.value)


def test_generator_wrong_structure():
    spec = (tf.TensorSpec((), tf.int32), tf.TensorSpec((), tf.int32))
    ds = tf.data.Dataset.from_generator(lambda: iter([(1, 2, 3)]), output_signature=spec)
    with pytest.raises(tf.errors.InvalidArgumentError, match="did not match the expected structure"):
        list(ds)


def test_scan_state_of_another_dtype_is_refused():
    with pytest.raises(TypeError, match="scan"):
        tf.data.Dataset.range(3).scan(tf.constant(0, tf.int64), lambda s, x: (tf.cast(s, tf.float32), x))


def test_reduce_state_of_another_structure_is_refused():
    with pytest.raises(TypeError):
        tf.data.Dataset.range(3).reduce(tf.constant(0, tf.int64), lambda s, x: (s, x))


def test_map_returning_a_dataset_makes_dataset_elements():
    # TF 2.21 accepts it (element_spec a DatasetSpec); tinytf refused it until the docstring sweep showed so
    ds = tf.data.Dataset.range(3).map(lambda x: tf.data.Dataset.range(2))
    assert isinstance(ds.element_spec, tf.data.DatasetSpec)
    assert [[int(v) for v in d] for d in ds] == [[0, 1]] * 3
