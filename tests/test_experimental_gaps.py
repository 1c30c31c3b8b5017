"""tf.experimental's DLPack exchange, execution switches, native-library loaders and the GPU-only top-level ops
(helper gapsa): real where numpy can do the work, TF's CPU-build errors elsewhere."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf


def test_dlpack_round_trip_shares_memory_with_numpy():
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    capsule = tf.experimental.dlpack.to_dlpack(t)
    assert type(capsule).__name__ == "PyCapsule"
    back = tf.experimental.dlpack.from_dlpack(capsule)
    assert back.dtype is tf.float32 and back.numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="consumed at most once"):
        tf.experimental.dlpack.from_dlpack(capsule)
    array = np.arange(6, dtype=np.int64).reshape(2, 3)
    from_numpy = tf.experimental.dlpack.from_dlpack(array.__dlpack__())
    assert from_numpy.dtype is tf.int64 and from_numpy.numpy().tolist() == array.tolist()
    assert np.from_dlpack(tf.constant([1, 2])).tolist() == [1, 2]  # tensors speak the protocol too
    assert (tf.reduce_sum(tf.experimental.dlpack.from_dlpack(np.ones(3, np.float16).__dlpack__()))).numpy() == 3


def test_dlpack_refuses_strings_and_non_capsules():
    with pytest.raises(tf.errors.InvalidArgumentError, match="string"):
        tf.experimental.dlpack.to_dlpack(tf.constant(["a"]))
    with pytest.raises(TypeError, match="capsule"):
        tf.experimental.dlpack.from_dlpack(np.arange(3.0))


def test_execution_switches_are_context_managers():
    with tf.experimental.async_scope():
        x = tf.constant(1) + 1
    assert tf.experimental.async_clear_error() is None and int(x) == 2
    with tf.experimental.function_executor_type("SINGLE_THREADED_EXECUTOR"):
        assert int(tf.function(lambda: tf.constant(2))()) == 2
    assert tf.experimental.enable_strict_mode() is None


def test_native_libraries_missing_files_raise_tf_classes(tmp_path):
    with pytest.raises(FileNotFoundError, match="The file to load file system plugin from does not exist"):
        tf.experimental.register_filesystem_plugin("/nope.so")
    with pytest.raises(FileNotFoundError, match="The file or folder to load kernel libraries from does not exist"):
        tf.load_library("/nope.so")
    with pytest.raises(tf.errors.NotFoundError, match="cannot open shared object file"):
        tf.load_op_library("/nope.so")
    assert tf.load_library(str(tmp_path)) is None  # a folder without .so files loads nothing, as in TF
    (tmp_path / "k.so").write_bytes(b"\x7fELF")
    with pytest.raises(NotImplementedError, match="cannot load C\\+\\+ kernels"):
        tf.load_op_library(str(tmp_path / "k.so"))


def test_gpu_only_ops_raise_as_tf_cpu_build():
    with pytest.raises(tf.errors.FailedPreconditionError, match="must be built with `--config=cuda`"):
        tf.check_pinned(tf.constant([1.0]))
    x, f, dy = tf.zeros([1, 3, 3, 1]), tf.zeros([1, 1, 1, 1]), tf.zeros([1, 3, 3, 1])
    with pytest.raises(tf.errors.NotFoundError, match="no registered kernels"):
        tf.conv2d_backprop_filter_v2(x, f, dy, [1, 1, 1, 1], "SAME")
    with pytest.raises(tf.errors.NotFoundError, match="Conv2DBackpropInputV2"):
        tf.conv2d_backprop_input_v2(x, f, dy, [1, 1, 1, 1], "SAME")


def test_nondifferentiable_batch_function_runs_the_function():
    traces = []

    @tf.nondifferentiable_batch_function(1, 10, 100000)
    def double(x):
        traces.append(1)
        return x * 2

    assert double(tf.constant([[1.0], [2.0]])).numpy().tolist() == [[2.0], [4.0]]
    assert double(tf.constant([[3.0], [4.0]])).numpy().tolist() == [[6.0], [8.0]]
    assert len(traces) == 1  # a tf.function underneath, as TF's computation
    with pytest.raises(ValueError, match="supposed to be Tensors"):
        double(1.0)


def test_quantization_experimental_checks_then_refuses(tmp_path):
    q = tf.quantization.experimental
    method = q.QuantizationMethod(preset_method=q.QuantizationMethod.PresetMethod.METHOD_STATIC_RANGE_INT8)
    options = q.QuantizationOptions(quantization_method=method)
    assert options.quantization_method.preset_method == 2
    with pytest.raises(ValueError, match='has no "bogus" field'):
        q.QuantizationOptions(bogus=1)
    with pytest.raises(OSError, match="SavedModel file does not exist at"):
        q.quantize_saved_model(str(tmp_path / "none"))
    module = tf.Module()
    module.f = tf.function(lambda x: x * 2, input_signature=[tf.TensorSpec([2], tf.float32)])
    tf.saved_model.save(module, str(tmp_path / "m"))
    with pytest.raises(ValueError, match="quantization-aware training"):
        q.quantize_saved_model(str(tmp_path / "m"), str(tmp_path / "out"), options)
    dynamic = q.QuantizationOptions(quantization_method=q.QuantizationMethod(preset_method=3))
    with pytest.raises(NotImplementedError, match="MLIR quantization converter"):
        q.quantize_saved_model(str(tmp_path / "m"), str(tmp_path / "out"), dynamic)


def test_generate_bounding_box_proposals_has_no_cpu_kernel_as_in_tf():
    with pytest.raises(tf.errors.NotFoundError, match="GenerateBoundingBoxProposals"):
        tf.image.generate_bounding_box_proposals(tf.zeros([1, 2, 2, 1]), tf.zeros([1, 2, 2, 4]),
                                                 tf.constant([[8.0, 8.0, 1.0, 0.0, 0.0]]), tf.zeros([1, 4]))
