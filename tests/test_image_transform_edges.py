"""ImageProjectiveTransformV3 (runtime/ops/image_transform.py: flat-index reads of a table of the images inside
a border of fill_value, the bilinear weights applied channels first) against TF's kernel written pixel by
pixel in float32, bit for bit: every interpolation and fill mode, integer and float images, transforms whose
projection is 0 on some pixels, NaN, infinite and huge coordinates, images of one pixel and of no rows; and
its adjoint (the images' gradient) against the same sampling's weights added back pixel by pixel."""

import numpy as np
import pytest

from tinytf.runtime.ops import image_transform

F32 = np.float32
SPECIAL = np.array([
    [1, 0, 0, 0, 1, 0, -0.2, 0],  # projection 0 at x = 5
    [1, 0, np.nan, 0, 1, 0, 0, 0],  # NaN column
    [1e30, 0, 0, 0, 1, 0, 0, 0],  # past any index type
    [1, 0, -1e20, 0, 1, 1e20, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0],
    [1, 0, 0, 0, 1, 0, 0, -0.125],  # projection 0 at y = 8
    [np.inf, 0, 0, 0, 1, 0, 0, 0],
    [0.9, 0.3, -0.7, -0.2, 1.1, 0.4, 0.02, -0.01],
], F32)


def _points(transform, x, y, height, width, interpolation, fill_mode):
    """[(row, column, weight)] TF's kernel reads for output pixel (x, y); None when the projection is 0."""
    a0, a1, a2, b0, b1, b2, c0, c1 = (F32(v) for v in transform)
    k = c0 * F32(x) + c1 * F32(y) + F32(1)
    if k == 0:
        return None
    sx = image_transform._map_coordinate(np.array([(a0 * F32(x) + a1 * F32(y) + a2) / k], F32), width, fill_mode)[0]
    sy = image_transform._map_coordinate(np.array([(b0 * F32(x) + b1 * F32(y) + b2) / k], F32), height,
                                         fill_mode)[0]
    if interpolation == "NEAREST":
        return [(np.sign(sy) * np.floor(abs(sy) + F32(0.5)), np.sign(sx) * np.floor(abs(sx) + F32(0.5)), None)]
    y0, x0 = np.floor(sy), np.floor(sx)
    y1, x1 = y0 + F32(1), x0 + F32(1)
    return [(r, c, (wy, wx)) for r, wy in ((y0, y1 - sy), (y1, sy - y0)) for c, wx in ((x0, x1 - sx), (x1, sx - x0))]


def _inside(row, col, height, width):
    return bool(0 <= row < height and 0 <= col < width)  # NaN: False


def _reference(images, transforms, out_h, out_w, fill, interpolation, fill_mode):
    batch, height, width, channels = images.shape
    kind = np.float64 if images.dtype == np.float64 else F32
    out = np.zeros((batch, out_h, out_w, channels), kind)
    for b in range(batch):
        transform = transforms[b if len(transforms) > 1 else 0]
        for y in range(out_h):
            for x in range(out_w):
                points = _points(transform, x, y, height, width, interpolation, fill_mode)
                values = [images[b, int(r), int(c)].astype(kind) if points is not None and
                          _inside(r, c, height, width) else np.full(channels, fill, kind)
                          for r, c, _ in (points or [(0, 0, None)] * (1 if interpolation == "NEAREST" else 4))]
                if interpolation == "NEAREST":
                    out[b, y, x] = values[0]
                    continue
                if points is not None:
                    weights = [w for _, _, w in points]
                else:  # every read is fill_value, with the weights of TF's safe projection (1)
                    t = transforms[b if len(transforms) > 1 else 0]
                    sx = image_transform._map_coordinate(np.array([F32(t[0]) * F32(x) + F32(t[1]) * F32(y) +
                                                                   F32(t[2])], F32), width, fill_mode)[0]
                    sy = image_transform._map_coordinate(np.array([F32(t[3]) * F32(x) + F32(t[4]) * F32(y) +
                                                                   F32(t[5])], F32), height, fill_mode)[0]
                    y0, x0 = np.floor(sy), np.floor(sx)
                    weights = [(wy, wx) for wy in (y0 + 1 - sy, sy - y0) for wx in (x0 + 1 - sx, sx - x0)]
                row0 = weights[0][1] * values[0] + weights[1][1] * values[1]
                row1 = weights[0][1] * values[2] + weights[1][1] * values[3]
                out[b, y, x] = weights[0][0] * row0 + weights[2][0] * row1
    return out


@pytest.mark.parametrize("interpolation", ["NEAREST", "BILINEAR"])
@pytest.mark.parametrize("fill_mode", ["REFLECT", "WRAP", "CONSTANT", "NEAREST"])
@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.float64])
def test_matches_tfs_kernel_pixel_by_pixel(interpolation, fill_mode, dtype):
    images = np.random.default_rng(4).uniform(0, 200, (len(SPECIAL), 9, 11, 2)).astype(dtype)
    with np.errstate(all="ignore"):
        got = image_transform._transform_kernel(images, SPECIAL, np.array([9, 11]), F32(-3.5),
                                                interpolation=interpolation, fill_mode=fill_mode)
        want = _reference(images, SPECIAL, 9, 11, F32(-3.5), interpolation, fill_mode)
        want = want.astype(dtype)  # uint8: truncation toward zero, as TF's static_cast
    assert got.dtype == dtype and got.flags.c_contiguous and got.shape == (len(SPECIAL), 9, 11, 2)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape", [(1, 1), (1, 5), (4, 1), (0, 3)])
def test_tiny_and_empty_images(shape):
    images = np.random.default_rng(5).uniform(0, 1, (2,) + shape + (3,)).astype(np.float32)
    for interpolation in ("NEAREST", "BILINEAR"):
        for fill_mode in ("REFLECT", "WRAP", "CONSTANT", "NEAREST"):
            got = image_transform._transform_kernel(images, SPECIAL[7:], np.array([3, 4]), F32(0.5),
                                                    interpolation=interpolation, fill_mode=fill_mode)
            if 0 in shape:  # nothing to read: every pixel is fill_value
                np.testing.assert_array_equal(got, np.full((2, 3, 4, 3), 0.5, np.float32))
            else:
                want = _reference(images, SPECIAL[7:], 3, 4, F32(0.5), interpolation, fill_mode)
                np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("interpolation", ["NEAREST", "BILINEAR"])
@pytest.mark.parametrize("fill_mode", ["REFLECT", "CONSTANT"])
def test_adjoint_adds_each_gradient_back_with_its_weight(interpolation, fill_mode):
    shape = (len(SPECIAL), 6, 7, 2)
    grad = np.random.default_rng(6).normal(size=(len(SPECIAL), 5, 8, 2))
    with np.errstate(all="ignore"):
        got = image_transform._adjoint_kernel(grad, SPECIAL, np.array(shape), interpolation=interpolation,
                                              fill_mode=fill_mode)
        want = np.zeros(shape)
        for b in range(shape[0]):
            for y in range(5):
                for x in range(8):
                    for r, c, w in _points(SPECIAL[b], x, y, 6, 7, interpolation, fill_mode) or []:
                        if _inside(r, c, 6, 7):
                            want[b, int(r), int(c)] += grad[b, y, x] * (1.0 if w is None else
                                                                         np.float64(w[0]) * np.float64(w[1]))
    assert got.dtype == np.float64 and got.flags.c_contiguous
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
