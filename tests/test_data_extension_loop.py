"""A dataset of ExtensionType values iterated inside tf.function (a graph loop and next(iter(ds))) hands the
loop body the values themselves, as eager iteration does."""

import tinytf as tf


class Masked(tf.experimental.BatchableExtensionType):
    values: tf.Tensor
    mask: tf.Tensor


def test_graph_loop_over_extension_type_dataset():
    ds = tf.data.Dataset.from_tensor_slices(Masked(tf.constant([1, 2, 3]), tf.constant([True, False, True])))

    @tf.function
    def total(dataset):
        t = tf.constant(0)
        for x in dataset:
            t += tf.where(x.mask, x.values, 0)
        return t

    @tf.function
    def first(dataset):
        return next(iter(dataset))

    assert int(total(ds)) == 4
    head = first(ds)
    assert isinstance(head, Masked) and int(head.values) == 1 and bool(head.mask)
