"""runtime/ops/window_views.strided_view: the view as_strided makes, read-only, on contiguous and other bases."""

import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided

from tinytf.runtime.ops.window_views import strided_view


def _windows(a):
    s_n, s_h, s_w, s_c = a.strides
    n, h, w, c = a.shape
    return (n, h - 2, w - 2, 3, 3, c), (s_n, s_h, s_w, s_h, s_w, s_c)


@pytest.mark.parametrize("contiguous", [True, False])
def test_same_view_as_as_strided_and_read_only(contiguous):
    base = np.arange(2 * 7 * 9 * 3, dtype=np.float32).reshape(2, 7, 9, 3)
    a = base if contiguous else base[:, 1:, :-1]
    shape, strides = _windows(a)
    got = strided_view(a, shape, strides)
    want = as_strided(a, shape, strides, writeable=False)
    np.testing.assert_array_equal(got, want)
    assert got.shape == want.shape and got.strides == want.strides and not got.flags.writeable
    with pytest.raises(ValueError):
        got[0, 0, 0, 0, 0, 0] = 1.0


def test_offset_starts_inside_a_contiguous_base():
    a = np.arange(4 * 5 * 6, dtype=np.float64).reshape(4, 5, 6)
    view = strided_view(a, (4, 5, 4), a.strides, 2 * a.strides[2])
    np.testing.assert_array_equal(view, a[:, :, 2:])
    with pytest.raises(ValueError, match="C-contiguous"):
        strided_view(a[:, :, 1:], (4, 5, 2), a.strides, 8)


def test_a_view_past_the_base_raises_instead_of_reading_other_memory():
    a = np.zeros((3, 4), np.float32)
    with pytest.raises((ValueError, TypeError)):
        strided_view(a, (4, 4), a.strides)


def test_empty_bases_and_views():
    a = np.zeros((0, 4, 4, 3), np.float32)
    shape, strides = _windows(a)
    assert strided_view(a, shape, strides).shape == (0, 2, 2, 3, 3, 3)
