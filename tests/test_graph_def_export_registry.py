"""Registry-wide GraphDef export: every registered op is exported (and TensorFlow 2.21 ran its export), or is
written by the exporter itself, or is listed with the reason it is not (tinytf/graph_def/rules_more.py's
UNEXPORTED). tools/check_tf_runs_exported_ops.py exported one-node graphs of every sample of
tests/forward_samples.py, ran them in TF 2.21 against tinytf's outputs and recorded, per op, the samples TF ran
and the TF ops of the export (tests/tf_reference/graph_def_export_ops.json); here tinytf exports the same
samples again and must write the same TF ops."""

import json
import os

import pytest
from forward_check import _one_node_graph
from test_ops_registry_forward import invocations, library_ops

import tinytf as tf
from tinytf.graph_def.export import as_graph_def
from tinytf.graph_def.rules_more import UNEXPORTED

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "tf_reference", "graph_def_export_ops.json")) as _f:
    RECORDED = json.load(_f)

# Ops the forward samples cannot run alone, exported and checked by other tests.
EXPORTED_ELSEWHERE = {
    "placeholder": "the exporter's Placeholder/VarHandleOp: every export (tests/test_graph_def_export.py)",
    "const": "the exporter's Const: every export",
    "fused": "exported as its steps under the block's name (tests/test_graph_def_export.py, passes on)",
    "cond": "If/StatelessIf with branch functions (tests/test_graph_def_export.py, TF ran them)",
    "while_loop": "While/StatelessWhile with cond/body functions (tests/test_graph_def_export.py, TF ran them)",
    "read_variable": "ReadVariableOp (TF ran it in tests/test_graph_def_export.py and tinytf's SavedModels)",
    "var_is_initialized": "VarIsInitializedOp (TF ran the TF1 graphs of tests/test_graph_def_export.py holding it, "
                          "and tests/test_tf1_variable_checks.py imports it back)",
    "assign_variable": "AssignVariableOp (TF ran it in tests/test_graph_def_export.py and the counter SavedModel)",
    "read_file": "ReadFile (TF ran it in the asset SavedModel of tests/test_saved_model_tf_reads.py)",
    "write_file": "WriteFile (the ReadFile rule's twin; test_write_file_and_calls_export below)",
    "no_op": "NoOp (test_write_file_and_calls_export below)",
    "timestamp": "Timestamp, stateful (tests/test_core_api_ops.py exports it and TF's op registry knows it)",
    **{f"tensor_array_{name}": "TF's TensorList ops (TF ran them in the tensor_array SavedModel of "
       "tests/test_saved_model_tf_reads.py)"
       for name in ("new", "write", "read", "stack", "gather", "concat", "unstack", "scatter", "size")},
    **{f"tensor_list_{name}": "TF's TensorList ops one for one (TF ran them in the SavedModels of "
       "tests/test_saved_model_loop_gradients.py: `again`, TF's loop gradients imported and written back; "
       "TensorListResize in `own`, where TensorArray gradients use it)"
       for name in ("empty", "reserve", "from_tensor", "push_back", "pop_back", "get_item", "set_item", "stack",
                    "length", "element_shape", "zeros_like", "add", "resize", "scatter_into_existing", "gather",
                    "concat", "split")},
    **{f"optional_{name}": "TF's Optional ops one for one (TF ran them: the `again` SavedModel of "
       "tests/test_saved_model_loop_gradients.py, a cond in a loop's gradient)"
       for name in ("from_value", "none", "get_value")},
    "optional_has_value": "TF's OptionalHasValue, one for one (TF's cond gradients do not use it, so no graph TF ran "
                          "holds it yet)",
    **{name: "a while-loop gradient's stack as TF's accumulator: EmptyTensorList / TensorListPushBack / "
       "TensorListGetItem (TF ran them: the `own` SavedModel of tests/test_saved_model_loop_gradients.py)"
       for name in ("gradient_stack", "gradient_stack_push", "gradient_stack_read")},
    **{f"gradient_list_{name}": "a TensorArray gradient as TF's TensorList ops, grown with TensorListResize where "
       "tinytf reads past the end (TF ran them: the `own` SavedModel of tests/test_saved_model_loop_gradients.py)"
       for name in ("read", "set", "add", "clear", "unstack", "stack", "scatter", "gather")},
    "gradient_stack_take": "gradient_stack_read's TensorListGetItem (the stack_release pass makes it, so only "
                           "as_graph_def(optimized=True) shows it: tests/test_saved_model_loop_gradients.py)",
    **{name: "TF's stateful random kernel with the op's (seed, seed2) (TF ran them in the random SavedModel of "
       "tests/test_saved_model_tf_reads.py, drawing tinytf's numbers)"
       for name in ("random_uniform", "random_standard_normal", "truncated_normal", "random_uniform_int",
                    "random_shuffle")},
    "print": "StringFormat + PrintV2 (TF ran it in the printing SavedModel of tests/test_saved_model_tf_reads.py)",
    "py_function": "EagerPyFunc: drawn in TensorBoard; runs only in the process holding the function",
    "numpy_function": "PyFunc: drawn in TensorBoard; runs only in the process holding the function",
}
EXPORTED_ELSEWHERE.update({  # tf.lookup's tables: TF 2.21 loaded tinytf's SavedModels of them and ran these
    **{f"lookup_table_{name}": "TF's LookupTable*V2 on the table a SavedModel binds (tests/test_savetab_tables.py, "
       "tools/savetab_tables_read_by_tf.py)" for name in ("find", "insert", "remove", "size", "export", "import")},
})
EXPORTED_ELSEWHERE.update({  # TF1's queues: TF 2.21 imported and ran the export (tests/test_tf1_queues.py)
    **{name: "TF's Queue*V2 ops on the FIFOQueueV2 (...) node the exporter writes for the captured queue "
       "(tests/test_tf1_queues.py::test_queue_graphs_export_as_tf_writes_them)"
       for name in ("queue_enqueue", "queue_dequeue", "queue_size", "queue_close", "queue_is_closed")},
    "count_up_to": "ResourceCountUpTo (tests/test_tf1_queues.py::test_queue_graphs_export_as_tf_writes_them)",
})


def test_every_op_is_exported_or_has_a_reason():
    unaccounted = []
    for name in library_ops():
        verified = RECORDED.get(name, {}).get("ran", 0) > 0
        if (name in UNEXPORTED) + verified + (name in EXPORTED_ELSEWHERE) != 1:
            unaccounted.append(name)
    assert not unaccounted, ("ops neither exported and run by TF (tools/check_tf_runs_exported_ops.py), nor "
                             f"exported elsewhere, nor listed in UNEXPORTED with a reason (or more than one): "
                             f"{unaccounted}")


def test_tables_are_current():
    ops = set(library_ops())
    assert not set(UNEXPORTED) - ops and not set(EXPORTED_ELSEWHERE) - ops


VERIFIED = sorted(name for name, entry in RECORDED.items() if entry.get("ran"))


@pytest.mark.parametrize("name", VERIFIED)
def test_export_is_what_tensorflow_ran(name):
    """The first sample TF ran exports today to the same TF ops (so TF would run it again)."""
    expected = RECORDED[name]["tf_ops"]
    for inv in invocations()[name]:
        graph, _ = _one_node_graph(inv, const_inputs=())
        try:
            graph_def = as_graph_def(graph)
        except NotImplementedError:
            continue  # a sample whose attributes have no TF form (recorded as such); a later one did run
        if sorted({node.op for node in graph_def.node}) == expected:
            return
    pytest.fail(f"no sample of {name} exports to the TF ops TF ran: {expected}")


@pytest.mark.parametrize("name", sorted(n for n in UNEXPORTED if n in invocations()))
def test_unexported_ops_say_why(name):
    graph, _ = _one_node_graph(invocations()[name][0], const_inputs=())
    with pytest.raises(NotImplementedError, match=f"'{name}'"):
        as_graph_def(graph)


def test_write_file_and_calls_export(tmp_path):
    @tf.function
    def f(x):
        tf.io.write_file(str(tmp_path / "out.txt"), tf.strings.as_string(x))
        return tf.py_function(lambda v: v * 2, [x], tf.float32)

    graph_def = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph.as_graph_def()
    ops = {node.op for node in graph_def.node}
    assert {"WriteFile", "AsString", "EagerPyFunc"} <= ops


@pytest.mark.parametrize("passes", ["on", "none"])
def test_gradients_of_unknown_batch_export(passes, monkeypatch):
    """The gradient helpers with shapes known only at run time: no NotImplementedError, TF's Shape-based ops
    (TF ran such a graph: tests/graph_def_cases gradient_unknown_batch)."""
    if passes == "none":
        monkeypatch.setenv("TINYTF_PASSES", "none")
    w = tf.Variable([[1.0], [2.0]])

    @tf.function
    def grads(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_mean(tf.reduce_sum(x * w[:, 0], axis=1) ** 2) + tf.reduce_sum(tf.reshape(x, [-1]))
        return tape.gradient(loss, [x, w])

    graph_def = grads.get_concrete_function(tf.TensorSpec([None, 2], tf.float32)).graph.as_graph_def()
    assert "Shape" in {node.op for node in graph_def.node}
