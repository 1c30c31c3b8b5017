"""tf.experimental: the parts tinytf has (Optional, from tf.data; DynamicRaggedShape, what tf.shape gives for a
RaggedTensor; numpy, TF's NumPy API on tensors; StructuredTensor; extension_type.as_dict)."""

from ..data.iterator import Optional  # noqa: F401
from ..extension_type import (  # noqa: F401
    BatchableExtensionType,
    ExtensionType,
    ExtensionTypeBatchEncoder,
    ExtensionTypeSpec,
    dispatch_for_api,
    dispatch_for_binary_elementwise_apis,
    dispatch_for_binary_elementwise_assert_apis,
    dispatch_for_unary_elementwise_apis,
    unregister_dispatch_for,
)

# --- ragged: the shape of a RaggedTensor and its row partitions ---
from ..ragged.dynamic_shape import DynamicRaggedShape  # noqa: F401,E402
from ..ragged.row_partition import RowPartition  # noqa: F401,E402


def __getattr__(name):
    # tf.experimental.numpy is built of tf.* functions: imported on first use, once tinytf is complete
    # (tf.experimental.extension_type too: a module of its own, imported when first named; and StructuredTensor)
    if name in ("numpy", "extension_type"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    if name == "StructuredTensor":  # rarely used: its package is imported when first named
        from ..structured import StructuredTensor

        return StructuredTensor
    raise AttributeError(f"module 'tinytf.experimental' has no attribute {name!r}")
