"""tf.register_tensor_conversion_function: teach tf.convert_to_tensor (and every op's argument conversion) a
user type. The registry lives in the engine (runtime/conversion_registry.py)."""

from __future__ import annotations

from tinytf.runtime import conversion_registry


def register_tensor_conversion_function(base_type, conversion_func, priority=100):
    """Registers `conversion_func(value, dtype=None, name=None, as_ref=False)` for objects of `base_type`: it
    returns a Tensor of `dtype` (when given) or NotImplemented to let the next function try. Lower priorities
    run first. Python numbers and numpy arrays cannot be registered (TypeError), as in TF."""
    conversion_registry.register(base_type, conversion_func, priority)
