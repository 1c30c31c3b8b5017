"""tf.experimental.StructuredTensor: tensors of structures (fields of Tensors, RaggedTensors and nested
StructuredTensors sharing the structures' outer shape)."""

from .spec import StructuredTensorSpec  # noqa: F401  (also installs StructuredTensor.Spec)
from .structured_tensor import StructuredTensor  # noqa: F401
