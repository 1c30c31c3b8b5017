"""tf.extract_volume_patches: the 3-D patches of a [batch, depth, rows, cols, channels] volume, each flattened
into the last dimension in (depth, row, col, channel) order, as TF's ExtractVolumePatches. Built as a pad and
one gather of precomputed flat positions, so its gradient (TF has one) is the gather's and the pad's."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops.array import pad, reshape
from tinytf.runtime.ops.indexing import gather


def _out_and_pad(size, k, s, padding):
    if padding == "VALID":
        return (size - k) // s + 1, 0
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return out, total // 2


def _check_window(values, what):
    values = [int(v) for v in values]
    if len(values) != 5 or values[0] != 1 or values[4] != 1:
        raise ValueError(f"extract_volume_patches: {what} must be 5 numbers [1, d, r, c, 1], got {values}")
    return values[1:4]


def extract_volume_patches(input, ksizes, strides, padding, name=None):  # noqa: A002 - TF's argument name
    """Extract `patches` from `input` and put them in the last dimension ("SAME" pads with zeros as TF's
    convolutions do, more after than before)."""
    x = convert_to_tensor(input)
    padding = padding.decode() if isinstance(padding, bytes) else str(padding)
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"extract_volume_patches: padding must be 'SAME' or 'VALID', got {padding!r}")
    if x.dtype.is_string or x.dtype.is_bool:
        raise TypeError(f"extract_volume_patches: Value for attr 'T' of {x.dtype.name} is not a numeric type")
    shape = x._shape
    if shape is None or len(shape) != 5 or None in shape[1:]:
        raise ValueError(f"extract_volume_patches needs a rank-5 input with known depth, rows, cols and "
                         f"channels, got shape {shape}")
    kernel, stride = _check_window(ksizes, "ksizes"), _check_window(strides, "strides")
    sizes, channels = shape[1:4], shape[4]
    outs, befores, padded = [], [], []
    for size, k, s in zip(sizes, kernel, stride):
        out, before = _out_and_pad(size, k, s, padding)
        outs.append(out)
        befores.append(before)
        padded.append(max(size, (out - 1) * s + k) if padding == "SAME" else size)
    if min(outs) <= 0:
        raise ValueError(f"extract_volume_patches: ksizes {kernel} do not fit the volume {list(sizes)}")
    if any(befores) or padded != list(sizes):
        x = pad(x, [[0, 0]] + [[b, p - b - n] for b, p, n in zip(befores, padded, sizes)] + [[0, 0]])
    # flat positions in the padded volume, in (out d, out r, out c, kernel d, kernel r, kernel c) order
    grids = [np.arange(o)[:, None] * s + np.arange(k)[None, :] for o, s, k in zip(outs, stride, kernel)]
    d, r, c = grids
    flat = ((d[:, None, None, :, None, None] * padded[1] + r[None, :, None, None, :, None]) * padded[2]
            + c[None, None, :, None, None, :]).reshape(-1).astype(np.int32)
    rows = reshape(x, [-1, padded[0] * padded[1] * padded[2], channels])
    picked = gather(rows, flat, axis=1)
    return reshape(picked, [-1, *outs, int(np.prod(kernel)) * channels], name=name)
