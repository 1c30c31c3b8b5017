"""TensorFlow 2.21 loads the SavedModels tinytf writes: tools/check_tf_loads_tinytf_saved_models.py wrote five
SavedModels with tinytf (the issue's Adder, a variable updated by assign_add, tf.cond and while_loop through
AutoGraph, tf.functions without input signatures (one taking and returning an ExtensionType registered by name),
a Keras MLP through `model.export` (and its gradient, as fine-tuning takes it) and through
`tf.saved_model.save(model)`, a small Keras CNN, tf.print, TensorArrays, seeded random ops, a tf.saved_model.Asset),
loaded them in TF 2.21, called their functions and signatures, ran `saved_model_cli show --all`, computed their
fingerprints and the errors of a missing asset and a corrupted or missing fingerprint, and recorded it all in
tests/tf_reference/tinytf_saved_models_read_by_tf.json. Here tinytf writes the same SavedModels again: their
digests must be the recorded ones (the files TF loaded are the files tinytf writes today), and tinytf's own
loader must compute TF's numbers from them, with passes on and off."""

import importlib.util
import json
import os

import pytest

import tinytf as tf
from tinytf.saved_model.tf_library import NATIVE_LIBRARY

HERE = os.path.dirname(__file__)


def _tool():
    path = os.path.join(HERE, os.pardir, "tools", "check_tf_loads_tinytf_saved_models.py")
    spec = importlib.util.spec_from_file_location("check_tf_loads_tinytf_saved_models", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def recorded():
    with open(os.path.join(HERE, "tf_reference", "tinytf_saved_models_read_by_tf.json")) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("tinytf_saved_models"))
    _tool().write(tf, folder)
    return folder


def test_the_files_are_the_ones_tensorflow_loaded(written, recorded):
    assert _tool().digests(written) == recorded["digests"]


def test_fingerprints_are_the_ones_tensorflow_computes(written, recorded):
    """fingerprint.pb holds the hashes TF's own C++ fingerprinting computed from the same files."""
    tool = _tool()
    for name, expected in recorded["fingerprints"].items():
        mine = tf.saved_model.experimental.read_fingerprint(os.path.join(written, name))
        got = {field: str(getattr(mine, field)) for field in tool.FINGERPRINT_FIELDS}
        got["version.producer"] = mine.version.producer
        assert got == expected, name
        assert mine.singleprint() == "/".join(expected[f] for f in tool.FINGERPRINT_FIELDS[1:])


def _assert_close(got, want, where="read"):
    """Equal structures; floats within float32 rounding (TF's and numpy's kernels may differ in the last bit)."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), where
        for key in want:
            _assert_close(got[key], want[key], f"{where}.{key}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            _assert_close(g, w, f"{where}[{i}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=1e-5, abs=1e-6), where
    else:
        assert got == want, where


def test_tinytf_computes_what_tensorflow_computed(written, recorded):
    _assert_close(json.loads(json.dumps(_tool().read(tf, written))), recorded["read"])


def test_saved_model_cli_showed_every_signature(recorded):
    for name, shown in recorded["cli"].items():
        assert shown["returncode"] == 0, name
        if name == "traced":  # tf.functions without input signatures: TF makes no serving signature of them
            assert shown["lines"] == ["Function Name: 'double'", "Function Name: 'grow'"]
            continue
        assert any(line.startswith("signature_def['serving_default']") for line in shown["lines"]), name
    assert "inputs['keras_tensor'] tensor_info:" in recorded["cli"]["keras_export"]["lines"]
    assert "Function Name: '__call__'" in recorded["cli"]["adder"]["lines"]


def test_the_library_speaks_tensorflow_and_keeps_tinytf_graphs(written):
    """TF's loader reads graph_def.library (TF op names, variables as DT_RESOURCE arguments, branches as
    functions); tinytf's reads its own graphs from the collection."""
    from tinytf.saved_model.load import read_meta_graph

    meta = read_meta_graph(os.path.join(written, "control_flow"))
    ops = {node.op for f in meta.graph_def.library.function for node in f.node_def}
    assert {"ReadVariableOp", "StatelessIf", "StatelessWhile", "Mul", "AddV2"} <= ops or \
        {"ReadVariableOp", "If", "While"} & ops, ops
    assert not {"read_variable", "while_loop", "cond"} & ops  # no tinytf op names for TF to trip over
    top = set(meta.object_graph_def.concrete_functions)
    resource_args = [a for f in meta.graph_def.library.function if f.signature.name in top
                     for a in f.signature.input_arg if a.type == 20]  # DT_RESOURCE: the captured variable
    assert resource_args and all(a.handle_data for a in resource_args)
    assert NATIVE_LIBRARY in meta.collection_def
    counter = read_meta_graph(os.path.join(written, "counter"))
    assert "AssignAddVariableOp" in {n.op for f in counter.graph_def.library.function for n in f.node_def} or \
        "AssignVariableOp" in {n.op for f in counter.graph_def.library.function for n in f.node_def}


def test_without_its_native_graphs_tinytf_loads_the_tensorflow_dialect(written, tmp_path):
    """The TF-dialect library alone (as TF would rewrite it) still loads in tinytf, through the importer."""
    import shutil

    from tinytf.saved_model.load import read_meta_graph
    from tinytf.saved_model.proto import SavedModel

    folder = tmp_path / "adder"
    shutil.copytree(os.path.join(written, "adder"), folder)
    meta = read_meta_graph(str(folder))
    del meta.collection_def[NATIVE_LIBRARY]
    payload = SavedModel(saved_model_schema_version=1)
    payload.meta_graphs.add().ParseFromString(meta.SerializeToString())
    (folder / "saved_model.pb").write_bytes(payload.SerializeToString())
    loaded = tf.saved_model.load(str(folder))
    assert loaded(tf.constant([1.0, 2.0])).numpy().tolist() == [4.0, 5.0]
