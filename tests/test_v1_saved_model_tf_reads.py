"""TF 2.21 loads the TF1-style SavedModels tinytf writes: tools/check_tf_loads_tinytf_v1_saved_models.py wrote
three with tinytf (SavedModelBuilder with two MetaGraphDefs and a main_op, the same as text, simple_save),
loaded each in TF 2.21 with tf.compat.v1.saved_model.load into a Session and with TF2's tf.saved_model.load
(calling its signatures), and recorded the results in tests/tf_reference/tinytf_v1_saved_models_read_by_tf.json.
Here tinytf writes them again: the digests must be the recorded ones (the files TF loaded are the files tinytf
writes today), and tinytf's own loader must compute TF's numbers from them."""

import importlib.util
import json
import os

import numpy as np
import pytest

import tinytf as tf

HERE = os.path.dirname(__file__)


def _tool():
    path = os.path.join(HERE, os.pardir, "tools", "check_tf_loads_tinytf_v1_saved_models.py")
    spec = importlib.util.spec_from_file_location("check_tf_loads_tinytf_v1_saved_models", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def recorded():
    with open(os.path.join(HERE, "tf_reference", "tinytf_v1_saved_models_read_by_tf.json")) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("tinytf_v1_saved_models"))
    _tool().write(tf, folder)
    return folder


def test_the_files_are_the_ones_tensorflow_loaded(written, recorded):
    assert _tool().digests(written) == recorded["digests"]


def test_tensorflow_computed_the_models_numbers_in_both_loaders(recorded):
    """TF's Session loader and TF2's signatures agree (and every planned run was recorded)."""
    tool = _tool()
    assert len(recorded["read"]) == sum(len(runs) for runs in tool.RUNS.values())
    for key, result in recorded["read"].items():
        assert sorted(result["tf2"]) == sorted(result["session"]["outputs"]), key
        for name, values in result["tf2"].items():
            np.testing.assert_allclose(values, result["session"]["outputs"][name], rtol=1e-6, err_msg=key)


def test_tinytf_loads_them_with_tensorflows_numbers(written, recorded):
    tool = _tool()
    v1 = tf.compat.v1
    for name, runs in tool.RUNS.items():
        for tags, key, input_key in runs:
            want = recorded["read"][f"{name}:{'+'.join(tags)}:{key}"]["session"]
            with tf.Graph().as_default():
                with v1.Session() as sess:
                    meta = v1.saved_model.load(sess, tags, os.path.join(written, name))
                    sig = meta.signature_def[key]
                    names = sorted(sig.outputs)
                    values = sess.run([sig.outputs[n].name for n in names],
                                      {sig.inputs[input_key].name: recorded["feeds"][input_key]})
            assert sig.method_name == want["method"]
            assert sorted(meta.signature_def) == want["signatures"]
            assert sorted(meta.meta_info_def.tags) == want["tags"]
            for n, value in zip(names, values):
                np.testing.assert_allclose(value, want["outputs"][n], rtol=1e-6, err_msg=f"{name} {key} {n}")
