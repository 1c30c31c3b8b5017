"""flat_map / interleave trace their function once, when the pipeline is built (TF 2.21): the function runs
once at construction and never again while iterating, its errors surface at construction with their own
class, and the element spec is known before the first element."""

from __future__ import annotations

from . import outcome, program, val


def _counted(tf, method):
    calls = []

    def make(x):
        calls.append(1)
        return tf.data.Dataset.from_tensors(x).repeat(2)
    ds = getattr(tf.data.Dataset.range(3), method)(make)
    at_construction = len(calls)
    elements = [int(x) for x in ds]
    return [at_construction, len(calls), str(ds.element_spec), elements]


@program
def p_data_flat_map_traced_once_at_construction(tf):
    return [_counted(tf, "flat_map"), _counted(tf, "interleave")]


def _rejects(x):
    raise ValueError("this function rejects every element")


def _symbolic_numpy(x):
    return x.numpy()


@program
def p_data_flat_map_errors_at_construction(tf):
    ds = tf.data.Dataset.range(3)
    return [outcome(lambda: ds.flat_map(_rejects), "rejects every element"),
            outcome(lambda: ds.interleave(_rejects, cycle_length=2), "rejects every element"),
            outcome(lambda: ds.flat_map(_symbolic_numpy), "numpy"),
            outcome(lambda: ds.interleave(lambda x: tf.data.Dataset.range(x) + 1), "unsupported operand")]


@program
def p_data_flat_map_spec_before_iteration(tf):
    ds = tf.data.Dataset.from_tensor_slices(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    flat = ds.flat_map(lambda row: tf.data.Dataset.from_tensor_slices(row * 2.0).batch(2))
    nested = tf.data.Dataset.range(2).interleave(
        lambda x: tf.data.Dataset.from_tensors({"a": tf.cast(x, tf.int32), "b": tf.fill([3], x)}), cycle_length=2)
    return [str(flat.element_spec), val([e for e in flat]), str(nested.element_spec),
            [val(e) for e in nested]]


