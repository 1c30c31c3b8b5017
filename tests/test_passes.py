"""Each graph pass alone on traced graphs: what it must change, what it must leave alone."""

import io

import numpy as np
import pytest

import tinytf as tf
from tinytf.runtime.check import check_graph
from tinytf.runtime.clone import clone_graph
from tinytf.runtime.codegen import compile_graph
from tinytf.runtime.passes.constant_fold import constant_fold
from tinytf.runtime.passes.cse import cse
from tinytf.runtime.passes.fusion import fuse_elementwise
from tinytf.runtime.passes.licm import licm
from tinytf.runtime.passes.prune import prune
from tinytf.runtime.passes.simplify import simplify


def graph_of(fn, *specs):
    """A fresh copy of the traced (unoptimized) graph of fn."""
    return clone_graph(tf.function(fn).get_concrete_function(*specs).unoptimized_graph)


def run(graph, *values):
    fn = compile_graph(graph).fn
    return fn(*values)


def ops(graph):
    return [n.op.name for n in graph.nodes]


def apply_pass(pass_fn, fn, *specs, inputs=()):
    """Run one pass; check the graph; compare results with the unoptimized graph."""
    before = graph_of(fn, *specs)
    after = pass_fn(clone_graph(before))
    check_graph(after)
    if inputs:
        want, got = run(before, *inputs), run(after, *inputs)
        assert len(got) == len(want), f"{len(got)} outputs after the pass, {len(want)} before"
        for x, y in zip(want, got):
            np.testing.assert_allclose(x, y, rtol=1e-6)
    return before, after


F = tf.TensorSpec([None], tf.float32)
X = np.array([1.0, -2.0, 3.0], np.float32)


def test_prune_drops_dead_nodes_but_keeps_side_effects():
    v = tf.Variable(0.0)

    def fn(x):
        unused = tf.exp(x) * 2.0  # noqa: F841 - dead on purpose
        v.assign_add(1.0)  # result unused, but a side effect
        return x + 1.0

    _, after = apply_pass(prune, fn, F)
    assert "exp" not in ops(after) and "assign_variable" in ops(after)
    run(after, X, v)
    assert float(v.numpy()) == 1.0


def test_constant_folding_runs_kernels_and_respects_the_size_cap():
    def fn(x):
        c = tf.constant(2.0) * 3.0 + 1.0
        big = tf.ones([100_000]) * 2.0
        return x * c, big

    _, after = apply_pass(constant_fold, fn, F, inputs=(X,))
    consts = [n.attrs["value"] for n in after.nodes if n.op.name == "const"]
    assert any(np.ndim(c) == 0 and float(c) == 7.0 for c in consts)
    assert all(np.size(c) <= 4096 for c in consts)
    assert "fill" in ops(after)  # the 100k constant stays a fill node


def test_constant_folding_of_static_shapes():
    def fn(x):
        return tf.cast(tf.shape(x), tf.float32) * 2.0

    _, after = apply_pass(constant_fold, fn, tf.TensorSpec([2, 3]), inputs=(np.ones((2, 3), np.float32),))
    assert ops(after) == ["const"] or "shape" not in ops(after)


def test_constant_folding_leaves_stateful_ops():
    def fn():
        return tf.random.uniform([2], seed=1) * 2.0

    _, after = apply_pass(constant_fold, fn)
    assert "random_uniform" in " ".join(ops(after)) or any("random" in o for o in ops(after))


def test_cse_merges_equal_pure_nodes_only():
    v = tf.Variable(1.0)

    def fn(x):
        a = tf.exp(x) + tf.exp(x)
        r1 = v.read_value()
        v.assign(5.0)
        r2 = v.read_value()
        return a, r1, r2

    before, after = apply_pass(cse, fn, F)
    assert ops(before).count("exp") == 2 and ops(after).count("exp") == 1
    assert ops(after).count("read_variable") == 2  # reads around an assign never merge
    results = run(after, X, v)
    np.testing.assert_allclose(results[0], 2 * np.exp(X), rtol=1e-6)


def test_simplify_removes_neutral_ops_and_keeps_broadcasting_ones():
    def fn(x):
        a = (x * 1.0 + 0.0) / 1.0 - 0.0
        b = tf.negative(tf.negative(a))
        c = tf.identity(tf.cast(b, tf.float32))
        widened = x + tf.zeros([2, 1])  # adds 0 but broadcasts to (2, n): must stay
        return c, widened

    _, after = apply_pass(lambda g: prune(simplify(g)), fn, F, inputs=(X,))
    assert ops(after).count("add") == 1 and "multiply" not in ops(after) and "negative" not in ops(after)
    assert "identity" not in ops(after) and "cast" not in ops(after)


def test_simplify_transposes_and_reshapes():
    def fn(m):
        t = tf.transpose(tf.transpose(m))
        r = tf.reshape(tf.reshape(m, [6]), [3, 2])
        return tf.matmul(tf.transpose(m), t), r

    m = np.arange(6, dtype=np.float32).reshape(2, 3)
    _, after = apply_pass(lambda g: prune(simplify(g)), fn, tf.TensorSpec([2, 3]), inputs=(m,))
    assert ops(after).count("transpose") == 0
    assert ops(after).count("reshape") == 1
    (matmul,) = [n for n in after.nodes if n.op.name == "matmul"]
    assert matmul.attrs["transpose_a"] is True


def test_simplify_constant_predicate_splices_the_taken_branch():
    def fn(x):
        return tf.cond(tf.constant(True), lambda: x * 2.0, lambda: x * 3.0)

    _, after = apply_pass(simplify, fn, F, inputs=(X,))
    assert "cond" not in ops(after) and "multiply" in ops(after)


def test_licm_hoists_invariant_work_out_of_loops_and_keeps_loop_carried_values():
    def fn(x, w):
        def body(i, acc):
            scale = tf.exp(w) * 2.0  # invariant: hoisted
            return i + 1, acc * scale + x  # loop-carried: stays
        return tf.while_loop(lambda i, acc: i < 3, body, [0, x])[1]

    before, after = apply_pass(licm, fn, F, tf.TensorSpec([], tf.float32),
                               inputs=(X, np.float32(0.1)))
    body_before = [n for n in before.walk() if n.graph.name == "loop_body"]
    body_after = [n for n in after.walk() if n.graph.name == "loop_body"]
    assert "exp" in [n.op.name for n in body_before]
    assert "exp" not in [n.op.name for n in body_after] and "exp" in ops(after)
    assert "add" in [n.op.name for n in body_after]


def test_licm_keeps_stateful_ops_in_the_loop():
    out = io.StringIO()

    def fn(x):
        def body(i):
            tf.print("tick", output_stream=out)
            return i + 1
        return tf.while_loop(lambda i: i < x, body, [0])

    _, after = apply_pass(licm, fn, tf.TensorSpec([], tf.int32))
    assert "print" in [n.op.name for n in after.walk() if n.graph.name == "loop_body"]


def test_fusion_makes_one_block_with_buffer_reuse():
    def fn(x):
        y = x * 1.5 + 0.5
        y = tf.tanh(y) * 2.0 - 1.0
        return tf.sigmoid(y) + x

    data = np.linspace(-1, 1, 1000).astype(np.float32)
    before, after = apply_pass(fuse_elementwise, fn, tf.TensorSpec([1000]), inputs=(data,))
    assert ops(after) == ["fused"]
    code = compile_graph(after).source
    assert "out=" in code  # later steps write into a dying buffer
    assert code.count(" = np.") <= 2  # at most two allocations for seven ops


def test_fusion_never_writes_into_inputs_or_exported_values():
    def fn(x):
        a = x * 2.0
        b = a + 1.0
        return a, b * 3.0  # `a` leaves the block: it must not be overwritten

    data = np.ones(1000, np.float32)
    _, after = apply_pass(fuse_elementwise, fn, tf.TensorSpec([1000]), inputs=(data,))
    a, b = run(after, data)
    np.testing.assert_allclose(a, 2.0)
    np.testing.assert_allclose(b, 9.0)
    np.testing.assert_allclose(data, 1.0)


def test_fusion_of_scalars_is_one_expression():
    def fn(x):
        return (x * 2.0 + 1.0) * x - 3.0

    _, after = apply_pass(fuse_elementwise, fn, tf.TensorSpec([]), inputs=(np.float32(2.0),))
    code = compile_graph(after).source
    assert "subtract = (((x * const) + const_1) * x) - const_2" in code


@pytest.mark.parametrize("option", ["simplification", "constant_folding", "common_subexpression", "pruning",
                                    "loop_invariant_motion", "fusion"])
def test_each_pass_can_be_switched_off(option):
    def fn(x):
        return tf.exp(x) + tf.exp(x) * 1.0

    tf.config.optimizer.set_experimental_options({option: False})
    try:
        cf = tf.function(fn).get_concrete_function(F)
        np.testing.assert_allclose(cf(tf.constant(X)).numpy(), 2 * np.exp(X), rtol=1e-6)
    finally:
        tf.config.optimizer.set_experimental_options({option: True})
    tf.config.optimizer.set_experimental_options({"no_such_pass": True})  # ignored, as TF ignores unknown names
    assert "no_such_pass" not in tf.config.optimizer.get_experimental_options()


def test_fusion_overwrites_a_fresh_input_only_when_it_dies_in_the_block():
    a = np.random.default_rng(0).standard_normal((32, 32)).astype(np.float32)

    def dies(x):
        return tf.nn.relu(x @ x)

    def lives(x):
        m = x @ x
        return tf.nn.relu(m), m * 1.0 + m

    spec = tf.TensorSpec([32, 32])
    _, after = apply_pass(fuse_elementwise, dies, spec, inputs=(a,))
    assert "out=matmul" in compile_graph(after).source
    _, after = apply_pass(fuse_elementwise, lives, spec, inputs=(a,))
    relu, other = run(after, a)
    np.testing.assert_allclose(relu, np.maximum(a @ a, 0), rtol=1e-5)
    np.testing.assert_allclose(other, 2 * (a @ a), rtol=1e-5)


def test_fusion_overwrites_a_value_whose_earlier_uses_keep_no_view_of_it():
    a = np.random.default_rng(1).standard_normal((256, 8)).astype(np.float32)  # 256 rows: buffer form

    def layer_norm(x):  # centered: squared by one block, then scaled by the next, after the reduction
        centered = x - tf.reduce_mean(x, axis=-1, keepdims=True)
        variance = tf.reduce_mean(tf.square(centered), axis=-1, keepdims=True)
        return centered * tf.math.rsqrt(variance + 1e-5) * 2.0

    def viewed(x):  # a reshape (a view) of centered is read after the block: centered must stay intact
        centered = x - tf.reduce_mean(x, axis=-1, keepdims=True)
        flat = tf.reshape(centered, [-1])
        scale = tf.reduce_mean(tf.square(centered), axis=-1, keepdims=True)
        return centered * scale * 2.0, tf.reduce_sum(flat)

    centered = a - a.mean(-1, keepdims=True)
    spec = tf.TensorSpec([256, 8])
    _, after = apply_pass(fuse_elementwise, layer_norm, spec, inputs=(a,))
    assert "out=square_0" in compile_graph(after).source  # the second block writes into the first's output
    (out,) = run(after, a)
    np.testing.assert_allclose(out, centered / np.sqrt((centered ** 2).mean(-1, keepdims=True) + 1e-5) * 2,
                               rtol=1e-5)
    _, after = apply_pass(fuse_elementwise, viewed, spec, inputs=(a,))
    scaled, total = run(after, a)
    np.testing.assert_allclose(total, centered.sum(), atol=1e-4)
    np.testing.assert_allclose(scaled, centered * (centered ** 2).mean(-1, keepdims=True) * 2, rtol=1e-5)


def test_fusion_rewires_single_nodes_after_a_block():
    def fn(x):
        a = x * 2.0 + 1.0  # a block, `a` leaves it
        b = tf.reduce_sum(a)  # breaks the run
        c = a * b  # a run of one: not fused, must read the block's output
        return tf.reduce_sum(c * 3.0 - a)

    apply_pass(fuse_elementwise, fn, tf.TensorSpec([8]), inputs=(np.arange(8, dtype=np.float32),))


def test_prune_drops_loop_variables_nothing_needs():
    def fn(x, n):
        def body(i, acc, unused):
            return i + 1, acc + x, unused * 2.0 + tf.reduce_sum(acc)
        return tf.while_loop(lambda i, acc, unused: i < n, body, [0, x, x])[1]

    before, after = apply_pass(prune, fn, F, tf.TensorSpec([], tf.int32), inputs=(X, np.int32(3)))
    (loop,) = [node for node in after.nodes if node.op.name == "while_loop"]
    assert loop.attrs["n_vars"] == 2 and len(loop.outputs) == 2
    assert "multiply" not in [n.op.name for n in loop.attrs["body_graph"].nodes]


def test_simplify_scales_the_smaller_matmul_operand():
    def fn(a, b):
        return 0.5 * tf.matmul(a, b, transpose_a=True)

    rng = np.random.default_rng(1)
    a = rng.standard_normal((8, 100)).astype(np.float32)
    b = rng.standard_normal((8, 50)).astype(np.float32)
    _, after = apply_pass(lambda g: prune(simplify(g)), fn, tf.TensorSpec([8, 100]), tf.TensorSpec([8, 50]),
                          inputs=(a, b))
    (scale,) = [n for n in after.nodes if n.op.name == "multiply"]
    assert scale.inputs[0]._shape == (8, 50)  # b (400 elements) is scaled, not the 100x50 product
