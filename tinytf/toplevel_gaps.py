"""TF 2.21 public names added by helper gapsa (see docs/toplevel_more.md): installs them into the namespaces
tinytf/__init__.py has built (tf.config.experimental, tf.experimental, tf.debugging, ...), once, at import."""

from __future__ import annotations

import types


def install(tf) -> None:
    from . import config_execution as ce
    from . import dlpack, experimental_execution, native_libraries, traceback_filtering
    from .runtime import dtypes

    for name in ("enable_tensor_float_32_execution", "tensor_float_32_execution_enabled", "get_memory_info",
                 "get_memory_usage", "reset_memory_stats", "get_device_policy", "set_device_policy",
                 "get_synchronous_execution", "set_synchronous_execution", "enable_mlir_bridge",
                 "disable_mlir_bridge"):
        setattr(tf.config.experimental, name, staticmethod(getattr(ce, name)))
    tf.config.experimental.ClusterDeviceFilters = ce.ClusterDeviceFilters
    tf.config.optimizer.get_jit = staticmethod(ce.get_jit)
    tf.config.optimizer.set_jit = staticmethod(ce.set_jit)

    ex = tf.experimental
    for dtype in dtypes.NARROW:
        setattr(ex, dtype.name, dtype)
    for name in ("async_scope", "async_clear_error", "function_executor_type", "enable_strict_mode"):
        setattr(ex, name, getattr(experimental_execution, name))
    ex.register_filesystem_plugin = native_libraries.register_filesystem_plugin
    ex.dlpack = types.SimpleNamespace(to_dlpack=dlpack.to_dlpack, from_dlpack=dlpack.from_dlpack)
    tf.resource, tf.variant = dtypes.resource, dtypes.variant
    tf.load_library, tf.load_op_library = native_libraries.load_library, native_libraries.load_op_library
    for name in ("check_pinned", "conv2d_backprop_filter_v2", "conv2d_backprop_input_v2",
                 "nondifferentiable_batch_function"):
        setattr(tf, name, getattr(experimental_execution, name))
    from . import profiler
    from .runtime.ops.image_webp import decode_jxl, decode_webp
    from .runtime.ops.stateless_shuffle import stateless_shuffle

    tf.io.decode_webp = tf.image.decode_webp = decode_webp
    tf.io.decode_jxl = tf.image.decode_jxl = decode_jxl
    tf.random.experimental.stateless_shuffle = stateless_shuffle

    tf.profiler = profiler
    from . import nn_rnn_cell_wrappers as wrappers

    for name in ("RNNCellDropoutWrapper", "RNNCellResidualWrapper", "RNNCellDeviceWrapper"):
        setattr(tf.nn, name, getattr(wrappers, name))
    from .saved_model.options import VariablePolicy
    from .saved_model.trackable_resource import TrackableResource
    from .train import experimental as train_experimental

    tf.saved_model.experimental.TrackableResource = TrackableResource
    tf.saved_model.experimental.VariablePolicy = VariablePolicy
    tf.train.experimental = train_experimental
    from .quantization import experimental as quantization_experimental

    tf.quantization.experimental = quantization_experimental
    tf.image.generate_bounding_box_proposals = experimental_execution.generate_bounding_box_proposals
    from . import debug_dump

    tf.debugging.experimental = types.SimpleNamespace(enable_dump_debug_info=debug_dump.enable_dump_debug_info,
                                                      disable_dump_debug_info=debug_dump.disable_dump_debug_info)
    tf.compat.v2 = tf  # TF 2's tf.compat.v2 is TF 2's API itself
    traceback_filtering.install_excepthook()
