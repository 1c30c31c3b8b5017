"""Dataset.shuffle gives TensorFlow's order for a given seed: the shuffle buffer's Philox draws, the seed
generator that reseeds each iteration (epochs, repeat), reshuffle_each_iteration=False, buffers smaller
and larger than the input, global-seed-only and op-seed-only seeding, and shuffled batches."""

from __future__ import annotations

from . import program


def _orders(ds, iterations=2):
    return [[int(v) for v in ds.as_numpy_iterator()] for _ in range(iterations)]


@program
def p_shuffle_order_with_global_and_op_seeds(tf):
    tf.random.set_seed(1)
    return [_orders(tf.data.Dataset.range(10).shuffle(10, seed=3)),
            _orders(tf.data.Dataset.range(12).shuffle(4, seed=3)),
            _orders(tf.data.Dataset.range(7).shuffle(100, seed=3)),
            _orders(tf.data.Dataset.range(8).shuffle(8, seed=5, reshuffle_each_iteration=False)),
            _orders(tf.data.Dataset.range(5).shuffle(5, seed=3).repeat(3), 1),
            _orders(tf.data.Dataset.range(10).shuffle(10, seed=3).batch(4).map(tf.reduce_sum), 1)]


@program
def p_shuffle_order_with_one_seed(tf):
    tf.random.set_seed(None)
    op_seed_only = _orders(tf.data.Dataset.range(10).shuffle(10, seed=7))
    tf.random.set_seed(1234)
    first = _orders(tf.data.Dataset.range(10).shuffle(10))
    second = _orders(tf.data.Dataset.range(10).shuffle(10))
    return [op_seed_only, first, second]


@program
def p_shuffle_order_of_tensor_slices_in_batches(tf):
    tf.random.set_seed(5)
    ds = tf.data.Dataset.from_tensor_slices(({"a": tf.range(20)}, tf.range(20) * 2)).shuffle(20, seed=1).batch(6)
    return [[(batch[0]["a"].numpy().tolist(), batch[1].numpy().tolist()) for batch in ds] for _ in range(2)]
