"""TensorShape.dims as TF 2.21 gives it (a new list of Dimension objects, None for an unknown rank), the
Dimension arithmetic and comparisons a TF1-style program runs on those, eagerly and on shapes seen while tracing;
and the GraphDef op of `+` / tf.add: AddV2 for numbers, Add for strings (helper savetab)."""

from __future__ import annotations

from . import outcome, program


@program
def p_savetab_shape_dims(tf):
    shape = tf.TensorShape([2, None, 5])
    dims = shape.dims
    return {
        "repr": repr(dims), "type": type(dims).__name__, "unknown": repr(tf.TensorShape(None).dims),
        "scalar": repr(tf.TensorShape([]).dims), "values": [d.value for d in dims],
        "fresh_list": shape.dims is not shape.dims, "items_are_ints": [repr(shape[0]), repr(shape[1])],
        "eager_tensor": repr(tf.constant([[1, 2, 3]]).shape.dims),
        "from_dimensions": str(tf.TensorShape([tf.compat.v1.Dimension(3), tf.compat.v1.Dimension(None), 4])),
        "list_equal": [dims == [2, None, 5], shape.dims[0] == 2, shape.dims[2] == tf.TensorShape([5]).dims[0]],
        "arith": [repr(dims[0] * dims[2]), repr(dims[0] + dims[1]), repr(dims[2] // 2), repr(dims[2] % 3),
                  repr(10 - dims[2])],
        "compare": [dims[0] < dims[2], dims[1] > 3, dims[2] >= 5, dims[0] != 3, dims[1] == dims[1]],
        "merge": [repr(dims[1].merge_with(dims[0])), repr(tf.compat.v1.dimension_value(dims[1])),
                  repr(tf.compat.v1.dimension_at_index(shape, 2))],
        "merge_error": outcome(lambda: dims[0].merge_with(dims[2]), "are not compatible"),
        "true_division": outcome(lambda: dims[2] / 2, "please use // instead"),
        "with_rank": repr(tf.TensorShape([3]).with_rank(1).dims),
        "concatenate": repr(shape.concatenate([7]).dims), "merged": repr(shape.merge_with([None, 4, 5]).dims),
        "index_of_unknown": outcome(lambda: [1, 2][dims[1]], "__index__"),
    }


@program
def p_savetab_dims_while_tracing(tf):
    seen = {}

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        dims = x.shape.dims
        seen["dims"] = repr(dims)
        seen["batch"] = repr(dims[0].value)
        width = dims[1].value * 2  # a known dimension computes a Python int while tracing
        return tf.tile(x, [1, 2]), width

    y, width = f(tf.ones([2, 3]))
    return {"seen": seen, "shape": y.shape.as_list(), "width": int(width)}


@program
def p_savetab_string_add_graph_def(tf):
    def f(a, b):
        return a + b, tf.add(a, b), tf.math.add(a, b)

    function = tf.function(f)
    ops = {}
    for dtype in (tf.string, tf.float32, tf.int32):
        spec = tf.TensorSpec([None], dtype)
        graph_def = function.get_concrete_function(spec, spec).graph.as_graph_def()
        ops[dtype.name] = sorted(n.op for n in graph_def.node)
    results = function(tf.constant(["a", "b"]), tf.constant(["c", "d"]))
    values = [[s.decode() for s in v.numpy().tolist()] for v in results]
    return {"ops": ops, "values": values}
