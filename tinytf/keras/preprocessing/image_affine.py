"""The resampling behind keras.preprocessing.image's affine transforms, in numpy: what Keras gets from
`scipy.ndimage.affine_transform(channel, matrix, offset, order, mode, cval)` for interpolation orders 0 and 1
(Keras' ImageDataGenerator uses 1), computed the way scipy's ni_interpolation.c computes it, so the numbers
match without scipy being a dependency:

- each output pixel (i, j) samples the input at matrix @ (i, j) + offset, in float64;
- a coordinate outside [0, n - 1] is first mapped by the fill mode: "nearest" clamps, "reflect" and "wrap" fold it
  back as scipy's map_coordinate does (its "wrap" has period n - 1, its "reflect" can leave a coordinate within
  half a pixel outside the edge), "constant" gives `cval` with no blending;
- order 1 blends the two neighbours of each axis by the fractional part (order 0 takes floor(c + 0.5)); a
  neighbour outside the image is read reflected about the edge in "reflect" mode, else mirrored about the edge
  pixel (scipy's window boundary);
- integer outputs round half away from zero and clip, as scipy casts them.

Orders 2 to 5 need scipy's spline prefilter: not here (a clear error says so)."""

from __future__ import annotations

import numpy as np

FILL_MODES = ("constant", "nearest", "reflect", "wrap")


def _map_coordinates(c: np.ndarray, n: int, mode: str) -> np.ndarray:
    """scipy's map_coordinate for coordinates outside [0, n - 1]; constant mode marks them with -1."""
    low, high = c < 0, c > n - 1
    if not (low.any() or high.any()):  # the common case: every sample inside the image
        return c
    c = c.copy()
    if n <= 1:
        outside = (c < 0) | (c > n - 1)
        c[outside] = -1.0 if mode == "constant" else 0.0
        return c
    low, high = c < 0, c > n - 1
    if mode == "nearest":
        c[low], c[high] = 0.0, n - 1
    elif mode == "constant":
        c[low | high] = -1.0
    elif mode == "wrap":
        period = n - 1
        c[low] += period * (np.trunc(-c[low] / period) + 1)
        c[high] -= period * np.trunc(c[high] / period)
    elif mode == "reflect":
        period = 2 * n
        v = c[low]
        far = v < -period
        v[far] += period * np.trunc(-v[far] / period)
        v = np.where(v < -n, v + period, np.where(v > -1e-15, 1e-15, -v) - 1)
        c[low] = v
        v = c[high]
        v -= period * np.trunc(v / period)
        v = np.where(v >= n, period - v - 1, v)
        c[high] = v
    else:
        raise ValueError(f"fill_mode must be one of {FILL_MODES}, got {mode!r}")
    return c


def _window_index(index: np.ndarray, n: int, mode: str) -> np.ndarray:
    """A neighbour index outside [0, n) as scipy reads the points of its interpolation window: reflected about
    the edge (half-sample symmetric, d c b a | a b c d) in "reflect" mode, else mirrored about the edge pixel
    (whole-sample symmetric, d c b | a b c d)."""
    if n <= 1:
        return np.zeros_like(index)
    low, high = index < 0, index >= n
    if not (low.any() or high.any()):
        return index
    if mode == "reflect":
        period = 2 * n
        folded = index % period
        return np.where(folded >= n, period - 1 - folded, folded)
    period = 2 * n - 2
    out = index.copy()
    v = out[low]
    v = period * (-v // period) + v
    out[low] = np.where(v <= 1 - n, v + period, -v)
    v = out[high]
    v -= period * (v // period)
    out[high] = np.where(v >= n, period - v, v)
    return out


def affine_resample(image: np.ndarray, matrix, offset, order: int = 1, mode: str = "constant",
                    cval: float = 0.0) -> np.ndarray:
    """One 2-D channel resampled: output[i, j] = image at matrix @ (i, j) + offset (see the module's note)."""
    if order not in (0, 1):
        raise NotImplementedError(f"interpolation order {order}: tinytf resamples with orders 0 and 1 (Keras' "
                                  "default is 1); higher orders need scipy's spline prefilter")
    if mode not in FILL_MODES:
        raise ValueError(f"fill_mode must be one of {FILL_MODES}, got {mode!r}")
    image = np.asarray(image)
    rows, cols = image.shape
    matrix = np.asarray(matrix, dtype=np.float64)
    offset = np.asarray(offset, dtype=np.float64)
    i = np.arange(rows, dtype=np.float64)[:, None]
    j = np.arange(cols, dtype=np.float64)[None, :]
    c0 = (i * matrix[0, 0] + j * matrix[0, 1]) + offset[0]  # scipy's order of the sums (0.0 + x is x)
    c1 = (i * matrix[1, 0] + j * matrix[1, 1]) + offset[1]
    c0, c1 = _map_coordinates(c0, rows, mode), _map_coordinates(c1, cols, mode)
    constant = (c0 <= -1.0) | (c1 <= -1.0) if mode == "constant" else None
    flat = image.astype(np.float64).ravel()  # gathers by flat index: row * cols + col
    if order == 0:
        r = _window_index(np.floor(c0 + 0.5).astype(np.int64), rows, mode)
        s = _window_index(np.floor(c1 + 0.5).astype(np.int64), cols, mode)
        out = flat[r * cols + s]
    else:
        r0, s0 = np.floor(c0), np.floor(c1)
        wr, ws = c0 - r0, c1 - s0
        r0, s0 = r0.astype(np.int64), s0.astype(np.int64)
        r_lo, r_hi = _window_index(r0, rows, mode) * cols, _window_index(r0 + 1, rows, mode) * cols
        s_lo, s_hi = _window_index(s0, cols, mode), _window_index(s0 + 1, cols, mode)
        vr, vs = 1.0 - wr, 1.0 - ws
        # scipy sums the window's points in order, each value times its row weight times its column weight
        out = flat[r_lo + s_lo] * vr * vs
        out += flat[r_lo + s_hi] * vr * ws
        out += flat[r_hi + s_lo] * wr * vs
        out += flat[r_hi + s_hi] * wr * ws
    if constant is not None:
        out = np.where(constant, float(cval), out)
    return _cast(out, image.dtype)


def _cast(values: np.ndarray, dtype) -> np.ndarray:
    dtype = np.dtype(dtype)
    if dtype.kind == "u":
        values = np.where(values > 0, values + 0.5, 0.0)
        return np.trunc(np.minimum(values, np.iinfo(dtype).max)).astype(dtype)
    if dtype.kind == "i":
        values = np.where(values > 0, values + 0.5, values - 0.5)
        info = np.iinfo(dtype)
        return np.trunc(np.clip(values, info.min, info.max)).astype(dtype)
    if dtype.kind == "b":
        return values != 0
    return values.astype(dtype)


__all__ = ["FILL_MODES", "affine_resample"]
