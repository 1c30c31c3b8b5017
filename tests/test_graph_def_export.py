"""GraphDef export: tinytf graphs in TF's GraphDef (TF's op names, If/While with their branches and bodies as
FunctionDefs, TF's loop layout), checked against TensorFlow 2.21 itself: tools/record_graph_def_reference.py
wrote the GraphDefs of tests/graph_def_cases/ and ran them in TF (import_graph_def, Session.run); here tinytf
runs the same functions and must give TF's outputs and leave the variables as TF left them."""

import json
import os

import numpy as np
import pytest
from google.protobuf import text_format
from graph_def_cases import CASES, concrete, v1_graph, v1_graph_initializers
from tensorboard.compat.proto import graph_pb2

import tinytf as tf

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "tf_reference", "graph_def_export.json")) as _f:
    REFERENCE = json.load(_f)

# Ops each case's GraphDef must hold, whatever the graph passes did (TF ran the recorded ones).
REQUIRED_OPS = {
    "collatz": {"StatelessWhile", "StatelessIf", "FloorMod", "FloorDiv", "Greater", "Placeholder"},
    "dense_with_state": {"MatMul", "Relu", "ReadVariableOp", "AssignVariableOp", "StridedSlice", "Sum", "Softmax",
                         "ArgMax", "Mean"},
    # its loop: While as traced; StatelessWhile optimized, where the weights are read before it (loop_variable_reads)
    "rnn_loop": {"Tanh", "MatMul", "ReadVariableOp", "StridedSlice", "Shape", "Less"},
    "elementwise": {"Sigmoid", "Cast", "ConcatV2", "Transpose", "Reshape", "SelectV2", "Pack", "Squeeze",
                    "ExpandDims", "ClipByValue", "Exp", "Abs", "Max"},
    "nested_cond_with_state": {"If", "AssignVariableOp", "Sum"},
    "small_cnn": {"Conv2D", "MaxPool", "AvgPool", "Relu", "Reshape", "StridedSlice", "MatMul"},
    "gradient_step": {"MatMul", "Relu", "Mean", "AssignVariableOp", "ReadVariableOp"},
    # the gradient helpers on a batch of unknown size: target shapes read at run time
    "gradient_unknown_batch": {"Shape", "BroadcastTo", "BroadcastGradientArgs", "Tanh", "MatMul", "Sum"},
    "export_forms": {"Abs", "Max", "Pow", "Sum", "Squeeze", "Transpose", "MatMul", "Rank", "Range"},
    "gradient_forms": {"Conv2DBackpropInput", "Conv2DBackpropFilter", "UnsortedSegmentSum", "ConcatV2", "GatherV2"},
    "explicit_and_broadcast_forms": {"DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput",
                                     "DepthwiseConv2dNativeBackpropFilter", "BroadcastTo", "Where", "GatherV2",
                                     "UnsortedSegmentSum"},
    "v1_graph": {"VarHandleOp", "ReadVariableOp", "MatMul", "Relu", "Placeholder"},
    "v1_graph_initializers": {"VarHandleOp", "AssignVariableOp", "RandomStandardNormal", "RandomUniform", "NoOp"},
}


def _expected(record):
    return np.array(record["value"], record["dtype"])


def _ops(graph_def):
    return {n.op for n in graph_def.node} | {n.op for f in graph_def.library.function for n in f.node_def}


@pytest.mark.parametrize("name", sorted(CASES))
def test_tinytf_gives_what_tensorflow_computed_from_the_exported_graph(name):
    function, traced, feeds = concrete(CASES[name](tf))
    graph_def = traced.graph.as_graph_def(optimized=True)  # the graph that runs: the references are per mode
    passes_on = not tf.config.optimizer.get_experimental_options().get("disable_all")
    reference = REFERENCE["cases"][name if passes_on else f"{name}.nopasses"]
    assert REQUIRED_OPS[name] <= _ops(graph_def) == set(reference["ops"])
    if name == "rnn_loop":
        assert ("StatelessWhile" if passes_on else "While") in _ops(graph_def)
    outputs = traced(*[tf.constant(v) for v in feeds.values()])
    outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    assert len(outputs) == len(reference["outputs"])
    for got, want in zip(outputs, reference["outputs"]):
        want = _expected(want)
        assert got.numpy().dtype == want.dtype
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6, err_msg=name)
    variables = {c.outer.name.split(":")[0]: c.outer for c in traced.graph.captures.values() if c.kind == "resource"}
    for key, want in reference["variables_after"].items():
        variable = variables[key]
        np.testing.assert_allclose(variable.numpy(), _expected(want), rtol=1e-5, err_msg=f"{name}: {key}")


def test_v1_graph_exports_its_variables_as_handles():
    graph, feeds, variables, fetches = v1_graph(tf)
    graph_def = graph.as_graph_def()
    assert REQUIRED_OPS["v1_graph"] <= _ops(graph_def)
    handle = next(n for n in graph_def.node if n.op == "VarHandleOp")
    assert handle.name == "w" and handle.attr["shared_name"].s == b"w"
    assert [d.size for d in handle.attr["shape"].shape.dim] == [3, 2]
    with graph.as_default():
        init = tf.compat.v1.global_variables_initializer()
    with tf.compat.v1.Session(graph=graph) as session:
        session.run(init)
        (got,) = session.run(fetches, {graph.get_tensor_by_name("x:0"): feeds["x"]})
    np.testing.assert_allclose(got, _expected(REFERENCE["cases"]["v1_graph"]["outputs"][0]))


def test_v1_graph_initial_values_run_in_tensorflow():
    """TF ran the exported graph's own `init` (a seeded random normal, Glorot and zeros from get_variable, a value
    computed from a fed placeholder) and fetched; tinytf's session gives the same numbers from the same graph."""
    graph, feeds, init, fetches = v1_graph_initializers(tf)
    graph_def = graph.as_graph_def()
    reference = REFERENCE["cases"]["v1_graph_initializers"]
    assert REQUIRED_OPS["v1_graph_initializers"] <= _ops(graph_def) == set(reference["ops"])
    nodes = {n.name: n for n in graph_def.node}
    assert nodes["v/Assign"].input == ["v", "random_normal"] and nodes["init"].op == "NoOp"
    assert {"^v/Assign", "^layer/k/Assign", "^layer/b/Assign", "^u/Assign"} == set(nodes["init"].input)
    with tf.compat.v1.Session(graph=graph) as session:
        session.run(init, {"x:0": feeds["x"]})
        outputs = session.run(fetches, {"x:0": feeds["x"]})
    for got, want in zip(outputs, reference["outputs"]):
        np.testing.assert_allclose(got, _expected(want), rtol=1e-6)


def test_committed_graph_defs_are_what_the_exporter_writes_today():
    """The files TF ran are the exporter's current output, up to variable placeholders' numbered names."""
    passes_on = not tf.config.optimizer.get_experimental_options().get("disable_all")
    for name, build in CASES.items():
        function, traced, _ = concrete(build(tf))
        fresh = traced.graph.as_graph_def(optimized=True)
        committed = graph_pb2.GraphDef()
        file = f"{name}.pb" if passes_on else f"{name}.nopasses.pb"
        with open(os.path.join(HERE, "tf_files", "graph_defs", file), "rb") as f:
            committed.ParseFromString(f.read())
        assert [n.op for n in fresh.node] == [n.op for n in committed.node], name
        assert sorted(len(f.node_def) for f in fresh.library.function) == \
            sorted(len(f.node_def) for f in committed.library.function), name


def _graph(name):
    return concrete(CASES[name](tf))[1].graph


def _collatz_graph_def():
    return _graph("collatz").as_graph_def()


def test_loops_and_branches_are_functions_in_the_library():
    graph_def = _collatz_graph_def()
    (loop,) = [n for n in graph_def.node if n.op == "StatelessWhile"]
    assert loop.name == "while"
    functions = {f.signature.name: f for f in graph_def.library.function}
    cond, body = functions[loop.attr["cond"].func.name], functions[loop.attr["body"].func.name]
    # TF's while_v2 layout: loop counter and limit first, then the loop variables (n, steps)
    assert [a.name for a in body.signature.input_arg][:2] == ["loop_counter", "maximum_iterations"]
    assert len(body.signature.input_arg) == len(body.signature.output_arg) == 4
    assert len(cond.signature.output_arg) == 1
    assert all(n.name.startswith("while/") for n in body.node_def)
    (branch,) = [n for n in body.node_def if n.op == "StatelessIf"]
    assert branch.name == "while/cond" and branch.attr["then_branch"].func.name in functions
    # inside a function a tensor is node:output_arg:index (TF's FunctionDef convention)
    assert any(i.endswith(":z:0") for n in body.node_def for i in n.input)
    assert set(body.ret.values()) <= {f"{n.name}:output:0" for n in body.node_def if n.op == "Identity"}
    (out,) = [n for n in graph_def.node if n.op == "Identity"]
    assert out.input == ["while:3"]  # steps, after the counter, the limit and n


def test_stateful_outputs_wait_for_side_effects():
    function, traced, _ = concrete(CASES["dense_with_state"](tf))
    graph_def = traced.graph.as_graph_def()
    # TF's automatic control dependencies: each output's Identity waits for a NoOp waiting for every stateful op
    assign = next(n.name for n in graph_def.node if n.op == "AssignVariableOp")
    (noop,) = [n for n in graph_def.node if n.op == "NoOp"]
    assert f"^{assign}" in noop.input
    assert {i for n in graph_def.node if n.op in ("ReadVariableOp", "AssignVariableOp") for i in [f"^{n.name}"]} \
        == set(noop.input)
    for node in graph_def.node:
        if node.op == "Identity":
            assert node.input[-1] == f"^{noop.name}"
    operations = traced.graph.get_operations()
    assert [op.type for op in operations[-2:]] == ["Identity", "NoOp"] and operations[-1].name == noop.name


def test_serialized_forms_round_trip(tmp_path):
    graph_def = _collatz_graph_def()
    assert graph_pb2.GraphDef.FromString(graph_def.SerializeToString()) == graph_def
    text_path = tf.io.write_graph(_graph("collatz"), tmp_path, "collatz.pbtxt")
    binary_path = tf.io.write_graph(graph_def, str(tmp_path), "collatz.pb", as_text=False)
    with open(text_path) as f:
        assert text_format.Parse(f.read(), graph_pb2.GraphDef()) == graph_def
    with open(binary_path, "rb") as f:
        assert graph_pb2.GraphDef.FromString(f.read()) == graph_def
    assert sorted(os.listdir(tmp_path)) == ["collatz.pb", "collatz.pbtxt"]  # no temporary files left


def test_write_graph_rejects_other_objects(tmp_path):
    with pytest.raises(TypeError, match="expected a graph or a GraphDef"):
        tf.io.write_graph([1, 2], tmp_path, "x.pb")


def test_ops_without_a_tf_counterpart_are_named():
    @tf.function
    def f(x):
        return tf.strings.split(x)  # a RaggedTensor's parts: not exported (tinytf/graph_def/rules_more.py)

    graph = f.get_concrete_function(tf.TensorSpec([2], tf.string)).graph
    with pytest.raises(NotImplementedError, match="string_split.*RaggedTensor"):
        graph.as_graph_def()


@pytest.mark.parametrize("passes", ["on", "off"])
def test_same_structure_with_and_without_passes(passes, monkeypatch):
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"disable_all": passes == "off"})
    try:
        graph_def = _collatz_graph_def()
    finally:
        tf.config.optimizer.set_experimental_options(saved)
    assert {"StatelessWhile", "StatelessIf", "FloorMod"} <= _ops(graph_def)
    assert len(graph_def.library.function) == 4  # loop condition, loop body, two branches


def test_add_shapes_gives_each_node_its_output_shapes():
    graph = _graph("collatz")
    assert not any("_output_shapes" in n.attr for n in graph.as_graph_def().node)
    graph_def = graph.as_graph_def(add_shapes=True)
    (loop,) = [n for n in graph_def.node if n.op == "StatelessWhile"]
    assert len(loop.attr["_output_shapes"].list.shape) == 4  # counter, limit, n, steps
    placeholder = next(n for n in graph_def.node if n.op == "Placeholder")
    assert list(placeholder.attr["_output_shapes"].list.shape[0].dim) == []


def test_fused_blocks_are_their_steps_under_the_block_name(all_passes):
    @tf.function
    def f(x):
        return tf.nn.relu(x * 2.0 + 1.0)

    graph = f.get_concrete_function(tf.TensorSpec([3])).graph
    (fused,) = [n for n in graph.nodes if n.op.name == "fused"]
    graph_def = graph.as_graph_def(optimized=True)
    steps = [n for n in graph_def.node if n.name.startswith(f"{fused.name}/") and n.op != "Const"]
    assert [n.op for n in steps] == ["Mul", "AddV2", "Relu"]
    assert all(n.name.startswith(f"{fused.name}/") for n in graph_def.node if n.op == "Const")  # its literals


@pytest.mark.parametrize("name", sorted(set(CASES) - {"v1_graph", "v1_graph_initializers"}))
def test_a_function_graph_exports_as_traced_whatever_the_passes_did(name):
    """`concrete.graph.as_graph_def()` is the graph as traced, as TF shows it: with the passes on it is what the
    passes-off run exports (the GraphDef TF 2.21 ran to the recorded outputs), node for node."""
    function, traced, _ = concrete(CASES[name](tf))
    graph_def = traced.graph.as_graph_def()
    reference = REFERENCE["cases"][f"{name}.nopasses"]
    assert _ops(graph_def) == set(reference["ops"])
    committed = graph_pb2.GraphDef()
    with open(os.path.join(HERE, "tf_files", "graph_defs", f"{name}.nopasses.pb"), "rb") as f:
        committed.ParseFromString(f.read())
    assert [n.op for n in graph_def.node] == [n.op for n in committed.node]
    assert [n.name for n in graph_def.node if n.op != "Placeholder"] == \
        [n.name for n in committed.node if n.op != "Placeholder"]


def test_traced_view_and_optimized_graph_differ_where_the_passes_fused(all_passes):
    @tf.function
    def f(x):
        with tf.name_scope("sc"):
            y = x * 2.0
        return tf.nn.relu(y + 1.0), tf.reduce_sum(y)

    graph = f.get_concrete_function(tf.TensorSpec([3])).graph
    traced = [(n.name, n.op, list(n.input)) for n in graph.as_graph_def().node]
    # TF 2.21's graph of the same function (concrete.graph.as_graph_def(), printed by TF)
    assert traced == [("x", "Placeholder", []), ("sc/mul/y", "Const", []), ("sc/mul", "Mul", ["x", "sc/mul/y"]),
                      ("add/y", "Const", []), ("add", "AddV2", ["sc/mul", "add/y"]), ("Relu", "Relu", ["add"]),
                      ("Const", "Const", []), ("Sum", "Sum", ["sc/mul", "Const"]),
                      ("Identity", "Identity", ["Relu"]), ("Identity_1", "Identity", ["Sum"])]
    # (TF also lists the reduction's axes `Const`, which tinytf writes only in the GraphDef)
    assert [(o.name, o.type) for o in graph.get_operations()] == [(n[0], n[1]) for n in traced if n[0] != "Const"]
    (fused,) = [n for n in graph.nodes if n.op.name == "fused"]  # the graph that runs fused the steps
    optimized = graph.as_graph_def(optimized=True)  # tinytf's own view: the steps under the block's name
    assert any(n.name.startswith(f"{fused.name}/") for n in optimized.node)
    assert not any(n.name.startswith(f"{fused.name}/") for n in graph.as_graph_def().node)


def test_get_operations_ends_with_the_output_identities():
    """TF's FuncGraph passes each output through an Identity (`Identity`, `Identity_1`, past names taken)."""
    @tf.function
    def f(x):
        return {"a": tf.identity(x, name="Identity"), "b": [x * 2.0]}

    graph = f.get_concrete_function(tf.TensorSpec([2])).graph
    ops = graph.get_operations()
    assert [(o.name, o.type) for o in ops] == [("x", "Placeholder"), ("Identity", "Identity"), ("mul/y", "Const"),
                                              ("mul", "Mul"), ("Identity_1", "Identity"), ("Identity_2", "Identity")]
    (source,) = ops[-1].inputs
    assert source.node.tf_name == "mul" and ops[-1].outputs[0].shape == [2]
    assert graph.get_operation_by_name("Identity_2") == ops[-1]
    assert graph.get_operations()[-1] == ops[-1]  # the same Operation each time
    assert [n.name for n in graph.as_graph_def().node if n.op == "Identity"] == ["Identity", "Identity_1",
                                                                                "Identity_2"]
