"""SavedModels whose functions hold while-loop and TensorArray gradients as TensorFlow 2.21 writes them: a
StatelessWhile/While with EmptyTensorList + TensorListPushBack accumulators, a gradient While that pops them
(TensorListPopBack), TensorArrays as TensorListReserve/SetItem/GetItem/Stack/FromTensor, and AddN/ZerosLike of
lists. tests/testdata/loop_gradients was written by real TF (tests/testdata/make_loop_gradients.py), with TF's
outputs in loop_gradients.json."""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

import tinytf as tf
from tinytf.saved_model.proto import SavedModel
from tinytf.saved_model.tf_library import NATIVE_LIBRARY

DATA = os.path.join(os.path.dirname(__file__), "testdata")
REFERENCE = json.load(open(os.path.join(DATA, "loop_gradients.json")))


@pytest.fixture(scope="module")
def loaded():
    return tf.saved_model.load(os.path.join(DATA, "loop_gradients"))


def _close(got: dict, want: dict):
    assert sorted(got) == sorted(want)
    for key in want:
        np.testing.assert_allclose(got[key].numpy(), want[key], rtol=2e-6, atol=1e-7, err_msg=key)


@pytest.mark.parametrize("x", ["0.5", "-1.25"])
def test_tf_while_loop_gradient_gives_tfs_numbers(loaded, passes, x):
    _close(loaded.while_grad(tf.constant(float(x))), REFERENCE[f"while_grad_{x}"])


def test_tf_autograph_for_loop_gradient_with_a_variable(loaded, passes):
    xs = np.array(REFERENCE["rnn_xs"], np.float32)
    _close(loaded.rnn_grad(tf.constant(xs)), REFERENCE["rnn_grad"])
    _close(loaded.rnn_grad(tf.constant(xs[:1])), REFERENCE["rnn_grad_1row"])  # the same trace, one iteration


def test_tf_tensor_array_gradient(loaded, passes):
    _close(loaded.tensor_array_grad(tf.constant([1.0, 2.0, 3.0])), REFERENCE["tensor_array_grad"])


def test_tf_cond_in_a_loop_gradient_through_optionals(loaded, passes):
    _close(loaded.cond_in_loop(tf.constant([0.5, -1.0, 2.0])), REFERENCE["cond_in_loop"])


def test_tf_map_fn_gradient(loaded, passes):
    _close(loaded.map_fn_grad(tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3) / 5)), REFERENCE["map_fn_grad"])


def test_tf_tensor_array_scatter_gather_concat_gradient(loaded, passes):
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    _close(loaded.gather_scatter(tf.constant(x)), REFERENCE["gather_scatter"])


def test_the_loaded_gradient_is_differentiable_again(loaded):
    # the second derivative of TF's program, through the imported list ops, against finite differences
    def first(x):
        return loaded.while_grad(x)["dy_dx"]

    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        g = first(x)
    second = float(tape.gradient(g, x))
    eps = 1e-2
    numeric = (float(first(tf.constant(0.5 + eps))) - float(first(tf.constant(0.5 - eps)))) / (2 * eps)
    np.testing.assert_allclose(second, numeric, rtol=2e-3)


def test_the_graph_holds_tfs_list_ops_as_tinytf_ops(loaded):
    graph = loaded.while_grad.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    kinds = set()

    def walk(g):
        for node in g.nodes:
            kinds.add(node.op.name)
            for _, sub in node.subgraph_items():
                walk(sub)

    walk(graph)
    assert {"tensor_list_empty", "tensor_list_push_back", "tensor_list_pop_back"} <= kinds


# --- tinytf writes them: TF 2.21 ran what tinytf exported (tests/testdata/check_tf_reads_loop_gradients.py) ---------
READ_BY_TF = json.load(open(os.path.join(DATA, "loop_gradients_read_by_tf.json")))


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    sys.path.insert(0, DATA)
    try:
        import tinytf_loop_gradients
    finally:
        sys.path.remove(DATA)
    return tinytf_loop_gradients, tinytf_loop_gradients.write(str(tmp_path_factory.mktemp("loop_gradients")), tf)


@pytest.mark.parametrize("name", ["own", "again"])
def test_tinytf_writes_the_ops_tf_ran(written, name):
    """`own`: tinytf's while-loop gradients (stacks as EmptyTensorList / TensorListPushBack / TensorListGetItem);
    `again`: TF's TensorList ops imported and written back. TF ran exactly these functions."""
    _, record = written
    assert record[name]["ops"] == READ_BY_TF[name]["ops"]
    kinds = {op for function in record[name]["ops"] for op, _ in function}
    assert {"StatelessWhile", "EmptyTensorList", "TensorListPushBack"} <= kinds
    if name == "again":
        assert {"TensorListPopBack", "TensorListSetItem", "TensorListStack", "TensorListFromTensor", "TensorListGather",
                "TensorListScatterIntoExistingList", "TensorListConcatV2", "TensorListSplit", "OptionalFromValue",
                "OptionalNone", "OptionalGetValue"} <= kinds


@pytest.mark.parametrize("name", ["own", "again"])
def test_tf_computed_tinytfs_numbers_from_tinytfs_export(written, name):
    _, record = written
    for call, outputs in READ_BY_TF[name]["tf"].items():
        for key, value in outputs.items():
            np.testing.assert_allclose(record[name]["tinytf"][call][key], value, rtol=2e-6, atol=1e-7,
                                       err_msg=f"{name}.{call}.{key}")


def test_round_trip_through_tinytfs_own_files(written, tmp_path, passes):
    """tinytf's export of its own loop gradients, loaded back by tinytf (its collection) and from the TF library
    alone (as a SavedModel TensorFlow wrote), gives the function's numbers."""
    helpers, _ = written
    module = helpers.own_module(tf)
    want = helpers.calls(module, tf)
    path = str(tmp_path / "own")
    tf.saved_model.save(module, path)
    assert helpers.calls(tf.saved_model.load(path), tf) == want
    model = SavedModel()
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        model.ParseFromString(f.read())
    del model.meta_graphs[0].collection_def[NATIVE_LIBRARY]  # what TensorFlow would have written
    with open(os.path.join(path, "saved_model.pb"), "wb") as f:
        f.write(model.SerializeToString())
    from_tf_ops = tf.saved_model.load(path)
    graph = from_tf_ops.while_grad.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    assert "tensor_list_push_back" in {n.op.name for node in graph.nodes for _, sub in node.subgraph_items()
                                       for n in sub.nodes}
    got = helpers.calls(from_tf_ops, tf)
    for call, outputs in want.items():
        for key, value in outputs.items():
            np.testing.assert_allclose(got[call][key], value, rtol=2e-6, atol=1e-7, err_msg=f"{call}.{key}")
