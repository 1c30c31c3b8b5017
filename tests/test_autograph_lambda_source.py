"""AutoGraph finds a lambda's own source: several lambdas with the same arguments on one line, a lambda on a
continuation line of a larger expression (whose lines alone do not parse), text before it that is not ASCII.
Converting the wrong lambda is a wrong answer (a neighbour's body runs instead), so these check the results."""

import numpy as np
import pytest

import tinytf as tf
from tinytf.autograph.parsing import SourceUnavailableError, parse_function


def body_text(fn):
    import astunparse
    import gast

    return astunparse.unparse(gast.gast_to_ast(parse_function(fn)[0].body)).strip()


def test_two_lambdas_with_the_same_argument_on_a_continuation_line():
    ds = tf.data.Dataset.range(6).window(2, shift=1, drop_remainder=True).map(
        lambda d: d.map(lambda v: v * v)).flat_map(lambda d: d.batch(2))
    assert [v.tolist() for v in ds.as_numpy_iterator()] == [[0, 1], [1, 4], [4, 9], [9, 16], [16, 25]]


def test_each_lambda_of_a_line_is_its_own():
    first, second = (lambda x: x + 1,
                     lambda x: x * 10)
    a, b = (lambda x: x - 1), (lambda x: x * 2)
    assert body_text(first) == "(x + 1)" and body_text(second) == "(x * 10)"
    assert body_text(a) == "(x - 1)" and body_text(b) == "(x * 2)"
    f = tf.function(lambda x: tf.where(x > 0, x, -x)); g = tf.function(lambda x: tf.where(x > 0, -x, x))  # noqa: E702
    assert f(tf.constant(-3.0)).numpy() == 3.0 and g(tf.constant(-3.0)).numpy() == -3.0


def test_lambda_after_text_that_is_not_ascii():
    labels = {"é": 1}; fn = (lambda d: d.map(lambda v: v + labels["é"])); other = (lambda d: d.batch(2))  # noqa: E702
    ds = tf.data.Dataset.range(3).window(3).map(fn).flat_map(other)
    assert [v.tolist() for v in ds.as_numpy_iterator()] == [[1, 2], [3]]


def test_an_unidentifiable_lambda_is_refused_not_guessed():
    code = compile("f = [lambda x: x + 1, lambda x: x + 2]", "<no source>", "exec")
    namespace = {}
    exec(code, namespace)
    with pytest.raises(SourceUnavailableError):
        parse_function(namespace["f"][1])


def test_batching_dataset_elements_names_the_problem():
    ds = tf.data.Dataset.range(3).map(lambda x: tf.data.Dataset.range(x))
    with pytest.raises(TypeError, match="cannot batch elements that are datasets"):
        ds.batch(2)
    assert np.array_equal(list(ds.flat_map(lambda d: d).as_numpy_iterator()), [0, 0, 1])
