"""TF1-style SavedModels written by TensorFlow 2.21's SavedModelBuilder (tests/tf_files/tf1/v1_saved_model, made
by make_v1_saved_models.py there) loaded by tinytf's tf.compat.v1.saved_model.loader into a Session: the
variables restored, the main_op run (a local variable initialized), each signature's tensors fed and fetched,
with TF's numbers (expected.json); then MethodNameUpdater rewriting a copy, as TF's does."""

import json
import os
import shutil

import numpy as np
import pytest

import tinytf as tf

FOLDER = os.path.join(os.path.dirname(__file__), "tf_files", "tf1", "v1_saved_model")
with open(os.path.join(FOLDER, "expected.json")) as f:
    EXPECTED = json.load(f)

CASES = {"binary_serve": ("binary", ["serve"], "serving_default", "x"),
         "binary_regress": ("binary", ["serve"], "regress", "inputs"),
         "binary_gpu": ("binary", ["serve", "gpu"], "logits", "x"),
         "text_serve": ("text", ["serve"], "serving_default", "x")}


def _load_and_run(folder, tags, key, input_key, import_scope=None):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        with v1.Session() as sess:
            meta = v1.saved_model.loader.load(sess, tags, folder, import_scope=import_scope)
            sig = meta.signature_def[key]
            names = sorted(sig.outputs)
            fetches = [v1.saved_model.utils.get_tensor_from_tensor_info(sig.outputs[n], import_scope=import_scope)
                       for n in names]
            feed = v1.saved_model.get_tensor_from_tensor_info(sig.inputs[input_key], import_scope=import_scope)
            values = sess.run(fetches, {feed: EXPECTED["feeds"][input_key]})
            return meta, sig, dict(zip(names, values))


@pytest.mark.parametrize("case", sorted(CASES))
def test_tinytf_loads_tensorflows_v1_saved_model(case):
    folder, tags, key, input_key = CASES[case]
    meta, sig, values = _load_and_run(os.path.join(FOLDER, folder), tags, key, input_key)
    want = EXPECTED[case]
    assert sig.method_name == want["method"]
    assert sorted(meta.signature_def) == want["signatures"]
    assert sorted(meta.meta_info_def.tags) == want["tags"]
    assert {k: v.name for k, v in sig.inputs.items()} == want["inputs"]
    for name, (tensor_name, expected) in want["outputs"].items():
        assert sig.outputs[name].name == tensor_name
        np.testing.assert_allclose(values[name], expected, rtol=1e-6)


def test_import_scope_prefixes_the_loaded_graph():
    _, _, values = _load_and_run(os.path.join(FOLDER, "binary"), ["serve"], "serving_default", "x",
                                 import_scope="imported")
    np.testing.assert_allclose(values["total"], EXPECTED["binary_serve"]["outputs"]["total"][1], rtol=1e-6)


def test_maybe_saved_model_directory():
    loader = tf.compat.v1.saved_model.loader
    assert loader.maybe_saved_model_directory(os.path.join(FOLDER, "binary"))
    assert loader.maybe_saved_model_directory(os.fsencode(os.path.join(FOLDER, "text")))
    assert not loader.maybe_saved_model_directory(FOLDER)


@pytest.mark.parametrize("folder", ["binary", "text"])
def test_method_name_updater_rewrites_a_copy(tmp_path, folder):
    source = tmp_path / "source"
    shutil.copytree(os.path.join(FOLDER, folder), source)
    utils = tf.compat.v1.saved_model.signature_def_utils
    updater = utils.MethodNameUpdater(str(source))
    updater.replace_method_name("serving_default", "tensorflow/serving/classify", tags=["serve"])
    with pytest.raises(ValueError, match="does not have a signature_def with key: 'missing'"):
        updater.replace_method_name("missing", "m")
    target = tmp_path / "target"
    shutil.copytree(source, target)
    updater.save(str(target))
    meta, sig, values = _load_and_run(str(target), ["serve"], "serving_default", "x")
    assert sig.method_name == "tensorflow/serving/classify"
    assert not tf.compat.v1.saved_model.is_valid_signature(sig)  # a classify signature needs string inputs
    np.testing.assert_allclose(values["total"], EXPECTED["binary_serve"]["outputs"]["total"][1], rtol=1e-6)
    # the source is untouched until save() without a new directory
    assert _load_and_run(str(source), ["serve"], "serving_default", "x")[1].method_name == \
        "tensorflow/serving/predict"
    updater.save()
    assert _load_and_run(str(source), ["serve"], "serving_default", "x")[1].method_name == \
        "tensorflow/serving/classify"
