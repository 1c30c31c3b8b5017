"""tf.experimental: the parts tinytf has (Optional, from tf.data; DynamicRaggedShape, what tf.shape gives for a
RaggedTensor)."""

from .data.iterator import Optional  # noqa: F401
from .ragged.dynamic_shape import DynamicRaggedShape  # noqa: F401
