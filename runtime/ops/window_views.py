"""Read-only strided views (a convolution's windows) made cheaply.

numpy's as_strided builds its view through a helper object's __array_interface__: 13 µs a call on this
machine, against 2 µs for the ndarray constructor over the same memory. The conv kernels make one or more such
views per task (conv_transpose's step: 12 per call, depthwise's: 38), so the constructor is used whenever the
base array is C-contiguous (the kernels' per-thread buffers are); any other base goes through as_strided.
The constructor also checks that the view stays inside the base's memory, which as_strided does not."""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided


def strided_view(array: np.ndarray, shape, strides, offset: int = 0) -> np.ndarray:
    """as_strided(array, shape, strides, writeable=False), starting `offset` bytes into the memory of `array`
    (an offset needs a C-contiguous `array`): the same view."""
    if array.flags.c_contiguous:
        view = np.ndarray(shape, array.dtype, array, offset, strides)
        view.flags.writeable = False
        return view
    if offset:
        raise ValueError(f"strided_view: an offset needs a C-contiguous base, got strides {array.strides}")
    return as_strided(array, shape, strides, writeable=False)
