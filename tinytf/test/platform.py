"""tf.test's questions about the build and the devices, answered for tinytf: CPU-only numpy, no CUDA, ROCm or XLA,
and no compiler back-ends (so no CPU code-generation target either); plus TF's decorators and main."""

from __future__ import annotations

import functools
import sys
from typing import Optional

from tinytf.compat.v1.config_protos import ConfigProto, _Message

from ..deprecation_warning import warn_once


def is_gpu_available(cuda_only: bool = False, min_cuda_compute_capability: Optional[tuple] = None) -> bool:
    """False: tinytf runs on the CPU only (`tf.config.list_physical_devices('GPU')` is empty). Deprecated in TF,
    with TF's notice."""
    warn_once("is_gpu_available", "tinytf.test", "Use `tf.config.list_physical_devices('GPU')` instead.")
    return False


def gpu_device_name() -> str:
    """The name of a GPU device: "" since there is none, as TF answers on a CPU machine."""
    return ""


def is_built_with_cuda() -> bool:
    return False


def is_built_with_rocm() -> bool:
    return False


def is_built_with_gpu_support() -> bool:
    return False


def is_built_with_xla() -> bool:
    """False: tinytf compiles graphs to Python source, not through XLA (jit_compile is accepted and ignored)."""
    return False


def is_cpu_target_available(target) -> bool:
    """Whether a CPU code-generation target (TF: an LLVM back-end such as 'x86' or 'arm', used by XLA) is built
    in: tinytf has none, so False for every target."""
    return False


class RewriterConfig(_Message):
    """TF's graph-rewriter switches (a Session here runs the same either way: tinytf's passes are set by
    tf.config.optimizer). Toggles: DEFAULT_TOGGLE, ON, OFF, AGGRESSIVE."""

    DEFAULT_TOGGLE, ON, OFF, AGGRESSIVE = 0, 1, 2, 3
    _TOGGLES = ("layout_optimizer", "constant_folding", "shape_optimization", "remapping", "arithmetic_optimization",
                "dependency_optimization", "loop_optimization", "function_optimization", "debug_stripper",
                "scoped_allocator_optimization", "pin_to_host_optimization", "implementation_selector",
                "auto_mixed_precision", "common_subgraph_elimination")
    _ENUMS = {name: {0: "DEFAULT_TOGGLE", 1: "ON", 2: "OFF", 3: "AGGRESSIVE"} for name in _TOGGLES}
    _FIELDS = {**{name: 0 for name in _TOGGLES}, "disable_meta_optimizer": False, "meta_optimizer_iterations": 0,
               "min_graph_nodes": 0, "optimizers": []}


def benchmark_config():
    """The ConfigProto TF's benchmarks run sessions with: dependency optimization off, so benchmarked ops are
    not pruned away."""
    config = ConfigProto()
    # GraphOptions keeps rewrite_options as an opaque message; a benchmark config carries the real one
    config.graph_options._values["rewrite_options"] = RewriterConfig(dependency_optimization=RewriterConfig.OFF)
    return config


def with_eager_op_as_function(cls=None, only_as_function: bool = False):
    """Returns the class unchanged: TF 2.21 always runs eager ops as functions and keeps this decorator only so
    old tests still import (as here)."""
    def decorator(cls):
        return cls
    return decorator(cls) if cls is not None else decorator


def disable_with_predicate(pred, skip_message):
    """Decorate a test method so that it is skipped (with `skip_message`) when `pred()` is true at run time."""
    def decorator_disable_with_predicate(func):
        @functools.wraps(func)
        def wrapper_disable_with_predicate(self, *args, **kwargs):
            if pred():
                self.skipTest(skip_message)
            return func(self, *args, **kwargs)
        return wrapper_disable_with_predicate
    return decorator_disable_with_predicate


def main(argv=None):
    """Run the test cases of `__main__` with absltest (as TF's tf.test.main): flags parsed, exit status set."""
    from absl.testing import absltest
    return absltest.main(argv=argv if argv is not None else sys.argv)


def sync_devices() -> None:
    """tf.test.experimental.sync_devices: wait for every device's pending work. tinytf's kernels run
    synchronously, so there is nothing to wait for; like TF, it must be called eagerly."""
    from tinytf.runtime.context import executing_eagerly
    if not executing_eagerly():
        raise RuntimeError("sync_devices() must only be called in Eager mode.")
