"""The graph IR: its text form, the checker, and the generated code."""

import pytest

import tinytf as tf
from tinytf.runtime.check import GraphCheckError, check_graph
from tinytf.runtime.clone import clone_graph


def affine(x, y):
    return tf.reduce_sum(x * 2.0 + y, axis=0)


def traced(fn, *specs):
    return tf.function(fn).get_concrete_function(*specs)


def test_graph_text_is_one_line_per_node():
    cf = traced(affine, tf.TensorSpec([None, 3]), tf.TensorSpec([3]))
    lines = str(cf.unoptimized_graph).splitlines()
    assert lines[0] == "graph affine(x: float32[?,3], y: float32[3]) {"
    assert lines[1].startswith("  const = const(value=2.0)") and lines[1].rstrip().endswith(": float32[]")
    assert "multiply = multiply(x, const)" in lines[2] and ": float32[?,3]" in lines[2]
    assert "test_graph_ir.py:" in lines[2]
    assert "add = add(multiply, y)" in lines[3]
    assert "reduce_sum = reduce_sum(add, axis=0, keepdims=False)" in lines[4] and ": float32[3]" in lines[4]
    assert lines[-2:] == ["  return reduce_sum", "}"]


@pytest.mark.usefixtures("all_passes")
def test_generated_code_reads_like_numpy():
    cf = traced(affine, tf.TensorSpec([None, 3]), tf.TensorSpec([3]))
    assert cf.code[cf.code.index("def affine"):] == (
        "def affine(x, y):\n"
        "    add = (x * const) + y\n"
        "    reduce_sum = np.add.reduce(add, axis=0, keepdims=False, dtype=add.dtype)\n"
        "    del add\n"
        "    return (reduce_sum,)\n")


def test_unoptimized_code_has_one_line_per_node():
    tf.config.optimizer.set_experimental_options({"disable_all": True})
    try:
        cf = traced(affine, tf.TensorSpec([None, 3]), tf.TensorSpec([3]))
    finally:
        tf.config.optimizer.set_experimental_options({"disable_all": False})
    assert cf.code.startswith("const = np.float32(2.0)\n")
    assert cf.code[cf.code.index("def affine"):] == (
        "def affine(x, y):\n"
        "    multiply = x * const\n"
        "    add = multiply + y\n"
        "    del multiply\n"
        "    reduce_sum = np.add.reduce(add, axis=0, keepdims=False, dtype=add.dtype)\n"
        "    del add\n"
        "    return (reduce_sum,)\n")


def test_checker_accepts_traced_graphs_and_clones():
    cf = traced(lambda x: tf.cond(x > 0, lambda: x * 2, lambda: x - 1), tf.TensorSpec([]))
    check_graph(cf.unoptimized_graph)
    check_graph(clone_graph(cf.unoptimized_graph))


def _fresh_graph():
    return clone_graph(traced(affine, tf.TensorSpec([None, 3]), tf.TensorSpec([3])).unoptimized_graph)


def test_checker_rejects_out_of_order_nodes():
    graph = _fresh_graph()
    graph.nodes[1], graph.nodes[2] = graph.nodes[2], graph.nodes[1]
    with pytest.raises(GraphCheckError, match="not defined before it"):
        check_graph(graph)


def test_checker_rejects_duplicate_names():
    graph = _fresh_graph()
    graph.nodes[2].name = graph.nodes[1].name
    with pytest.raises(GraphCheckError, match="used twice"):
        check_graph(graph)


def test_checker_rejects_stale_types():
    graph = _fresh_graph()
    graph.nodes[1].outputs[0].dtype = tf.int32
    with pytest.raises(GraphCheckError, match="dtype"):
        check_graph(graph)


def test_checker_rejects_undefined_outputs():
    graph = _fresh_graph()
    graph.nodes.pop()
    with pytest.raises(GraphCheckError):
        check_graph(graph)


def test_cond_and_while_nodes_hold_closed_subgraphs():
    def fn(x, n):
        return tf.while_loop(lambda i, acc: i < n, lambda i, acc: (i + 1, acc + x), [0, 0.0])

    graph = traced(fn, tf.TensorSpec([]), tf.TensorSpec([], tf.int32)).unoptimized_graph
    (loop,) = [node for node in graph.nodes if node.op.name == "while_loop"]
    body = loop.attrs["body_graph"]
    # i, acc, then the captures of cond and body together (n, x), aligned across both subgraphs
    assert [t.dtype.name for t in body.inputs] == ["int32", "float32", "int32", "float32"]
    assert "graph loop_body(" in str(graph)
