"""tf.test: TF's testing helpers. TestCase (absltest's, with TF's tensor assertions, `evaluate` and TF1 sessions),
compute_gradient (Jacobians from gradients and from central differences), Benchmark, main, and the build and
device questions answered for tinytf (CPU only: no GPU, CUDA, ROCm or XLA), and create_local_cluster (worker
and ps tf.distribute.Servers in this process)."""

import types as _types

from .benchmark import Benchmark  # noqa: F401
from .gradient_checker import compute_gradient  # noqa: F401
from .graph_def_compare import assert_equal_graph_def  # noqa: F401
from .local_cluster import create_local_cluster  # noqa: F401
from .platform import (  # noqa: F401
    benchmark_config,
    disable_with_predicate,
    gpu_device_name,
    is_built_with_cuda,
    is_built_with_gpu_support,
    is_built_with_rocm,
    is_built_with_xla,
    is_cpu_target_available,
    is_gpu_available,
    main,
    sync_devices,
    with_eager_op_as_function,
)

experimental = _types.SimpleNamespace(sync_devices=sync_devices)
del sync_devices


def __getattr__(name):
    # TestCase is built on absltest, whose import costs about half a second: made on first use, not with tinytf
    if name == "TestCase":
        from .testcase import TestCase
        return TestCase
    raise AttributeError(f"module 'tinytf.test' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"TestCase"})
