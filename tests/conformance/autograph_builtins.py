"""AutoGraph's builtins in TF 2.21: `enumerate`, `zip` and `map` of symbolic tensors are Python's, so the
tensor is iterated in Python (OperatorNotAllowedInGraphError; tinytf staged them as graph loops, which TF
does not); over datasets they are tf.data's (enumerate, zip, map, filter, any, all, abs, len; tinytf raised
RuntimeError); `sorted(t)` is tf.sort (descending whenever `reverse` is given); `assert` on a tensor is
converted only under Feature.ASSERT_STATEMENTS (tinytf converted it always); a chained comparison on tensors
(`0 < x < 5`) is a lazy `and` of its comparisons without any feature (tinytf refused it)."""

from . import outcome, program, val

ITERATING = "Iterating over a symbolic `tf.Tensor` is not allowed"
AS_BOOL = "as a Python `bool` is not allowed"


def enumerate_tensor(tf, x):
    total = tf.constant(0.0)
    for i, v in enumerate(x):
        total += v * tf.cast(i, tf.float32)
    return total


def zip_tensors(tf, x, y):
    total = tf.constant(0.0)
    for a, b in zip(x, y):
        total += a * b
    return total


def zip_range_and_tensor(tf, x):
    total = tf.constant(0.0)
    for _i, a in zip(range(3), x):
        total += a
    return total


def enumerate_tf_range(tf, n):
    total = 0
    for _i, v in enumerate(tf.range(n)):
        total += v
    return total


@program
def p_python_iteration_of_symbolic_tensors(tf):
    x, y = tf.constant([1.0, 2.0, 3.0]), tf.constant([4.0, 5.0, 6.0])
    return [outcome(lambda: tf.function(lambda x: enumerate_tensor(tf, x))(x), ITERATING),
            outcome(lambda: tf.function(lambda x, y: zip_tensors(tf, x, y))(x, y), ITERATING),
            outcome(lambda: tf.function(lambda x: zip_range_and_tensor(tf, x))(x), ITERATING),
            outcome(lambda: tf.function(lambda n: enumerate_tf_range(tf, n))(tf.constant(4)), ITERATING),
            outcome(lambda: tf.function(lambda x: list(map(lambda v: v * 2, x)))(x), ITERATING),
            val(enumerate_tensor(tf, x)), val(zip_tensors(tf, x, y))]  # eagerly: Python's


def dataset_builtins(tf):
    ds = tf.data.Dataset.range(5)
    indexed = tf.constant(0, tf.int64)
    for i, v in enumerate(ds, 2):
        indexed += i * v
    zipped = tf.constant(0, tf.int64)
    for a, b in zip(ds, tf.data.Dataset.range(10, 13)):
        zipped += a * b
    mapped = tf.constant(0, tf.int64)
    for v in map(lambda a, b: a * b, ds, ds):
        mapped += v
    kept = tf.constant(0, tf.int64)
    for v in filter(lambda v: v % 2 == 1, ds):
        kept += v
    flags = tf.data.Dataset.from_tensor_slices([False, True])
    magnitude = tf.constant(0)
    for v in abs(tf.data.Dataset.from_tensor_slices([-1, 2, -3])):
        magnitude += v
    return [indexed, zipped, mapped, kept, any(flags), all(flags), magnitude, len(ds)]


def unknown_length(tf):
    return len(tf.data.Dataset.range(5).filter(lambda v: v > 1))


def strict_zip(tf):
    return zip(tf.data.Dataset.range(2), tf.data.Dataset.range(2), strict=True)


def any_of_ints(tf):
    return any(tf.data.Dataset.range(2))


@program
def p_builtins_over_datasets(tf):
    return [val(tf.function(dataset_builtins)(tf)),
            outcome(lambda: tf.function(unknown_length)(tf), "len requires dataset with definitive cardinality"),
            outcome(lambda: tf.function(strict_zip)(tf), "strict zip not supported by Dataset"),
            outcome(lambda: tf.function(any_of_ints)(tf), "only supports datasets")]


def sort_plain(x):
    return sorted(x)


def sort_by_key(x):
    return sorted(x, key=lambda v: -v * v)


def sort_reverse_false(x):
    return sorted(x, reverse=False)


def sort_reverse_true(x):
    return sorted(x, reverse=True)


@program
def p_sorted_of_a_tensor(tf):
    x = tf.constant([3.0, -1.0, 2.0, 0.5])
    return [val(tf.function(f)(x)) for f in (sort_plain, sort_by_key, sort_reverse_false, sort_reverse_true)] + [
        outcome(lambda: tf.function(sort_plain)(tf.constant([[1.0, 2.0]])), "only 1D tensors")]


def asserts_positive(x):
    assert x > 0, "x must be positive"
    return x * 2


@program
def p_assert_statements(tf):
    checked = tf.function(asserts_positive,
                          experimental_autograph_options=tf.autograph.experimental.Feature.ASSERT_STATEMENTS)
    return [outcome(lambda: tf.function(asserts_positive)(tf.constant(3)), AS_BOOL),
            val(tf.function(asserts_positive)(3)), val(checked(tf.constant(3))),
            outcome(lambda: checked(tf.constant(-3)), "x must be positive")]


def in_range(x):
    if 0 < x < 5:
        return 1
    return 0


def chain_value(x, y, z):
    return x < y <= z


def chain_equal(x, y, z):
    return x == y == z


@program
def p_chained_comparisons_on_tensors(tf):
    triples = [(1, 2, 3), (3, 2, 1), (1, 3, 2), (1, 1, 1), (2, 2, 2)]
    return [[val(tf.function(in_range)(tf.constant(v))) for v in (3, 7, -1, 0, 5)],
            [val(tf.function(chain_value)(*[tf.constant(a) for a in t])) for t in triples],
            [val(tf.function(chain_equal)(*[tf.constant(a) for a in t])) for t in triples]]


@program
def p_len_of_a_tensor_array(tf):
    def length(n):
        ta = tf.TensorArray(tf.float32, size=n)
        return len(ta)

    def written(n):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, i)
        return len(ta)

    return [val(tf.function(length)(tf.constant(3))), val(tf.function(written)(tf.constant(4)))]
