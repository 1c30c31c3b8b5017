"""A from_generator generator is the user's Python: pulled by the graph's iterator ops (whose graph code runs
under tinytf's quiet numpy error state) it runs under numpy's default state, as eagerly under the caller's, so
the user's numpy code warns (and raises under np.errstate) as it would outside tinytf."""

import numpy as np
import pytest

import tinytf as tf


def _dividing_generator():
    for x in (1.0, 0.0, 2.0):
        yield np.float32(1.0) / np.float32(x)  # 1 / 0 warns "divide by zero" under numpy's default state


def _dataset():
    return tf.data.Dataset.from_generator(_dividing_generator,
                                          output_signature=tf.TensorSpec((), tf.float32))


def _loop_sum(ds):
    total = tf.constant(0.0)
    for x in ds:
        total += tf.minimum(x, 10.0)
    return total


def _next_twice(ds):
    it = iter(ds)
    return next(it), next(it)


def _optional(ds):
    it = iter(ds)
    next(it)
    return it.get_next_as_optional().get_value()


def _reduce(ds):
    return ds.reduce(tf.constant(0.0), lambda s, x: s + tf.minimum(x, 10.0))


@pytest.mark.parametrize("how", [_loop_sum, _next_twice, _optional, _reduce], ids=lambda f: f.__name__)
@pytest.mark.parametrize("graph", [False, True])
def test_generator_runs_under_the_users_numpy_state(how, graph):
    run = tf.function(how) if graph else how
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        run(_dataset())


def test_generator_in_a_graph_loop_gives_the_values_and_warns_once():
    with pytest.warns(RuntimeWarning, match="divide by zero") as caught:
        out = tf.function(_loop_sum)(_dataset())
    assert out.numpy() == np.float32(1.0 + 10.0 + 0.5)
    assert len([w for w in caught if issubclass(w.category, RuntimeWarning)]) == 1


def test_tinytf_ops_in_the_same_graph_stay_quiet(recwarn):
    """The graph's own division by zero (TF's silent inf) still does not warn: only the generator's pull runs
    under the user's state."""
    def gen():
        yield np.float32(0.0)

    @tf.function
    def f():
        ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.float32))
        ds = ds.map(lambda x: (1.0 / x, tf.math.log(x)))  # the map's traced function is tinytf's code
        total = tf.constant(0.0)
        for x, y in ds:
            total += 1.0 / x - y
        return total

    assert f().numpy() == np.inf
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_the_callers_errstate_is_kept_eagerly():
    with np.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):
            list(_dataset())


@pytest.mark.parametrize("parallel", [None, 2])
def test_map_functions_compute_quietly_eagerly(recwarn, parallel):
    """A map's traced function is tinytf's graph code: 1 / 0 is TF's silent inf, eagerly too."""
    ds = tf.data.Dataset.from_tensor_slices([0.0, 1.0]).map(lambda x: (1.0 / x, tf.math.log(x)),
                                                            num_parallel_calls=parallel)
    assert [a for a, _ in ds.as_numpy_iterator()] == [np.inf, 1.0]
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
