"""A DistributedIterator read inside a tf.function reads its batches when the function runs: get_next,
get_next_as_optional and next() are graph reads of the dataset's iterator (TF's "distributed iterator as a
tf.function argument" pattern, from TF's distributed input tutorial). Before, the batch read while tracing was
baked into the graph as a constant: five loop steps summed the first batch five times."""

import numpy as np
import pytest

import tinytf as tf


def strategies():
    return [tf.distribute.MirroredStrategy(), tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]),
            tf.distribute.OneDeviceStrategy("/cpu:0")]


def local_sum(strategy, value):
    return sum(int(tf.reduce_sum(t)) for t in strategy.experimental_local_results(value))


@pytest.mark.parametrize("which", range(3))
def test_optional_loop_with_break_reads_every_batch(which):
    strategy = strategies()[which]

    @tf.function
    def total_of(iterator):
        total = tf.constant(0, tf.int64)
        for _ in tf.range(5):
            optional = iterator.get_next_as_optional()
            if not optional.has_value():
                break
            per_replica = strategy.run(lambda x: x, args=(optional.get_value(),))
            total += tf.add_n([tf.reduce_sum(t) for t in strategy.experimental_local_results(per_replica)])
        return total

    dataset = tf.data.Dataset.range(9).batch(4)  # batches sum to 6, 22 and 8
    assert int(total_of(iter(strategy.experimental_distribute_dataset(dataset)))) == 36


@pytest.mark.parametrize("which", range(3))
def test_get_next_in_a_function_and_next_outside_share_one_position(which):
    strategy = strategies()[which]
    iterator = iter(strategy.experimental_distribute_dataset(tf.data.Dataset.range(16).batch(4)))

    @tf.function
    def step(it):
        return strategy.run(lambda x: 2 * x, args=(it.get_next(),))

    sums = [local_sum(strategy, step(iterator)), local_sum(strategy, next(iterator)),
            local_sum(strategy, step(iterator)), local_sum(strategy, iterator.get_next())]
    assert sums == [2 * 6, 22, 2 * 38, 54]
    with pytest.raises(tf.errors.OutOfRangeError):
        iterator.get_next()
    with pytest.raises(tf.errors.OutOfRangeError):
        step(iterator)


def test_two_replicas_split_each_batch_in_the_graph():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    iterator = iter(strategy.experimental_distribute_dataset(tf.data.Dataset.range(10).batch(5)))

    @tf.function
    def parts(it):
        return it.get_next()

    first = [t.numpy().tolist() for t in strategy.experimental_local_results(parts(iterator))]
    eager = [t.numpy().tolist() for t in strategy.experimental_local_results(next(iterator))]
    assert first == [[0, 1, 2], [3, 4]] and eager == [[5, 6, 7], [8, 9]]  # B = 5 over 2: 3 + 2, as TF
    np.testing.assert_array_equal(
        tf.function(lambda it: it.get_next_as_optional().has_value())(iterator).numpy(), False)
