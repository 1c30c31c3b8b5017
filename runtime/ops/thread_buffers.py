"""Per-thread scratch buffers for the chunked kernels: each kernel module keeps its own threading.local, so two
modules' buffers of the same name never alias."""

from __future__ import annotations

import math

import numpy as np


def workspace(local, name, shape, dtype):
    """The calling thread's buffer `name` in `local`, seen as `shape`, grown when too small, kept for the next
    call."""
    size = math.prod(shape)
    buffers = getattr(local, "buffers", None)
    if buffers is None:
        buffers = local.buffers = {}
    buffer = buffers.get(name)
    if buffer is None or buffer.size < size or buffer.dtype != dtype:
        buffer = buffers[name] = np.empty(size, dtype)
    return buffer[:size].reshape(shape)
