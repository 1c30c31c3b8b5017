"""The `>>>` examples of TF 2.21's docstrings for tf.RaggedTensor (class and methods), tf.RaggedTensorSpec,
tf.ragged.* and tf.experimental.RowPartition / DynamicRaggedShape, one program per docstring: each runs its
examples in order in one namespace and returns what each expression shows (its repr), or the error it raises."""

from __future__ import annotations

import contextlib
import io

import numpy as np

from . import program


def _run(tf, sources: list) -> list:
    """Each source as the doctest runs it: an expression shows its repr; what a statement prints is kept; an
    error is recorded by its class."""
    # the docstrings name the classes as their module sees them
    namespace = {"tf": tf, "np": np, "RaggedTensor": tf.RaggedTensor, "RowPartition": tf.experimental.RowPartition,
                 "DynamicRaggedShape": tf.experimental.DynamicRaggedShape}
    shown = []
    for source in sources:
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                try:
                    code = compile(source, "<docstring>", "eval")
                except SyntaxError:
                    exec(compile(source, "<docstring>", "exec"), namespace)  # noqa: S102 - the docstring's code
                else:
                    value = eval(code, namespace)  # noqa: S307 - the docstring's own expression
                    if value is not None:
                        print(repr(value))
        except Exception as e:  # noqa: BLE001 - an example that raises shows its error, as in the docstring
            print(f"{type(e).__name__}: {str(e).splitlines()[0][:80] if str(e) else ''}", file=printed)
        if printed.getvalue():
            shown.append(printed.getvalue())
    return shown


EXAMPLES = {
    'RaggedTensor': [
        ('print(tf.RaggedTensor.from_row_splits(\n'
         '      values=[3, 1, 4, 1, 5, 9, 2, 6],\n'
         '      row_splits=[0, 4, 4, 7, 8, 8]))'),
        'values = [3, 1, 4, 1, 5, 9, 2, 6]',
        'RaggedTensor.from_row_splits(values, row_splits=[0, 4, 4, 7, 8, 8])',
        'RaggedTensor.from_row_lengths(values, row_lengths=[4, 0, 3, 1, 0])',
        ('RaggedTensor.from_value_rowids(\n'
         '    values, value_rowids=[0, 0, 0, 0, 2, 2, 2, 3], nrows=5)'),
        'RaggedTensor.from_row_starts(values, row_starts=[0, 4, 4, 7, 8])',
        'RaggedTensor.from_row_limits(values, row_limits=[4, 4, 7, 8, 8])',
        'RaggedTensor.from_uniform_row_length(values, uniform_row_length=2)',
        ('inner_rt = RaggedTensor.from_row_splits(  # =rt1 from above\n'
         '    values=[3, 1, 4, 1, 5, 9, 2, 6], row_splits=[0, 4, 4, 7, 8, 8])'),
        ('outer_rt = RaggedTensor.from_row_splits(\n'
         '    values=inner_rt, row_splits=[0, 3, 3, 5])'),
        'print(outer_rt.to_list())',
        'print(outer_rt.ragged_rank)',
        ('RaggedTensor.from_nested_row_splits(\n'
         '    flat_values=[3, 1, 4, 1, 5, 9, 2, 6],\n'
         '    nested_row_splits=([0, 3, 3, 5], [0, 4, 4, 7, 8, 8])).to_list()'),
        ('rt = RaggedTensor.from_row_splits(values=tf.ones([5, 3], tf.int32),\n'
         '                                  row_splits=[0, 2, 5])'),
        'print(rt.to_list())',
        'print(rt.shape)',
        'values = tf.ragged.constant([[1, 2, 3], [4], [5, 6], [7, 8, 9, 10]])',
        'print(values.shape)',
        'rt6 = tf.RaggedTensor.from_uniform_row_length(values, 2)',
        'print(rt6)',
        'print(rt6.shape)',
        'rt7 = tf.RaggedTensor.from_row_splits(values, [0, 2, 4])',
        'print(rt7.shape)',
    ],
    'RP': [
        'p1 = RowPartition.from_row_lengths([4, 0, 3, 1, 0])',
        'p2 = RowPartition.from_row_splits([0, 4, 4, 7, 8, 8])',
        'p3 = RowPartition.from_row_starts([0, 4, 4, 7, 8], nvals=8)',
        'p4 = RowPartition.from_row_limits([4, 4, 7, 8, 8])',
        'p5 = RowPartition.from_value_rowids([0, 0, 0, 0, 2, 2, 2, 3], nrows=5)',
    ],
    'RaggedTensor.__getitem__': [
        "rt = tf.ragged.constant([['a', 'b', 'c'], ['d', 'e'], ['f'], ['g']])",
        'rt[0].numpy()                 # First row (1-D `Tensor`)',
        'rt[:3].to_list()              # First three rows (2-D RaggedTensor)',
        'rt[3, 0].numpy()              # 1st element of 4th row (scalar)',
        ('rt = tf.ragged.constant([[[1, 2, 3], [4]],\n'
         '                         [[5], [], [6]],\n'
         '                         [[7]],\n'
         '                         [[8, 9], [10]]])'),
        'rt[1].to_list()               # Second row (2-D RaggedTensor)',
        'rt[3, 0].numpy()              # First element of fourth row (1-D Tensor)',
        'rt[:, 1:3].to_list()          # Items 1-3 of each row (3-D RaggedTensor)',
        'rt[:, -1:].to_list()          # Last item of each row (3-D RaggedTensor)',
    ],
    'RaggedTensor.bounding_shape': [
        'rt = tf.ragged.constant([[1, 2, 3, 4], [5], [], [6, 7, 8, 9], [10]])',
        'rt.bounding_shape().numpy()',
    ],
    'RaggedTensor.flat_values': [
        'rt = tf.ragged.constant([[[3, 1, 4, 1], [], [5, 9, 2]], [], [[6], []]])',
        'print(rt.flat_values)',
    ],
    'RaggedTensor.from_row_lengths': [
        ('print(tf.RaggedTensor.from_row_lengths(\n'
         '    values=[3, 1, 4, 1, 5, 9, 2, 6],\n'
         '    row_lengths=[4, 0, 3, 1, 0]))'),
    ],
    'RaggedTensor.from_row_limits': [
        ('print(tf.RaggedTensor.from_row_limits(\n'
         '    values=[3, 1, 4, 1, 5, 9, 2, 6],\n'
         '    row_limits=[4, 4, 7, 8, 8]))'),
    ],
    'RaggedTensor.from_row_splits': [
        ('print(tf.RaggedTensor.from_row_splits(\n'
         '    values=[3, 1, 4, 1, 5, 9, 2, 6],\n'
         '    row_splits=[0, 4, 4, 7, 8, 8]))'),
    ],
    'RaggedTensor.from_row_starts': [
        ('print(tf.RaggedTensor.from_row_starts(\n'
         '    values=[3, 1, 4, 1, 5, 9, 2, 6],\n'
         '    row_starts=[0, 4, 4, 7, 8]))'),
    ],
    'RaggedTensor.from_sparse': [
        'indices = [[0, 0], [0, 1], [0, 2], [1, 0], [3, 0]]',
        ('st = tf.sparse.SparseTensor(indices=indices,\n'
         '                            values=[1, 2, 3, 4, 5],\n'
         '                            dense_shape=[4, 3])'),
        'tf.RaggedTensor.from_sparse(st).to_list()',
    ],
    'RaggedTensor.from_tensor': [
        'dt = tf.constant([[5, 7, 0], [0, 3, 0], [6, 0, 0]])',
        'tf.RaggedTensor.from_tensor(dt)',
        'tf.RaggedTensor.from_tensor(dt, lengths=[1, 0, 3])',
        'tf.RaggedTensor.from_tensor(dt, padding=0)',
        ('dt = tf.constant([[[5, 0], [7, 0], [0, 0]],\n'
         '                  [[0, 0], [3, 0], [0, 0]],\n'
         '                  [[6, 0], [0, 0], [0, 0]]])'),
        'tf.RaggedTensor.from_tensor(dt, lengths=([2, 0, 3], [1, 1, 2, 0, 1]))',
    ],
    'RaggedTensor.from_uniform_row_length': [
        'values = tf.ragged.constant([[1, 2, 3], [4], [5, 6], [7, 8, 9, 10]])',
        'print(values.shape)',
        'rt1 = tf.RaggedTensor.from_uniform_row_length(values, 2)',
        'print(rt1)',
        'print(rt1.shape)',
        'rt2 = tf.RaggedTensor.from_row_splits(values, [0, 2, 4])',
        'print(rt2.shape)',
    ],
    'RaggedTensor.from_value_rowids': [
        ('print(tf.RaggedTensor.from_value_rowids(\n'
         '    values=[3, 1, 4, 1, 5, 9, 2, 6],\n'
         '    value_rowids=[0, 0, 0, 0, 2, 2, 2, 3],\n'
         '    nrows=5))'),
    ],
    'RaggedTensor.get_shape': [
        'tf.ragged.constant([[0], [1, 2]]).get_shape()',
        ('tf.ragged.constant(\n'
         '   [[[0, 1]], [[1, 2], [3, 4]]], ragged_rank=1).get_shape()'),
    ],
    'RaggedTensor.merge_dims': [
        'rt = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])',
        'print(rt.merge_dims(0, 1))',
        'print(rt.merge_dims(1, 2))',
        'print(rt.merge_dims(0, 2))',
    ],
    'RaggedTensor.nested_row_splits': [
        ('rt = tf.ragged.constant(\n'
         '    [[[[3, 1, 4, 1], [], [5, 9, 2]], [], [[6], []]]])'),
        ('for i, splits in enumerate(rt.nested_row_splits):\n'
         "  print('Splits for dimension %d: %s' % (i+1, splits.numpy()))"),
    ],
    'RaggedTensor.nested_value_rowids': [
        ('rt = tf.ragged.constant(\n'
         '    [[[[3, 1, 4, 1], [], [5, 9, 2]], [], [[6], []]]])'),
        ('for i, ids in enumerate(rt.nested_value_rowids()):\n'
         "  print('row ids for dimension %d: %s' % (i+1, ids.numpy()))"),
    ],
    'RaggedTensor.nrows': [
        'rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])',
        'print(rt.nrows())  # rt has 5 rows.',
    ],
    'RaggedTensor.numpy': [
        'tf.ragged.constant([[1, 2, 3], [4, 5]], dtype=tf.int64).numpy()',
        'tf.ragged.constant([[1, 2, 3], [4, 5, 6]], dtype=tf.int64).numpy()',
    ],
    'RaggedTensor.ragged_rank': [
        'values = tf.ragged.constant([[1, 2, 3], [4], [5, 6], [7, 8, 9, 10]])',
        'values.ragged_rank',
        'rt = tf.RaggedTensor.from_uniform_row_length(values, 2)',
        'rt.ragged_rank',
    ],
    'RaggedTensor.row_lengths': [
        ('rt = tf.ragged.constant(\n'
         '    [[[3, 1, 4], [1]], [], [[5, 9], [2]], [[6]], []])'),
        'print(rt.row_lengths())  # lengths of rows in rt',
        'print(rt.row_lengths(axis=2))  # lengths of axis=2 rows.',
    ],
    'RaggedTensor.row_limits': [
        'rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])',
        'print(rt.values)',
        'print(rt.row_limits())  # indices of row limits in rt.values',
    ],
    'RaggedTensor.row_splits': [
        'rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])',
        'print(rt.row_splits)  # indices of row splits in rt.values',
    ],
    'RaggedTensor.row_starts': [
        'rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])',
        'print(rt.values)',
        'print(rt.row_starts())  # indices of row starts in rt.values',
    ],
    'RaggedTensor.shape': [
        'tf.ragged.constant([[0], [1, 2]]).shape',
        'tf.ragged.constant([[[0, 1]], [[1, 2], [3, 4]]], ragged_rank=1).shape',
    ],
    'RaggedTensor.to_sparse': [
        'rt = tf.ragged.constant([[1, 2, 3], [4], [], [5, 6]])',
        'print(rt.to_sparse())',
    ],
    'RaggedTensor.to_tensor': [
        'rt = tf.ragged.constant([[9, 8, 7], [], [6, 5], [4]])',
        'print(rt.to_tensor())',
        'print(rt.to_tensor(shape=[5, 2]))',
    ],
    'RaggedTensor.uniform_row_length': [
        'rt1 = tf.ragged.constant([[1, 2, 3], [4], [5, 6], [7, 8, 9, 10]])',
        'print(rt1.uniform_row_length)  # rows are ragged.',
        ('rt2 = tf.RaggedTensor.from_uniform_row_length(\n'
         '    values=rt1, uniform_row_length=2)'),
        'print(rt2)',
        'print(rt2.uniform_row_length)  # rows are not ragged (all have size 2).',
    ],
    'RaggedTensor.value_rowids': [
        'rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])',
        'print(rt.values)',
        'print(rt.value_rowids())  # corresponds 1:1 with rt.values',
    ],
    'RaggedTensor.values': [
        'rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])',
        'print(rt.values)',
    ],
    'ragged.boolean_mask': [
        'T, F = (True, False)',
        ('tf.ragged.boolean_mask(  # Mask a 2D Tensor.\n'
         '    data=[[1, 2, 3], [4, 5, 6], [7, 8, 9]],\n'
         '    mask=[[T, F, T], [F, F, F], [T, F, F]]).to_list()'),
        ('tf.ragged.boolean_mask(  # Mask a 2D RaggedTensor.\n'
         '    tf.ragged.constant([[1, 2, 3], [4], [5, 6]]),\n'
         '    tf.ragged.constant([[F, F, T], [F], [T, T]])).to_list()'),
        ('tf.ragged.boolean_mask(  # Mask rows of a 2D RaggedTensor.\n'
         '    tf.ragged.constant([[1, 2, 3], [4], [5, 6]]),\n'
         '    tf.ragged.constant([True, False, True])).to_list()'),
    ],
    'ragged.constant': [
        'tf.ragged.constant([[1, 2], [3], [4, 5, 6]])',
    ],
    'ragged.cross': [
        ("tf.ragged.cross([tf.ragged.constant([['a'], ['b', 'c']]),\n"
         "                 tf.ragged.constant([['d'], ['e']]),\n"
         "                 tf.ragged.constant([['f'], ['g']])])"),
    ],
    'ragged.cross_hashed': [
        ("tf.ragged.cross_hashed([tf.ragged.constant([['a'], ['b', 'c']]),\n"
         "                        tf.ragged.constant([['d'], ['e']]),\n"
         "                        tf.ragged.constant([['f'], ['g']])],\n"
         '                       num_buckets=100)'),
    ],
    'ragged.map_flat_values': [
        'rt = tf.ragged.constant([[1, 2, 3], [], [4, 5], [6]])',
        'tf.ragged.map_flat_values(tf.ones_like, rt)',
        'tf.ragged.map_flat_values(tf.multiply, rt, rt)',
        'tf.ragged.map_flat_values(tf.add, rt, 5)',
        'rt = tf.ragged.constant([[1.0, 3.0], [], [3.0, 6.0, 3.0]])',
        ('def normalized(x):\n'
         '  return x / tf.reduce_sum(x)'),
        'tf.ragged.map_flat_values(normalized, rt)',
        'tf.map_fn(normalized, rt)',
    ],
    'ragged.range': [
        'tf.ragged.range([3, 5, 2]).to_list()',
        'tf.ragged.range([0, 5, 8], [3, 3, 12]).to_list()',
        'tf.ragged.range([0, 5, 8], [3, 3, 12], 2).to_list()',
    ],
    'ragged.row_splits_to_segment_ids': [
        'print(tf.ragged.row_splits_to_segment_ids([0, 3, 3, 5, 6, 9]))',
    ],
    'ragged.segment_ids_to_row_splits': [
        'print(tf.ragged.segment_ids_to_row_splits([0, 0, 0, 2, 2, 3, 4, 4, 4]))',
    ],
    'ragged.stack': [
        't1 = tf.ragged.constant([[1, 2], [3, 4, 5]])',
        't2 = tf.ragged.constant([[6], [7, 8, 9]])',
        'tf.ragged.stack([t1, t2], axis=0)',
        'tf.ragged.stack([t1, t2], axis=1)',
        't3 = tf.constant([[1, 2, 3], [4, 5, 6]])',
        't4 = tf.constant([[5], [6], [7]])',
        'tf.ragged.stack([t3, t4], axis=0)',
    ],
    'ragged.stack_dynamic_partitions': [
        "data           = ['a', 'b', 'c', 'd', 'e']",
        'partitions     = [  3,   0,   2,   2,   3]',
        'num_partitions = 5',
        'tf.ragged.stack_dynamic_partitions(data, partitions, num_partitions)',
    ],
    'RP.from_value_rowids': [
        ('print(RowPartition.from_value_rowids(\n'
         '    value_rowids=[0, 0, 0, 0, 2, 2, 2, 3],\n'
         '    nrows=4))'),
    ],
}


def _register(key: str) -> None:
    def run(tf):
        return _run(tf, EXAMPLES[key])

    run.__name__ = "p_ragged_doc_" + key.replace(".", "_").replace("__", "").lower()
    program(run)


for _key in EXAMPLES:
    _register(_key)
