"""While-loop and TensorArray gradients in `concrete.graph.as_graph_def()`, as TF 2.21 writes them: the forward
loop accumulates each value its gradient needs in a TensorList (EmptyTensorList before the loop, one
TensorListPushBack per value in the body), and the gradient loop reads each accumulator once per iteration
(TF pops with TensorListPopBack; tinytf reads the same element with TensorListGetItem); a TensorArray is a
TensorList (TensorListReserve, TensorListSetItem, TensorListStack).

The op multisets are compared where both write the same program: the loop of `tf.while_loop` (its accumulators
and the math of both loop bodies). An AutoGraph for loop over a tensor's rows is a different program in each
(TF reads the rows through a TensorArray, whose gradient needs two more accumulators, tinytf through a strided
slice): there the accumulator layout is compared (each push has its accumulator and one read), and the numbers.
"""

from __future__ import annotations

import collections

import numpy as np

from . import program, val

W = np.array([[0.5, -0.25], [0.75, 0.125]], np.float32)
XS = np.array([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], np.float32)

_LOOPS = ("While", "StatelessWhile")
_LIST_READS = ("TensorListPopBack", "TensorListGetItem")
_MATH = ("Sin", "Cos", "Mul", "Tanh", "MatMul")


def _bodies(graph_def):
    """The FunctionDefs of the top-level loops' bodies, in node order."""
    functions = {f.signature.name: f for f in graph_def.library.function}
    return [functions[n.attr["body"].func.name] for n in graph_def.node if n.op in _LOOPS]


def _count(nodes, kinds, rename=None):
    counts = collections.Counter((rename or {}).get(n.op, n.op) for n in nodes if n.op in kinds)
    return sorted([op, k] for op, k in counts.items())


def _layout(graph_def):
    """Accumulators: how many lists the top level makes for the loops, the forward body's pushes, the gradient
    body's reads."""
    forward, backward = _bodies(graph_def)
    made = sum(n.op == "EmptyTensorList" for n in graph_def.node)
    pushes = sum(n.op == "TensorListPushBack" for n in forward.node_def)
    reads = sum(n.op in _LIST_READS for n in backward.node_def)
    return {"loops": sum(n.op in _LOOPS for n in graph_def.node), "some_accumulators": pushes > 0,
            "one_list_per_push": made == pushes, "one_read_per_push": reads == pushes}


@program
def p_while_loop_gradient_accumulators(tf):
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, tf.sin(v) * x), [0, x])[1]
        return y, tape.gradient(y, x)

    concrete = f.get_concrete_function(tf.TensorSpec([], tf.float32))
    graph_def = concrete.graph.as_graph_def()
    forward, backward = _bodies(graph_def)
    kinds = {
        "top": _count(graph_def.node, _LOOPS + ("EmptyTensorList",)),
        "forward_body": _count(forward.node_def, _MATH + ("TensorListPushBack",)),
        "gradient_body": _count(backward.node_def, _MATH + _LIST_READS, {op: "read" for op in _LIST_READS}),
    }
    return [kinds, _layout(graph_def), [val(t) for t in concrete(tf.constant(0.5))],
            [val(t) for t in f(tf.constant(-1.25))]]


@program
def p_autograph_for_loop_gradient_accumulators(tf):
    w = tf.Variable(W)

    @tf.function
    def f(xs):
        with tf.GradientTape() as tape:
            tape.watch(xs)
            h = tf.zeros([2])
            for x in xs:
                h = tf.tanh(tf.linalg.matvec(w, h) + x)
            loss = tf.reduce_sum(h * h)
        return [loss] + tape.gradient(loss, [w, xs])

    concrete = f.get_concrete_function(tf.TensorSpec([None, 2], tf.float32))
    graph_def = concrete.graph.as_graph_def()
    return [_layout(graph_def), [val(t) for t in concrete(tf.constant(XS))],
            [val(t) for t in concrete(tf.constant(XS[:1]))]]


@program
def p_tensor_array_in_a_loop_is_a_tensor_list(tf):
    @tf.function
    def f(x):
        arr = tf.TensorArray(tf.float32, size=3)
        for i in tf.range(3):
            arr = arr.write(i, x[i] * x[i])
        return arr.stack()

    concrete = f.get_concrete_function(tf.TensorSpec([3], tf.float32))
    graph_def = concrete.graph.as_graph_def()
    (body,) = _bodies(graph_def)
    lists = ("TensorListReserve", "TensorListStack", "TensorListSetItem", "TensorListFromTensor")
    return [_count(graph_def.node, _LOOPS + lists), _count(body.node_def, lists + ("Mul",)),
            val(concrete(tf.constant([1.0, 2.0, 3.0])))]


@program
def p_tensor_array_gradient_as_tensor_lists(tf):
    """A TensorArray written in a loop, stacked and differentiated: the stack's gradient is TensorListFromTensor,
    the gradient loop reads each element's gradient (TensorListGetItem) and zeroes it (TensorListSetItem)."""

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            arr = tf.TensorArray(tf.float32, size=3)
            for i in tf.range(3):
                arr = arr.write(i, x[i] * x[i])
            y = tf.reduce_sum(arr.stack() ** 2)
        return y, tape.gradient(y, x)

    concrete = f.get_concrete_function(tf.TensorSpec([3], tf.float32))
    graph_def = concrete.graph.as_graph_def()
    forward, backward = _bodies(graph_def)
    layout = {"top": _count(graph_def.node, _LOOPS + ("TensorListReserve", "TensorListStack", "TensorListFromTensor")),
              "forward_sets": _count(forward.node_def, ("TensorListSetItem",)),
              "gradient_sets": _count(backward.node_def, ("TensorListSetItem",)),
              "gradient_reads_an_element": any(n.op == "TensorListGetItem" for n in backward.node_def)}
    return [layout, _layout(graph_def)["one_list_per_push"], [val(t) for t in concrete(tf.constant([1.0, 2.0, 3.0]))]]
