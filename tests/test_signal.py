"""tf.signal against numpy (and scipy's definitions written out), three ways each (eager, tf.function with passes
on, with passes off), with None dimensions, gradients of the composites against finite differences, and the
N-D transforms, which TF 2.21 cannot run on a CPU (so tests/conformance/signal_ops.py does not record them)."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf


def three_ways(fn, *args, signature=None):
    """fn(*args) eagerly, then as a tf.function with the graph passes on and off: the three must agree."""
    eager = fn(*args)
    results = [eager]
    saved = tf.config.optimizer.get_experimental_options()
    for passes in (True, False):
        tf.config.optimizer.set_experimental_options({"disable_all": not passes})
        try:
            results.append(tf.function(fn, input_signature=signature)(*args))
        finally:
            tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})
    for other in results[1:]:
        for a, b in zip(tf.nest.flatten(eager), tf.nest.flatten(other)):
            assert a.dtype == b.dtype and a.shape == b.shape
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-6)
    return eager


RNG = np.random.default_rng(7)
X64 = RNG.normal(size=(3, 4, 6))
Z128 = RNG.normal(size=(3, 4, 6)) + 1j * RNG.normal(size=(3, 4, 6))


@pytest.mark.parametrize("name, numpy_fn, axes", [
    ("fft", np.fft.fft, (-1,)), ("ifft", np.fft.ifft, (-1,)), ("fft2d", np.fft.fftn, (-2, -1)),
    ("ifft2d", np.fft.ifftn, (-2, -1)), ("fft3d", np.fft.fftn, (-3, -2, -1)), ("ifft3d", np.fft.ifftn, (-3, -2, -1))])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_transforms_match_numpy(name, numpy_fn, axes, dtype):
    z = Z128.astype(dtype)
    got = three_ways(getattr(tf.signal, name), tf.constant(z))
    assert got.dtype == tf.as_dtype(dtype)
    want = numpy_fn(z, axes=axes) if len(axes) > 1 else numpy_fn(z)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4 if dtype == np.complex64 else 1e-12, atol=1e-4)


@pytest.mark.parametrize("length", [None, 4, 6, 9])
def test_rfft_irfft_crop_pad_match_numpy(length):
    fft_length = None if length is None else [length]
    spectrum = three_ways(lambda x: tf.signal.rfft(x, fft_length), tf.constant(X64))
    np.testing.assert_allclose(spectrum.numpy(), np.fft.rfft(X64, n=length), atol=1e-12)
    back = three_ways(lambda s: tf.signal.irfft(s, fft_length), spectrum)
    np.testing.assert_allclose(back.numpy(), np.fft.irfft(spectrum.numpy(), n=length), atol=1e-12)


def test_rfft2d_3d_with_lengths_match_numpy():
    x = tf.constant(X64)
    np.testing.assert_allclose(tf.signal.rfft2d(x, [3, 8]).numpy(), np.fft.rfftn(X64, s=[3, 8], axes=(-2, -1)),
                               atol=1e-12)
    np.testing.assert_allclose(tf.signal.rfft3d(x, [2, 5, 5]).numpy(), np.fft.rfftn(X64, s=[2, 5, 5], axes=(0, 1, 2)),
                               atol=1e-12)
    s = tf.signal.rfft3d(x)
    want = np.fft.irfftn(s.numpy(), s=[3, 4, 7], axes=(0, 1, 2))
    np.testing.assert_allclose(tf.signal.irfft3d(s, [3, 4, 7]).numpy(), want, atol=1e-12)


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_nd_transforms_match_numpy(norm):
    # TF 2.21 has no CPU kernel for FFTND and its kin: numpy's definitions are the reference
    z = tf.constant(Z128)
    np.testing.assert_allclose(three_ways(lambda v: tf.signal.fftnd(v, axes=[0, 2], norm=norm), z).numpy(),
                               np.fft.fftn(Z128, axes=(0, 2), norm=norm), atol=1e-12)
    np.testing.assert_allclose(tf.signal.ifftnd(z, fft_length=[2, 8], axes=[-1, 0], norm=norm).numpy(),
                               np.fft.ifftn(Z128, s=[2, 8], axes=(-1, 0), norm=norm), atol=1e-12)
    np.testing.assert_allclose(tf.rfftnd(tf.constant(X64), [5, 3], axes=[1, 0], norm=norm).numpy(),
                               np.fft.rfftn(X64, s=[5, 3], axes=(1, 0), norm=norm), atol=1e-12)
    spectrum = np.fft.rfftn(X64, norm=norm)
    np.testing.assert_allclose(tf.irfftnd(tf.constant(spectrum), [3, 4, 6], norm=norm).numpy(), X64, atol=1e-12)
    with pytest.raises(ValueError, match="norm must be one of"):
        tf.signal.fftnd(z, norm="both")


def test_unknown_dimensions_in_a_traced_function():
    spec = [tf.TensorSpec([None, None], tf.float32)]

    @tf.function(input_signature=spec)
    def spectrum(x):
        return tf.signal.rfft(x, fft_length=[8]), tf.signal.stft(x, 8, 4, pad_end=True)

    x = RNG.normal(size=(2, 13)).astype(np.float32)
    r, s = spectrum(tf.constant(x))
    np.testing.assert_allclose(r.numpy(), np.fft.rfft(x, n=8), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(s.numpy(), tf.signal.stft(tf.constant(x), 8, 4, pad_end=True).numpy(), atol=1e-6)
    r, s = spectrum(tf.constant(x[:, :5]))
    np.testing.assert_allclose(r.numpy(), np.fft.rfft(x[:, :5], n=8), rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="fft_length is needed"):
        tf.function(lambda v: tf.signal.rfft(v), input_signature=spec)(tf.constant(x))


def test_frame_and_overlap_and_add_are_transposes():
    # <frame(x), y> == <x, overlap_and_add(y)>: each is the other's adjoint
    x, y = RNG.normal(size=(2, 17)), RNG.normal(size=(2, 6, 5))
    framed = three_ways(lambda v: tf.signal.frame(v, 5, 3, pad_end=True), tf.constant(x))
    added = three_ways(lambda v: tf.signal.overlap_and_add(v, 3), tf.constant(y))
    assert framed.shape == (2, 6, 5) and added.shape == (2, 20)
    np.testing.assert_allclose(np.sum(framed.numpy() * y), np.sum(np.pad(x, [[0, 0], [0, 3]]) * added.numpy()))


def test_frame_with_a_run_time_length_and_inner_axes():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float64)])
    def framed(v):
        return tf.signal.frame(v, 4, 2, axis=0), tf.signal.frame(v, 4, 3, pad_end=True, pad_value=-1.0, axis=0)

    x = RNG.normal(size=(9, 3))
    a, b = framed(tf.constant(x))
    np.testing.assert_array_equal(a.numpy(), np.stack([x[i:i + 4] for i in range(0, 6, 2)]))
    padded = np.concatenate([x, -np.ones((3, 3))])
    np.testing.assert_array_equal(b.numpy(), np.stack([padded[i:i + 4] for i in (0, 3, 6)]))


def test_windows_match_their_formulas():
    n = np.arange(8)
    np.testing.assert_allclose(tf.signal.hann_window(8).numpy(), 0.5 - 0.5 * np.cos(2 * np.pi * n / 8), atol=1e-7)
    np.testing.assert_allclose(tf.signal.hamming_window(8, periodic=False, dtype=tf.float64).numpy(),
                               np.hamming(8), atol=1e-15)
    np.testing.assert_allclose(tf.signal.kaiser_window(9, beta=5.0, dtype=tf.float64).numpy(), np.kaiser(9, 5.0),
                               atol=1e-12)
    kbd = tf.signal.kaiser_bessel_derived_window(16, dtype=tf.float64).numpy()
    np.testing.assert_allclose(kbd[:8] ** 2 + kbd[8:] ** 2, 1.0, atol=1e-12)  # Princen-Bradley condition
    vorbis = tf.signal.vorbis_window(12, dtype=tf.float64).numpy()
    np.testing.assert_allclose(vorbis[:6] ** 2 + vorbis[6:] ** 2, 1.0, atol=1e-12)


def _dct_reference(x, kind):
    """The unnormalized DCTs, as scipy.fft.dct defines them."""
    n = x.shape[-1]
    k, m = np.arange(n)[:, None], np.arange(n)[None, :]
    if kind == 1:
        basis = np.cos(np.pi * k * m / (n - 1)) * np.where((m == 0) | (m == n - 1), 1.0, 2.0)
    elif kind == 2:
        basis = 2 * np.cos(np.pi * k * (2 * m + 1) / (2 * n))
    elif kind == 3:
        basis = np.cos(np.pi * (2 * k + 1) * m / (2 * n)) * np.where(m == 0, 1.0, 2.0)
    else:
        basis = 2 * np.cos(np.pi * (2 * k + 1) * (2 * m + 1) / (4 * n))
    return x @ basis.T


@pytest.mark.parametrize("kind", [1, 2, 3, 4])
def test_dct_matches_its_definition_and_inverts(kind):
    x = RNG.normal(size=(2, 7))
    got = three_ways(lambda v: tf.signal.dct(v, type=kind), tf.constant(x))
    np.testing.assert_allclose(got.numpy(), _dct_reference(x, kind), atol=1e-10)
    if kind != 1:
        ortho = tf.signal.dct(tf.constant(x), type=kind, norm="ortho")
        np.testing.assert_allclose(tf.signal.idct(ortho, type=kind, norm="ortho").numpy(), x, atol=1e-12)


def test_stft_inverse_stft_round_trip():
    x = RNG.normal(size=(2, 64))
    stfts = three_ways(lambda v: tf.signal.stft(v, 16, 4), tf.constant(x))
    back = tf.signal.inverse_stft(stfts, 16, 4, window_fn=tf.signal.inverse_stft_window_fn(4))
    np.testing.assert_allclose(back.numpy()[:, 12:52], x[:, 12:52], atol=1e-12)


def test_mdct_round_trip():
    x = RNG.normal(size=(40,))
    padded = np.pad(x, (8, 8))
    m = tf.signal.mdct(tf.constant(padded), 16, window_fn=tf.signal.kaiser_bessel_derived_window, norm="ortho")
    back = tf.signal.inverse_mdct(m, window_fn=tf.signal.kaiser_bessel_derived_window, norm="ortho")
    np.testing.assert_allclose(back.numpy()[8:48], x, atol=1e-12)


@pytest.mark.parametrize("fn", [
    lambda x: tf.abs(tf.signal.stft(x, 8, 3, fft_length=10)),
    lambda x: tf.signal.inverse_stft(tf.signal.stft(x, 8, 2), 8, 2),
    lambda x: tf.signal.frame(x * x, 4, 3, pad_end=True, axis=0),
    lambda x: tf.signal.overlap_and_add(tf.reshape(x, [4, 5]), 2),
    lambda x: tf.signal.dct(x, type=1) + tf.signal.idct(x, type=3, norm="ortho"),
    lambda x: tf.signal.dct(x, type=4, n=24) * tf.signal.dct(x, type=2, n=12, norm="ortho")[..., :1],
    lambda x: tf.signal.mdct(x, 8) ** 2,
    lambda x: tf.signal.inverse_mdct(tf.reshape(x, [5, 4])),
    lambda x: tf.signal.mfccs_from_log_mel_spectrograms(tf.reshape(x, [4, 5])),
    lambda x: tf.signal.fftshift(tf.reshape(x, [4, 5])) * tf.range(5.0, dtype=tf.float64),
], ids=["stft", "istft", "frame", "overlap_and_add", "dct13", "dct42", "mdct", "imdct", "mfcc", "fftshift"])
def test_composite_gradients_match_finite_differences(fn):
    check_gradients(fn, [RNG.normal(size=(20,))], rtol=1e-5, atol=1e-7)


def test_mel_matrix_rows_are_triangles():
    m = tf.signal.linear_to_mel_weight_matrix(8, 65, 16000, 100.0, 7000.0).numpy()
    assert m.shape == (65, 8) and m.dtype == np.float32
    assert np.all(m[0] == 0.0) and np.all(m >= 0.0) and np.all(m <= 1.0)
    peaks = m.argmax(0)
    assert np.all(np.diff(peaks) > 0)  # the bands' centers rise with the mel index


def test_errors_name_the_problem():
    with pytest.raises(tf.errors.InvalidArgumentError, match="complex64, complex128"):
        tf.signal.fft(tf.constant([1.0, 2.0]))
    with pytest.raises(TypeError, match="complex64, complex128"):
        tf.function(lambda v: tf.signal.fft(v))(tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match="RFFT requires tf.float32 or tf.float64"):
        tf.signal.rfft(tf.constant([1, 2]))
    with pytest.raises(ValueError, match="fft_length must have 2 element"):
        tf.signal.rfft2d(tf.ones([3, 3]), [4])
    with pytest.raises(ValueError, match="must be less than or equal to frame_length"):
        tf.signal.overlap_and_add(tf.ones([3, 4]), 5)
