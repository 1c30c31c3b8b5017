"""tf.split with statically known piece sizes is generated as basic slices (views, as np.split gives, at a
tenth of its cost): the pieces equal the eager kernel's for equal and given sizes, any axis, and a -1 size;
unknown sizes keep the kernel."""

import numpy as np
import pytest

import tinytf as tf

X = np.arange(2 * 12 * 3, dtype=np.float32).reshape(2, 12, 3)


@pytest.mark.parametrize("split, axis", [(4, 1), ([5, 4, 3], 1), ([2, -1, 3], 1), (3, -1), (2, 0), (3, -2)])
def test_pieces_equal_the_kernel(split, axis, passes):
    def pieces(x):
        return [p * 1.0 for p in tf.split(x, split, axis=axis)]

    args = (tf.constant(X),)
    compiled = tf.function(pieces)
    assert "split_kernel" not in compiled.get_concrete_function(*args).code
    for got, expected in zip(compiled(*args), pieces(*args)):
        np.testing.assert_array_equal(got.numpy(), expected.numpy())


def test_unknown_sizes_keep_the_kernel():
    @tf.function(input_signature=[tf.TensorSpec([2, None], tf.float32)])
    def halves(x):
        return tf.split(x, 2, axis=1)

    code = halves.get_concrete_function().code
    assert "split_kernel" in code
    a, b = halves(tf.constant(np.arange(8, dtype=np.float32).reshape(2, 4)))
    np.testing.assert_array_equal(b.numpy(), [[2, 3], [6, 7]])
