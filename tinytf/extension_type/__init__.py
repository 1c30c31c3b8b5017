"""tf.experimental.ExtensionType and its companions (Spec classes, batchable types, dispatch)."""

from .as_dict import as_dict  # noqa: F401
from .dispatch import (  # noqa: F401
    dispatch_for_api,
    dispatch_for_binary_elementwise_apis,
    dispatch_for_binary_elementwise_assert_apis,
    dispatch_for_unary_elementwise_apis,
    unregister_dispatch_for,
)
from .extension_type import BatchableExtensionType, ExtensionType  # noqa: F401
from .immutable_dict import ImmutableDict  # noqa: F401
from .spec import BatchableExtensionTypeSpec, ExtensionTypeBatchEncoder, ExtensionTypeSpec  # noqa: F401
