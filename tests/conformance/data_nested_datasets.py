"""Datasets whose elements are datasets, as TF 2.21 builds them: `map` returning a `tf.data.Dataset` (alone or
in a tuple; TF's element_spec is a DatasetSpec), `window` elements transformed by `map`, read back through
`flat_map`, `interleave`, `reduce` and nested `for` loops, eagerly and inside a tf.function. tinytf refused a
map returning a dataset (TypeError) and `window(...).map(...)` (AttributeError)."""

from . import program


def ints(values):
    return [int(v) for v in values]


@program
def p_map_returning_a_dataset(tf):
    ds = tf.data.Dataset.range(4).map(lambda x: tf.data.Dataset.range(x))
    return [repr(ds.element_spec), int(ds.cardinality()), [ints(d) for d in ds],
            ints(ds.flat_map(lambda d: d)), ints(ds.interleave(lambda d: d, cycle_length=2)),
            ints(ds.map(lambda d: d.reduce(tf.constant(0, tf.int64), lambda a, b: a + b)))]


@program
def p_map_returning_a_tuple_with_a_dataset(tf):
    ds = tf.data.Dataset.range(3).map(lambda x: (x * 10, tf.data.Dataset.from_tensors(x).repeat(2)))
    y = tf.constant(5, tf.int64)
    captured = tf.data.Dataset.range(3).map(lambda x: tf.data.Dataset.range(x, y)).flat_map(lambda d: d)
    return [repr(ds.element_spec), [[int(a), ints(d)] for a, d in ds], ints(captured)]


@program
def p_window_elements_mapped(tf):
    w = tf.data.Dataset.range(7).window(3).map(lambda d: d.batch(3))
    pairs = tf.data.Dataset.range(6).window(2, shift=1, drop_remainder=True).map(
        lambda d: d.map(lambda v: v * v)).flat_map(lambda d: d.batch(2))
    return [repr(w.element_spec), [v.tolist() for v in w.flat_map(lambda d: d).as_numpy_iterator()],
            [v.tolist() for v in pairs.as_numpy_iterator()]]


@program
def p_nested_datasets_in_a_function(tf):
    @tf.function
    def loops():
        total = tf.constant(0, tf.int64)
        for d in tf.data.Dataset.range(4).map(lambda x: tf.data.Dataset.range(x)):
            for v in d:
                total += v
        return total

    @tf.function
    def reduced():
        ds = tf.data.Dataset.range(5).map(lambda x: tf.data.Dataset.range(x + 1))
        return ds.flat_map(lambda d: d).reduce(tf.constant(0, tf.int64), lambda a, b: a + b)

    return [int(loops()), int(reduced())]
