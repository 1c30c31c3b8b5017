"""tf.data transformations given graph tensors where TF takes them, inside tf.function (passes on and off) and
eagerly, against plain Python: group_by_window's reduce_func reading the enclosing function's tensors and a
window_size argument, interleave's cycle_length / block_length arguments, from_generator's args, and
cardinality() of datasets built from a function's arguments (computed when the graph runs, as TF does)."""

import pytest

import tinytf as tf


def python_group_by_window(values, key, size):
    """TF's group_by_window in Python: windows in completion order, then the rest by key."""
    groups, out = {}, []
    for v in values:
        group = groups.setdefault(key(v), [])
        group.append(v)
        if len(group) == size:
            out.append((key(v), groups.pop(key(v))))
    return out + sorted(groups.items())


@pytest.mark.parametrize("scale,size", [(2, 5), (-1, 3), (3, 4)])
def test_group_by_window_reduce_func_reads_graph_tensors(scale, size, passes):
    @tf.function
    def f(scale, size):
        ds = tf.data.Dataset.range(11).group_by_window(
            key_func=lambda x: x % 3, reduce_func=lambda key, w: w.batch(size).map(lambda b: b * scale + key),
            window_size=size)
        out = tf.TensorArray(tf.int64, size=0, dynamic_size=True, infer_shape=False)
        i = 0
        for b in ds:
            out = out.write(i, tf.reduce_sum(b) * 100 + tf.size(b, out_type=tf.int64))
            i += 1
        return out.stack()
    expected = [sum(v * scale + k for v in w) * 100 + len(w)
                for k, w in python_group_by_window(range(11), lambda v: v % 3, size)]
    assert f(tf.constant(scale, tf.int64), tf.constant(size, tf.int64)).numpy().tolist() == expected


def test_group_by_window_with_python_reduce_still_runs_per_window():
    """A reduce_func graphs cannot run (Python on the key's value) falls back to a call per window."""
    @tf.function
    def f():
        ds = tf.data.Dataset.range(6).group_by_window(
            key_func=lambda x: x % 2, reduce_func=lambda key, w: w.take(int(key.numpy()) + 1), window_size=3)
        return ds.reduce(tf.constant(0, tf.int64), lambda s, x: s * 10 + x)
    assert int(f()) == 13  # key 0: [0, 2, 4].take(1) -> 0; key 1: [1, 3, 5].take(2) -> 1, 3


@pytest.mark.parametrize("cycle,block", [(1, 1), (2, 2), (3, 1), (4, 3)])
def test_interleave_cycle_and_block_length_arguments(cycle, block, passes):
    @tf.function
    def f(cycle, block):
        ds = tf.data.Dataset.range(1, 6).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(x),
                                                    cycle_length=cycle, block_length=block)
        out = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
        i = 0
        for x in ds:
            out = out.write(i, x)
            i += 1
        return out.stack()
    eager = [int(x) for x in tf.data.Dataset.range(1, 6).interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(x), cycle_length=cycle, block_length=block)]
    assert f(tf.constant(cycle, tf.int64), tf.constant(block, tf.int64)).numpy().tolist() == eager
    assert sorted(eager) == [x for x in range(1, 6) for _ in range(x)]
    if cycle == 1:
        assert eager == sorted(eager)


def test_interleave_cycle_length_zero_raises_when_the_graph_runs():
    @tf.function
    def f(cycle):
        return tf.data.Dataset.range(3).interleave(lambda x: tf.data.Dataset.from_tensors(x),
                                                   cycle_length=cycle).reduce(tf.constant(0, tf.int64),
                                                                              lambda s, x: s + x)
    assert int(f(tf.constant(2, tf.int64))) == 3
    with pytest.raises(tf.errors.InvalidArgumentError, match="cycle_length and block_length of interleave"):
        f(tf.constant(0, tf.int64))


def _counting(n, k):
    for i in range(int(n)):
        yield i * int(k)


def _labelled(prefix, count):
    assert isinstance(prefix, bytes)  # as TF: a string scalar argument arrives as bytes
    for i in range(int(count)):
        yield prefix + str(i).encode()


@pytest.mark.parametrize("n,k", [(0, 3), (4, 2), (3, -1)])
def test_from_generator_args_that_are_graph_tensors(n, k, passes):
    @tf.function
    def numbers(n, k):
        ds = tf.data.Dataset.from_generator(_counting, args=(n, k), output_signature=tf.TensorSpec((), tf.int64))
        return ds.reduce(tf.constant(0, tf.int64), lambda s, x: s * 10 + x)
    expected = 0
    for i in range(n):
        expected = expected * 10 + i * k
    assert int(numbers(tf.constant(n, tf.int64), tf.constant(k, tf.int64))) == expected

    @tf.function
    def texts(p, count):
        ds = tf.data.Dataset.from_generator(_labelled, args=[p, count], output_signature=tf.TensorSpec((), tf.string))
        return ds.reduce(tf.constant(""), lambda s, x: s + x)
    assert texts(tf.constant("ab"), tf.constant(n)).numpy() == b"".join(b"ab%d" % i for i in range(n))


@pytest.mark.parametrize("size,count", [(5, 4), (2, 7), (0, 1)])
def test_cardinality_of_datasets_of_graph_tensors(size, count, passes):
    @tf.function
    def card(x, n):
        a = tf.data.Dataset.from_tensor_slices(x)
        return tf.stack([a.cardinality(), a.batch(2).cardinality(), a.take(n).cardinality(),
                         tf.data.Dataset.range(n).cardinality(), a.repeat().cardinality(),
                         a.filter(lambda v: v > 0).cardinality(), a.skip(n).cardinality(),
                         tf.data.Dataset.range(n).batch(3, drop_remainder=True).cardinality()])
    expected = [size, -(-size // 2), min(size, count), count, -1 if size else 0, -2, max(size - count, 0), count // 3]
    got = card(tf.constant([1.0] * size), tf.constant(count, tf.int64)).numpy().tolist()
    eager = tf.data.Dataset.from_tensor_slices(tf.constant([1.0] * size))
    assert got == expected
    assert [int(eager.cardinality()), int(eager.batch(2).cardinality())] == expected[:2]


def test_cardinality_of_a_dataset_argument():
    @tf.function
    def of_argument(ds):
        return ds.cardinality()
    assert int(of_argument(tf.data.Dataset.range(6).batch(4))) == 2
    assert int(of_argument(tf.data.Dataset.range(3).repeat())) == tf.data.INFINITE_CARDINALITY
