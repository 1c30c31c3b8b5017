"""AutoGraph's builtins as TensorFlow 2.21 has them. `len(t)` / `range(len(t))` follow TensorFlow (a Python
int for a known first dimension, tf.shape(t)[0] otherwise). `enumerate`, `zip` and `map` of symbolic tensors
stay Python's, so iterating the tensor is OperatorNotAllowedInGraphError as in TensorFlow (the same functions
run as plain Python on numpy and eagerly on tensors); over datasets they are tf.data's (enumerate, zip, map,
filter, any, all, abs, len), and `sorted(t)` is tf.sort."""

import numpy as np
import pytest
from agcheck import assert_close, count_nodes

import tinytf as tf
import tinytf.autograph  # noqa: F401  (tf.autograph)

F32 = np.float32
I32 = np.int32


def _rows(n, width=3, offset=0.0):
    return (np.arange(n * width, dtype=F32).reshape(n, width) + F32(offset)) % F32(7)


# --- the cases: plain Python functions, TF-valid (no mixed dtypes) ---------------------------------------
def enumerate_rows(x):
    total = tf.reduce_sum(x[:0], axis=0)
    index_sum = 0
    for i, row in enumerate(x):
        total = total + row
        index_sum += i * i
    return total, index_sum


def enumerate_with_start(x):
    last = -1
    count = 0
    for i, _row in enumerate(x, start=3):
        last = i
        count += 1
    return last, count


def zip_pairs(a, b):
    total = tf.reduce_sum(a[:0], axis=0)
    count = 0
    for ra, rb in zip(a, b):
        total = total + ra * rb
        count += 1
    return total, count


def enumerate_zip(a, b):
    total = tf.reduce_sum(a[:0], axis=0)
    weights = 0
    for i, (ra, rb) in enumerate(zip(a, b)):
        total = total + (ra - rb)
        weights += i + 1
    return total, weights


def zip_enumerate_and_tensor(a, b):
    total = tf.reduce_sum(a[:0], axis=0)
    indices = 0
    for (i, ra), rb in zip(enumerate(a, 1), b):
        total = total + ra * rb
        indices = indices * 2 + i
    return total, indices


def zip_tf_range_and_tensor(x):
    total = tf.reduce_sum(x[:0], axis=0)
    ks = tf.constant(0)
    for k, row in zip(tf.range(10, 0, -3), x):
        total = total + row
        ks = ks * 10 + k
    return total, ks


def zip_python_range_and_tensor(x):
    ks = 0
    for k, _row in zip(range(2, 20, 5), x):
        ks = ks * 10 + k
    return ks


def zip_with_number_list(x):
    total = tf.reduce_sum(x[:0], axis=0)
    for w, row in zip([0.5, 2.0, -1.0], x):
        total = total + row * w
    return total


def break_in_enumerate(x):
    found = -1
    for i, row in enumerate(x):
        if tf.reduce_sum(row) > 10:
            found = i
            break
    return found


def continue_in_zip(a, b):
    total = tf.reduce_sum(a[:0], axis=0)
    kept = 0
    for ra, rb in zip(a, b):
        if tf.reduce_sum(ra) < tf.reduce_sum(rb):
            continue
        total = total + ra
        kept += 1
    return total, kept


def nested_enumerate(a, b):
    total = 0
    for i, _ra in enumerate(a):
        for j, _rb in enumerate(b):
            if j > i:
                break
            total += i * 10 + j
    return total


def range_len(x):
    total = 0
    for i in range(len(x)):
        total += i * 2
    return total


def enumerate_1d(v):
    total = 0
    for i, value in enumerate(v):
        total = total + value * (i + 1)
    return total


# (function, argument sets, first dimension of each argument as a known-or-None spec)
CASES = [
    (enumerate_rows, [(_rows(4),), (_rows(1),), (_rows(0),)]),
    (enumerate_with_start, [(_rows(5),), (_rows(0),)]),
    (zip_pairs, [(_rows(4), _rows(2, offset=1)), (_rows(2), _rows(5, offset=2)), (_rows(0), _rows(3))]),
    (enumerate_zip, [(_rows(3), _rows(6, offset=1)), (_rows(5), _rows(5, offset=3))]),
    (zip_enumerate_and_tensor, [(_rows(4), _rows(3, offset=2)), (_rows(1), _rows(6))]),
    (zip_tf_range_and_tensor, [(_rows(2),), (_rows(6),), (_rows(0),)]),
    (zip_python_range_and_tensor, [(_rows(2),), (_rows(7),)]),
    (zip_with_number_list, [(_rows(2),), (_rows(5),)]),
    (break_in_enumerate, [(_rows(6),), (_rows(1),), (_rows(0),)]),
    (continue_in_zip, [(_rows(5), _rows(4, offset=3)), (_rows(3), _rows(3))]),
    (nested_enumerate, [(_rows(3), _rows(4)), (_rows(0), _rows(2)), (_rows(4), _rows(1))]),
    (range_len, [(_rows(5),), (_rows(0),)]),
    (enumerate_1d, [(np.array([3, 1, 4, 1, 5], I32),), (np.array([], I32),)]),
]


STAGED_BEFORE = [case for case in CASES if case[0] is not range_len]  # tinytf staged these; TF refuses them


@pytest.mark.parametrize("fn, arg_sets", STAGED_BEFORE, ids=[c[0].__name__ for c in STAGED_BEFORE])
def test_python_iteration_of_symbolic_tensors_is_refused_as_in_tensorflow(fn, arg_sets):
    for args in arg_sets:
        python = fn(*args)
        eager = fn(*[tf.constant(a) for a in args])  # eager tensors iterate in Python
        assert_close(eager, python, f"{fn.__name__} eager")
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="Iterating over a symbolic `tf.Tensor`"):
        tf.function(fn)(*[tf.constant(a) for a in arg_sets[0]])


def test_range_len_three_ways():
    for args in [(_rows(5),), (_rows(0),)]:
        python = range_len(*args)
        assert_close(range_len(*[tf.constant(a) for a in args]), python, "eager")
        assert_close(tf.function(range_len)(*[tf.constant(a) for a in args]), python, "graph")


def test_len_is_a_tensor_only_when_the_first_dimension_is_unknown():
    seen = []

    @tf.function
    def f(x):
        n = len(x)
        seen.append(n)
        return n

    assert f(tf.constant(_rows(4))) == 4  # a Python int, returned as it is
    assert seen[-1] == 4 and type(seen[-1]) is int
    unknown = f.get_concrete_function(tf.TensorSpec([None, 3]))
    assert seen[-1].dtype == tf.int32 and seen[-1].shape == ()
    assert unknown(tf.constant(_rows(6))).numpy() == 6
    assert len(tf.constant(_rows(2))) == 2 and len(_rows(3)) == 3  # eager and numpy: Python's len


def test_len_of_a_scalar_tensor_is_an_error():
    @tf.function
    def f(x):
        return len(x)

    with pytest.raises(TypeError, match="len\\(\\) is not defined for the tensor"):
        f(tf.constant(1.0))


def test_range_len_of_an_unknown_length_is_one_while_loop_and_of_a_known_one_unrolls():
    f = tf.function(range_len)
    unknown = f.get_concrete_function(tf.TensorSpec([None, 3]))
    assert count_nodes(unknown.graph, "while_loop") == 1
    assert unknown(tf.constant(_rows(5))).numpy() == 20
    known = tf.function(range_len).get_concrete_function(tf.constant(_rows(5)))
    assert count_nodes(known.graph, "while_loop") == 0


def test_python_values_and_eager_tensors_keep_python_semantics():
    seen = []

    @tf.function
    def f(x):
        total = x
        for i, w in enumerate([1.0, 2.0, 3.0]):
            seen.append(type(i))
            total = total + w
        pairs = dict(zip(["a", "b"], [x, x * 2]))
        return total + pairs["b"]

    concrete = f.get_concrete_function(tf.constant(1.0))
    assert count_nodes(concrete.graph, "while_loop") == 0 and seen == [int, int, int]
    assert concrete(tf.constant(1.0)).numpy() == 9.0
    # eagerly (converted or not), enumerate/zip of eager tensors are Python's
    converted = tf.autograph.to_graph(enumerate_rows)
    total, index_sum = converted(tf.constant(_rows(3)))
    assert index_sum == 5 and type(index_sum) is int


def test_zip_of_symbolic_tensors_outside_a_for_iterates_in_python():
    @tf.function
    def f(a, b):
        return [x + y for x, y in zip(a, b)]

    with pytest.raises(tf.OperatorNotAllowedInGraphError):
        f.get_concrete_function(tf.TensorSpec([None]), tf.TensorSpec([None]))


def test_to_code_shows_the_builtins_calls():
    code = tf.autograph.to_code(enumerate_zip)
    assert "ag__.converted_call(enumerate, (ag__.converted_call(zip, (a, b), None),), None)" in code


def test_builtins_over_datasets_are_tf_data_transformations():
    @tf.function
    def f():
        ds = tf.data.Dataset.range(5)
        indexed = tf.constant(0, tf.int64)
        for i, v in enumerate(ds, 1):
            indexed += i * v
        zipped = tf.constant(0, tf.int64)
        for a, b in zip(ds, tf.data.Dataset.range(10, 13)):
            zipped += a * b
        mapped = tf.constant(0, tf.int64)
        for v in map(lambda a, b: a + b, ds, ds):
            mapped += v
        kept = tf.constant(0, tf.int64)
        for v in filter(lambda v: v % 2 == 0, ds):
            kept += v
        flags = tf.data.Dataset.from_tensor_slices([False, True])
        magnitude = tf.constant(0)
        for v in abs(tf.data.Dataset.from_tensor_slices([-1, 2, -3])):
            magnitude += v
        return indexed, zipped, mapped, kept, any(flags), all(flags), magnitude, len(ds)

    python = (sum(i * v for i, v in enumerate(range(5), 1)), sum(a * b for a, b in zip(range(5), range(10, 13))),
              sum(a + a for a in range(5)), sum(v for v in range(5) if v % 2 == 0), True, False, 6, 5)
    assert [x.numpy().item() for x in f()] == list(python)


def test_len_of_a_dataset_of_unknown_length_fails_when_the_graph_runs():
    @tf.function
    def f():
        return len(tf.data.Dataset.range(5).filter(lambda v: v > 1))

    with pytest.raises(tf.errors.InvalidArgumentError, match="len requires dataset with definitive cardinality"):
        f()


def test_strict_zip_of_datasets_and_any_of_non_bool_datasets_are_refused_as_in_tensorflow():
    with pytest.raises(ValueError, match="strict zip not supported by Dataset"):
        tf.function(lambda: zip(tf.data.Dataset.range(2), tf.data.Dataset.range(2), strict=True))()
    with pytest.raises(ValueError, match='the "any" builtin only supports datasets that return bool scalars'):
        tf.function(lambda: any(tf.data.Dataset.range(2)))()


def test_sorted_of_a_tensor_is_tf_sort():
    x = tf.constant([3.0, -1.0, 2.0])

    def plain(x):
        return sorted(x)

    def by_key(x):
        return sorted(x, key=lambda v: -v * v)

    def reverse_false(x):
        return sorted(x, reverse=False)  # TF's override: any `reverse` given sorts DESCENDING

    np.testing.assert_array_equal(tf.function(plain)(x).numpy(), [-1.0, 2.0, 3.0])
    np.testing.assert_array_equal(tf.function(by_key)(x).numpy(), [3.0, 2.0, -1.0])
    np.testing.assert_array_equal(tf.function(reverse_false)(x).numpy(), [3.0, 2.0, -1.0])
    with pytest.raises(ValueError, match="sort only supports only 1D tensors"):
        tf.function(plain)(tf.constant([[1.0, 2.0]]))
    assert sorted([3, 1]) == [1, 3] and tf.function(lambda: sorted([3, 1], reverse=True))() == [3, 1]
