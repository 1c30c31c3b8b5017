"""CropAndResize's kernel in chunks of boxes (runtime/ops/image_crop_and_resize.py: flat-index reads, TF's
bilinear formula in place on each chunk): the same bits whatever the chunk size, for every image dtype, boxes
partly and wholly outside the image and crops of one pixel, and against the bilinear formula written per
pixel in float32."""

import numpy as np
import pytest

from tinytf.runtime.ops import image_crop_and_resize as crops

RNG = np.random.default_rng(8)
F32 = np.float32


def _case(dtype, depth=3):
    image = RNG.uniform(0, 100, (3, 13, 11, depth)).astype(dtype)
    boxes = RNG.uniform(-0.4, 1.4, (9, 4)).astype(F32)
    boxes[0] = [2, 2, 3, 3]  # wholly outside
    return image, boxes, RNG.integers(0, 3, 9).astype(np.int32)


def _per_pixel(image, boxes, index, crop, extrapolation):
    """TF's CropAndResize bilinear loop in float32."""
    _, height, width, depth = image.shape
    out = np.zeros((len(boxes), crop[0], crop[1], depth), F32)
    for n, (y1, x1, y2, x2) in enumerate(boxes):
        for i in range(crop[0]):
            y = y1 * F32(height - 1) + F32(i) * ((y2 - y1) * F32(height - 1) / F32(crop[0] - 1)) if crop[0] > 1 \
                else F32(0.5) * (y1 + y2) * F32(height - 1)
            for j in range(crop[1]):
                x = x1 * F32(width - 1) + F32(j) * ((x2 - x1) * F32(width - 1) / F32(crop[1] - 1)) if crop[1] > 1 \
                    else F32(0.5) * (x1 + x2) * F32(width - 1)
                if not (0 <= y <= height - 1 and 0 <= x <= width - 1):
                    out[n, i, j] = extrapolation
                    continue
                top, left = int(np.floor(y)), int(np.floor(x))
                bottom, right = int(np.ceil(y)), int(np.ceil(x))
                yl, xl = F32(y - np.floor(y)), F32(x - np.floor(x))
                pixel = image[index[n]].astype(F32)
                upper = pixel[top, left] + (pixel[top, right] - pixel[top, left]) * xl
                lower = pixel[bottom, left] + (pixel[bottom, right] - pixel[bottom, left]) * xl
                out[n, i, j] = upper + (lower - upper) * yl
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.float16, np.int32, np.float64])
@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_same_bits_in_chunks_of_any_size(dtype, method, monkeypatch):
    image, boxes, index = _case(dtype)
    results = []
    for chunk in (1, 50, 1 << 16):
        monkeypatch.setattr(crops, "CHUNK_FLOATS", chunk)
        for crop in ((5, 4), (1, 1), (1, 3)):
            results.append(crops._crop_kernel(image, boxes, index, np.array(crop), F32(-2), method=method))
    for got, want in zip(results[3:], results[:3] * 2):
        assert got.dtype == np.float32
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("crop", [(5, 4), (1, 1), (3, 1)])
@pytest.mark.parametrize("depth", [1, 3, 40])
def test_bilinear_matches_tfs_loop(crop, depth, monkeypatch):
    monkeypatch.setattr(crops, "CHUNK_FLOATS", 97)  # several chunks, the last one short
    image, boxes, index = _case(np.float32, depth)
    got = crops._crop_kernel(image, boxes, index, np.array(crop), F32(-2), method="bilinear")
    np.testing.assert_array_equal(got, _per_pixel(image, boxes, index, crop, F32(-2)))
