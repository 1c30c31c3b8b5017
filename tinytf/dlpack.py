"""tf.experimental.dlpack: exchange tensors with other frameworks (PyTorch, JAX, CuPy, numpy) through DLPack
capsules, on the host CPU. numpy implements the protocol: to_dlpack asks numpy for the capsule of the tensor's
buffer, from_dlpack hands a capsule back to numpy, which takes ownership (a capsule is consumed once, as in TF)."""

from __future__ import annotations

import ctypes

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.tensor import EagerTensor

_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype = ctypes.c_char_p
_get_name.argtypes = [ctypes.py_object]


def to_dlpack(tf_tensor):
    """A PyCapsule named "dltensor" sharing the tensor's buffer (TF's strings and resources have no DLPack
    form)."""
    value = tf_tensor._value if isinstance(tf_tensor, EagerTensor) else np.asarray(tf_tensor)
    dtype = tf_tensor.dtype if isinstance(tf_tensor, EagerTensor) else dtypes.of_numpy(np.asarray(value))
    if dtype.is_string or dtype.is_quantized or dtype.name in ("resource", "variant"):
        raise InvalidArgumentError(f"to_dlpack: {dtype.name} tensors have no DLPack representation (DLPack holds "
                                   "numbers and booleans)")
    return np.ascontiguousarray(value).__dlpack__()


class _Capsule:
    """What np.from_dlpack reads: an object whose __dlpack__ gives the capsule, on the CPU device."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __dlpack__(self, **kwargs):
        return self._capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0


def from_dlpack(dlcapsule):
    """A tensor over the buffer the capsule describes."""
    if type(dlcapsule).__name__ != "PyCapsule":
        raise TypeError("from_dlpack(): incompatible function arguments: expected a DLPack capsule (from "
                        f"tf.experimental.dlpack.to_dlpack or another framework's to_dlpack), got "
                        f"{type(dlcapsule).__name__}")
    name = _get_name(dlcapsule)
    if name != b"dltensor":
        raise InvalidArgumentError(
            f'DLPack tensor must be a capsule with name "dltensor", got "{(name or b"").decode()}". Note that a '
            "DLPack tensor may be consumed at most once.")
    value = np.from_dlpack(_Capsule(dlcapsule))
    return EagerTensor(value, dtypes.of_numpy(value))
