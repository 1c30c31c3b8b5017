"""tf.type_spec_from_value: the TypeSpec of a value (a TensorSpec for anything convertible to a tensor)."""

from __future__ import annotations

from tinytf.runtime.tensor import Tensor

from .tensor_spec import TensorSpec


def type_spec_from_value(value):
    if isinstance(value, Tensor):
        return TensorSpec(value._shape, value.dtype)
    if hasattr(type(value), "_type_spec"):
        return value._type_spec
    if value is None:
        from .none_tensor import NoneTensorSpec

        return NoneTensorSpec()
    from tinytf.runtime.ops.tensor_array import TensorArray

    if isinstance(value, TensorArray):
        from .tensor_array_spec import TensorArraySpec

        return TensorArraySpec.from_value(value)
    from .data.iterator import Optional

    if isinstance(value, Optional):
        from .optional_spec import OptionalSpec

        return OptionalSpec.from_value(value)
    from .constant import convert_to_tensor

    try:
        tensor = convert_to_tensor(value)
    except (TypeError, ValueError):
        raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type {type(value)}.") from None
    return TensorSpec(tensor._shape, tensor.dtype)
