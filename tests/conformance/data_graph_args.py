"""tf.data inside tf.function with graph tensors where TF takes them: group_by_window whose reduce_func reads the
enclosing function's tensors (and a window_size argument), interleave with cycle_length / block_length arguments,
from_generator with args that are tensors (numbers and strings), and cardinality() of datasets built from a
function's arguments, which TF computes when the graph runs."""

from __future__ import annotations

from . import outcome, program, val


@program
def p_group_by_window_reduce_reads_argument(tf):
    @tf.function
    def f(scale):
        ds = tf.data.Dataset.range(10).group_by_window(
            key_func=lambda x: x % 2, reduce_func=lambda key, w: w.batch(5).map(lambda b: b * scale + key),
            window_size=5)
        return ds.reduce(tf.constant(0, tf.int64), lambda s, b: s * 3 + tf.reduce_sum(b))
    return [val(f(tf.constant(2, tf.int64))), val(f(tf.constant(-1, tf.int64)))]


@program
def p_group_by_window_size_argument(tf):
    @tf.function
    def f(size):
        ds = tf.data.Dataset.range(10).group_by_window(
            key_func=lambda x: x % 3, reduce_func=lambda key, w: w.batch(size), window_size=size)
        out = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
        i = 0
        for b in ds:
            out = out.write(i, tf.reduce_sum(b) * 100 + tf.size(b, out_type=tf.int64))
            i += 1
        return out.stack()
    return [val(f(tf.constant(2, tf.int64))), val(f(tf.constant(3, tf.int64)))]


@program
def p_interleave_cycle_and_block_arguments(tf):
    @tf.function
    def f(cycle, block):
        ds = tf.data.Dataset.range(1, 5).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(x),
                                                    cycle_length=cycle, block_length=block)
        return ds.reduce(tf.constant(0, tf.int64), lambda s, x: s * 5 + x)
    return [val(f(tf.constant(2, tf.int64), tf.constant(2, tf.int64))),
            val(f(tf.constant(3, tf.int64), tf.constant(1, tf.int64))),
            val(f(tf.constant(1, tf.int64), tf.constant(4, tf.int64))),
            outcome(lambda: f(tf.constant(0, tf.int64), tf.constant(1, tf.int64)), "").get("error")]


def _counting(n, k):
    for i in range(int(n)):
        yield i * int(k)


def _labelled(prefix, count):
    for i in range(int(count)):
        yield prefix + str(i).encode()


@program
def p_from_generator_tensor_args(tf):
    @tf.function
    def numbers(n, k):
        ds = tf.data.Dataset.from_generator(_counting, args=(n, k), output_signature=tf.TensorSpec((), tf.int64))
        return ds.reduce(tf.constant(0, tf.int64), lambda s, x: s * 10 + x)

    @tf.function
    def texts(p, count):
        ds = tf.data.Dataset.from_generator(_labelled, args=[p, count], output_signature=tf.TensorSpec((), tf.string))
        return ds.reduce(tf.constant(""), lambda s, x: s + x)

    eager = tf.data.Dataset.from_generator(_counting, args=(tf.constant(3), 2),
                                           output_signature=tf.TensorSpec((), tf.int64))
    return [val(numbers(tf.constant(4, tf.int64), tf.constant(2, tf.int64))),
            val(numbers(tf.constant(3, tf.int64), tf.constant(1, tf.int64))),
            texts(tf.constant("ab"), tf.constant(3)).numpy().decode(),
            texts(tf.constant("z"), tf.constant(2)).numpy().decode(), [int(x) for x in eager]]


@program
def p_cardinality_of_graph_tensor_datasets(tf):
    @tf.function
    def card(x, n):
        a = tf.data.Dataset.from_tensor_slices(x)
        return tf.stack([a.cardinality(), a.batch(2).cardinality(), a.take(n).cardinality(),
                         tf.data.Dataset.range(n).cardinality(), a.repeat().cardinality(),
                         a.filter(lambda v: v > 0).cardinality(), a.skip(n).cardinality(),
                         tf.data.Dataset.range(n).batch(3, drop_remainder=True).cardinality(),
                         tf.data.Dataset.range(n).repeat(2).cardinality(),
                         tf.data.experimental.cardinality(a.shuffle(3))])

    @tf.function
    def of_argument(ds):
        return ds.cardinality()
    return [val(card(tf.constant([1., 2., 3., 4., 5.]), tf.constant(4, tf.int64))),
            val(card(tf.constant([1., 2.]), tf.constant(7, tf.int64))),
            val(of_argument(tf.data.Dataset.range(6).batch(4))), val(of_argument(tf.data.Dataset.range(3).repeat()))]
