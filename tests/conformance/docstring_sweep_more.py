"""More `>>>` examples of TF 2.21's API docstrings where tinytf answered differently (the sweep of
tools/docstring_sweep.py, second pass): tf.transpose's conjugate flag (tinytf ignored it: a wrong answer for
complex tensors), tf.math.sign of complex numbers, and tf.nest.assert_same_structure's order of checks and its
`check_types=False` (a container is only its values)."""

import collections

import numpy as np

from . import outcome, program

NT = collections.namedtuple("bar", "a b")


def val(x):
    """dtype, shape and values, complex values as [real, imag] pairs (JSON has no complex numbers)."""
    if isinstance(x, (list, tuple)):
        return [val(t) for t in x]
    value = np.asarray(x.numpy())
    return [x.dtype.name, list(x.shape), np.stack([value.real, value.imag], -1).tolist()]


@program
def p_conjugate_transposes(tf):
    x = tf.constant([[1 + 1j, 2 + 2j, 3 + 3j], [4 + 4j, 5 + 5j, 6 + 6j]])

    def all_of(x):
        return [tf.transpose(x, conjugate=True), tf.transpose(x, perm=[1, 0], conjugate=False),
                tf.linalg.matrix_transpose(x, conjugate=True), tf.linalg.adjoint(x),
                tf.transpose(tf.constant([[1.0, 2.0]]), conjugate=True)]

    graph = tf.function(all_of)
    return [val(all_of(x)), val(graph(x)), val(graph(tf.cast(x, tf.complex64)))]


@program
def p_sign_of_complex_numbers(tf):
    z = tf.constant([1 + 1j, 0 + 0j, -3 + 4j, -2 + 0j])
    return [val(tf.math.sign([1 + 1j, 0 + 0j])), val(tf.math.sign(z)), val(tf.math.sign(tf.cast(z, tf.complex64))),
            val(tf.function(tf.math.sign)(z)), val(tf.math.sign(tf.constant([-2.0, 0.0, 3.0]))),
            val(tf.math.sign(tf.constant([-2, 0, 3])))]


@program
def p_nest_assert_same_structure_order_of_checks(tf):
    cases = [
        (NT(1, 2), {"a": 1, "b": 2}), ([1, 2], {"a": 1, "b": 2}), ({"a": 1, "b": 2}, {"a": 1, "c": 2}),
        ({"a": [1, 2], "b": 2}, {"b": [1, 2], "a": 2}), ([1, [2, 3]], (1, (2, 3))), ([1, 2], [1, 2, 3]),
        ([1, [2]], [1, 2]), (collections.OrderedDict(b=1, a=[2]), {"a": [1], "b": 2}),
        (NT(1, [2]), collections.namedtuple("baz", "a b")(1, [2])),
        (NT(1, [2]), collections.namedtuple("bar", "x y")(1, [2])),
    ]
    return [[outcome(lambda a=a, b=b, check=check: tf.nest.assert_same_structure(a, b, check_types=check), "")
             for a, b in cases] for check in (False, True)] + [
        outcome(lambda: tf.nest.assert_same_structure([1, 2], [1, 2, 3]), "same number of elements"),
        outcome(lambda: tf.nest.assert_same_structure([1, [2]], [1, 2]), "is a sequence, while substructure"),
        outcome(lambda: tf.nest.assert_same_structure({"a": 1}, {"b": 1}), "same set of keys"),
        list(tf.nest.map_structure(lambda x, y: x + y, NT(1, 2), {"a": 10, "b": 20}, check_types=False))]


@program
def p_mirrored_strategy_on_gpu_names_without_gpus(tf):
    strategy = tf.distribute.MirroredStrategy(["GPU:0", "GPU:1"])
    with strategy.scope():
        v = tf.Variable(5.0, aggregation=tf.VariableAggregation.MEAN)

    @tf.function
    def update_fn():
        return v.assign_add(1.0)

    result = strategy.run(update_fn)
    return [list(strategy.extended.worker_devices), strategy.num_replicas_in_sync,
            [float(t.numpy()) for t in strategy.experimental_local_results(result)], float(v.numpy())]


@program
def p_gamma_samples_at_zero_negative_and_tiny_concentrations(tf):
    """TF floors every gamma sample at the dtype's smallest normal number (alpha 0, or a sample that underflows),
    and gives NaN for a negative concentration; tinytf divided by zero at alpha 0."""
    return [tf.random.stateless_gamma([3], seed=[1, 2], alpha=[0.0, 1.0, -1.0]).numpy().tolist(),
            tf.random.stateless_gamma([4], seed=[1, 2], alpha=0.001).numpy().tolist(),
            tf.random.stateless_gamma([2], seed=[3, 4], alpha=[0.0, 2.0], dtype=tf.float64).numpy().tolist(),
            tf.random.gamma([2], alpha=[0.0, 1.0], seed=1).numpy()[:, 0].tolist()]
