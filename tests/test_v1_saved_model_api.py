"""tf.compat.v1.saved_model's layout and utilities beyond the recorded conformance programs
(tests/conformance/tf1_saved_model_signatures.py): TF 2.21's submodule and top-level names, a SparseTensor's
TensorInfo saved in a signature and fed back after loading, an eager default in build_signature_def, and the
importable submodules."""

import importlib

import numpy as np
import pytest

import tinytf as tf

# TF 2.21's dir() of tf.compat.v1.saved_model's submodules (read from TensorFlow 2.21)
SUBMODULES = {
    "builder": ["SavedModelBuilder"],
    "loader": ["load", "maybe_saved_model_directory"],
    "main_op": ["main_op", "main_op_with_restore"],
    "signature_def_utils": ["MethodNameUpdater", "build_signature_def", "classification_signature_def",
                            "is_valid_signature", "predict_signature_def", "regression_signature_def"],
    "utils": ["build_tensor_info", "get_tensor_from_tensor_info"],
    "tag_constants": ["GPU", "SERVING", "TPU", "TRAINING"],
    "experimental": ["TrackableResource", "VariablePolicy", "save"],
}


@pytest.mark.parametrize("name", sorted(SUBMODULES))
def test_submodules_hold_tfs_names(name):
    module = getattr(tf.compat.v1.saved_model, name)
    assert sorted(n for n in dir(module) if not n.startswith("_")) == SUBMODULES[name]
    assert importlib.import_module(f"tinytf.compat.v1.saved_model.{name}") is module


def test_top_level_names_are_the_submodules_objects():
    sm = tf.compat.v1.saved_model
    for name in ("signature_def_utils", "utils", "constants", "signature_constants", "tag_constants"):
        module = getattr(sm, name)
        for attr in module.__all__:
            if attr != "MethodNameUpdater":  # TF has it only in signature_def_utils
                assert getattr(sm, attr) is getattr(module, attr), (name, attr)
    assert not hasattr(sm, "MethodNameUpdater") and not hasattr(sm, "SavedModelBuilder")


def test_sparse_signature_round_trip(tmp_path):
    """A SparseTensor input saved as a coo_sparse TensorInfo, rebuilt by get_tensor_from_tensor_info after the
    load, and fed a SparseTensorValue."""
    v1 = tf.compat.v1
    sm = v1.saved_model
    folder = str(tmp_path / "sparse")
    with tf.Graph().as_default():
        with v1.Session() as sess:
            sp = v1.sparse_placeholder(tf.float32, shape=[2, 3], name="sp")
            scale = v1.get_variable("scale", initializer=3.0)
            total = tf.multiply(sp.values, scale, name="total")
            sess.run(scale.initializer)
            builder = sm.Builder(folder)
            builder.add_meta_graph_and_variables(sess, ["serve"], {"s": sm.predict_signature_def({"sp": sp},
                                                                                                 {"t": total})})
            builder.save()
    with tf.Graph().as_default():
        with v1.Session() as sess:
            meta = sm.load(sess, ["serve"], folder)
            sig = meta.signature_def["s"]
            assert sig.inputs["sp"].WhichOneof("encoding") == "coo_sparse"
            sparse = sm.get_tensor_from_tensor_info(sig.inputs["sp"])
            value = v1.SparseTensorValue([[0, 0], [0, 2], [1, 1]], [1.0, 2.0, 4.0], [2, 3])
            got = sess.run(sm.get_tensor_from_tensor_info(sig.outputs["t"]), {sparse: value})
    np.testing.assert_allclose(got, [3.0, 6.0, 12.0])


def test_build_signature_def_takes_an_eager_default():
    sm = tf.compat.v1.saved_model
    signature = sm.build_signature_def(method_name="m", defaults={"k": tf.constant([1.5, 2.5])})
    assert tf.make_ndarray(signature.defaults["k"]).tolist() == [1.5, 2.5]
    assert signature.method_name == "m" and not signature.inputs


def test_main_op_runs_after_restore(tmp_path):
    """main_op_with_restore's group depends on main_op: running it initializes, as loading runs it."""
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        v = v1.get_variable("v", initializer=4.0)
        marker = tf.no_op(name="marker")
        op = v1.saved_model.main_op_with_restore(marker)
        with v1.Session() as sess:
            sess.run(op)
            assert sess.run(v) == 4.0
        with pytest.raises(TypeError, match="should be zero or more"):
            v1.saved_model.main_op.main_op_with_restore("marker")
