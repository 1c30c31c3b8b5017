"""Lists that hold tensors (or variables) become one tensor as TF packs them: the dtype is the first tensor's,
Python numbers in the list are converted to it, a tensor of another dtype is refused, and inside tf.function a
variable in the list is read when the graph runs, not when it is traced. Eagerly and in graphs, through
convert_to_tensor and through ops that take shapes (tf.fill, tf.reshape)."""

from __future__ import annotations

from . import outcome, program, val


def _lists(tf, n64, n32, v64):
    return {"n64_first": [n64, 2], "n64_second": [2, n64], "nested": [[2], [n64]], "variable": [v64, 2],
            "float64_and_int": [tf.constant(1.5, tf.float64), 1], "mixed_dtypes": [n32, n64],
            "float_into_int": [n64, 2.5]}


@program
def p_packed_lists_eagerly(tf):
    n64, n32, v64 = tf.constant(3, tf.int64), tf.constant(2, tf.int32), tf.Variable(5, dtype=tf.int64)
    phrases = {"mixed_dtypes": "was expected to be a int32 tensor but is a int64 tensor",
               "float_into_int": "Cannot convert"}
    return {name: outcome(lambda value=value: tf.convert_to_tensor(value), phrases.get(name, ""))
            for name, value in _lists(tf, n64, n32, v64).items()}


@program
def p_packed_lists_in_a_graph(tf):
    v64 = tf.Variable(5, dtype=tf.int64)

    @tf.function
    def pack(n64):
        return (tf.convert_to_tensor([n64, 2]), tf.convert_to_tensor([2, n64]), tf.convert_to_tensor([[2], [n64]]),
                tf.convert_to_tensor([v64, 2]), tf.fill([n64, 2], 1.0), tf.reshape(tf.range(6), [n64, -1]))

    first = val(pack(tf.constant(3, tf.int64)))
    v64.assign(7)  # the graph reads the variable when it runs
    return [first, val(pack(tf.constant(3, tf.int64)))]


@program
def p_packed_list_of_other_dtypes_in_a_graph_is_refused(tf):
    @tf.function
    def pack(n64, n32):
        return tf.convert_to_tensor([n32, n64])

    return outcome(lambda: pack(tf.constant(3, tf.int64), tf.constant(2, tf.int32)),
                   "Cannot convert a list containing a tensor of dtype")
