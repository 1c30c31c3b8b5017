"""tf.signal as TensorFlow 2.21 computes it: the FFT family (complex and real, fft_length crop and pad, dtypes,
errors, gradients), fftshift, frame / overlap_and_add, the windows, stft / inverse_stft, dct / idct, mdct,
the mel matrix and MFCCs, eagerly and inside tf.function, with the examples of TF's docstrings.
Complex results are returned as their real and imaginary parts (JSON has no complex numbers)."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


def cval(tf, x):
    return [x.dtype.name, val(tf.math.real(x)), val(tf.math.imag(x))]


def _cplx(tf, shape, dtype, seed=0):
    real_dtype = "float32" if dtype == tf.complex64 else "float64"
    return tf.complex(tf.constant(data(shape, seed, dtype=real_dtype)), tf.constant(data(shape, seed + 5,
                                                                                         dtype=real_dtype)))


def _grad(tf, fn, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
        if y.dtype.is_complex:
            loss = tf.reduce_sum(tf.math.real(y) * tf.math.imag(y) + tf.math.real(y) * 0.5)
        else:
            loss = tf.reduce_sum(y * y * tf.range(1.0, 1.0 + y.shape[-1], dtype=y.dtype))
    return val(tape.gradient(loss, x))


@program
def p_signal_complex_ffts(tf):
    out = []
    for dtype in (tf.complex64, tf.complex128):
        x = _cplx(tf, (2, 3, 4), dtype)
        for fn in (tf.signal.fft, tf.signal.ifft, tf.signal.fft2d, tf.signal.ifft2d, tf.signal.fft3d,
                   tf.signal.ifft3d):
            out.append(cval(tf, fn(x)))
    out.append(cval(tf, tf.signal.fft(tf.constant([1 + 2j, 3 - 1j, 0.5j]))))
    out.append(cval(tf, tf.signal.fft(tf.zeros([2, 0], tf.complex64))))
    return out


@program
def p_signal_real_ffts(tf):
    x = tf.constant(data((2, 3, 6), 1, dtype="float64"))
    x32 = tf.constant(data((2, 5), 2))
    out = [cval(tf, tf.signal.rfft(x)), cval(tf, tf.signal.rfft2d(x)), cval(tf, tf.signal.rfft3d(x)),
           cval(tf, tf.signal.rfft(x32)), cval(tf, tf.signal.rfft(x32, fft_length=[3])),
           cval(tf, tf.signal.rfft(x32, fft_length=[8])), cval(tf, tf.signal.rfft2d(x32, fft_length=[4, 3])),
           cval(tf, tf.signal.rfft([1.0, 2.0, 3.0])), cval(tf, tf.signal.rfft(tf.constant([1., 2, 3]),
                                                                                  fft_length=tf.constant([6])))]
    spectrum = tf.signal.rfft(x)
    out += [val(tf.signal.irfft(spectrum)), val(tf.signal.irfft(spectrum, fft_length=[6])),
            val(tf.signal.irfft(spectrum, fft_length=[7])), val(tf.signal.irfft(spectrum, fft_length=[3])),
            val(tf.signal.irfft2d(tf.signal.rfft2d(x))), val(tf.signal.irfft3d(tf.signal.rfft3d(x))),
            val(tf.signal.irfft2d(tf.signal.rfft2d(x), fft_length=[2, 5])),
            val(tf.signal.irfft(tf.constant([1 + 1j, 2 + 3j, 4 + 5j], tf.complex64))),
            val(tf.signal.irfft(_cplx(tf, (3, 4), tf.complex128))),
            val(tf.signal.irfft2d(_cplx(tf, (3, 4), tf.complex128))),
            cval(tf, tf.signal.rfft(tf.zeros([1, 0])))]
    return out


@program
def p_signal_fft_errors(tf):
    return [outcome(lambda: tf.signal.fft(tf.constant([1.0, 2.0])), "complex64"),
            outcome(lambda: tf.signal.ifft2d(tf.constant([1, 2])), "complex64"),
            outcome(lambda: tf.signal.fft(tf.constant(1 + 2j, tf.complex64)), "rank"),
            outcome(lambda: tf.signal.fft2d(tf.constant([1 + 2j, 3j], tf.complex64)), "rank"),
            outcome(lambda: tf.signal.rfft(tf.constant([1 + 2j, 3j], tf.complex64)), "RFFT requires"),
            outcome(lambda: tf.signal.rfft(tf.constant([1, 2])), "RFFT requires"),
            outcome(lambda: tf.signal.irfft(tf.constant([1.0, 2.0])), "IRFFT requires"),
            outcome(lambda: tf.signal.rfft2d(tf.constant([1.0, 2.0])), "rank at least 2"),
            outcome(lambda: tf.signal.irfft3d(tf.constant([[1j]], tf.complex64)), "rank at least 3")]


@program
def p_signal_fft_gradients(tf):
    x = data((2, 6), 3, dtype="float64")
    y = data((2, 6), 4, dtype="float64")

    def cx(v):
        return tf.complex(v, v * v - 0.5)

    return [_grad(tf, lambda v: tf.signal.fft(cx(v)), x), _grad(tf, lambda v: tf.signal.ifft(cx(v)), x),
            _grad(tf, lambda v: tf.signal.fft2d(cx(v)), x), _grad(tf, lambda v: tf.signal.ifft2d(cx(v)), x),
            _grad(tf, lambda v: tf.signal.fft3d(cx(v)[None]), x),
            _grad(tf, lambda v: tf.signal.ifft3d(cx(v)[None]), x),
            _grad(tf, tf.signal.rfft, x), _grad(tf, tf.signal.rfft, y[:, :5]), _grad(tf, tf.signal.rfft2d, x),
            _grad(tf, tf.signal.rfft2d, y[:, :5]), _grad(tf, lambda v: tf.signal.rfft(v, [9]), x),
            _grad(tf, lambda v: tf.signal.irfft(cx(v)), x), _grad(tf, lambda v: tf.signal.irfft(cx(v)), y[:, :5]),
            _grad(tf, lambda v: tf.signal.irfft(cx(v), [12]), x),
            _grad(tf, lambda v: tf.signal.irfft2d(cx(v)), x), _grad(tf, lambda v: tf.signal.irfft2d(cx(v)), y[:, :5])]


@program
def p_signal_fft_in_functions(tf):
    @tf.function
    def spectra(x, z):
        return tf.signal.rfft(x), tf.signal.irfft(tf.signal.rfft(x)), tf.signal.fft2d(z), tf.signal.ifft(z)

    x = tf.constant(data((3, 8), 5))
    z = _cplx(tf, (2, 4), tf.complex64)
    a, b, c, d = spectra(x, z)

    @tf.function(input_signature=[tf.TensorSpec([None, 8], tf.float32)])
    def power(x):
        return tf.abs(tf.signal.rfft(x)) ** 2

    return [cval(tf, a), val(b), cval(tf, c), cval(tf, d), val(power(x)), val(power(x[:1]))]


@program
def p_signal_fftshift(tf):
    return [val(tf.signal.fftshift([0., 1., 2., 3., 4., -5., -4., -3., -2., -1.])),
            val(tf.signal.ifftshift([[0., 1., 2.], [3., 4., -4.], [-3., -2., -1.]])),
            val(tf.signal.fftshift(tf.reshape(tf.range(15), [3, 5]), axes=1)),
            val(tf.signal.ifftshift(tf.reshape(tf.range(15), [3, 5]), axes=[0])),
            val(tf.signal.fftshift(tf.reshape(tf.range(12), [3, 4]), axes=(0, -1))),
            val(tf.function(lambda v: tf.signal.fftshift(v))(tf.constant(data((4, 5), 6))))]


@program
def p_signal_frame(tf):
    signal = tf.constant(data((2, 11), 7))
    audio = tf.zeros([3, 9152])
    return [val(tf.signal.frame(signal, 4, 3)), val(tf.signal.frame(signal, 4, 3, pad_end=True)),
            val(tf.signal.frame(signal, 4, 3, pad_end=True, pad_value=9.0)),
            val(tf.signal.frame(tf.transpose(signal), 3, 2, axis=0)),
            val(tf.signal.frame(tf.range(10), 4, 4)), val(tf.signal.frame(signal, 12, 1)),
            val(tf.signal.frame(signal, 12, 5, pad_end=True)),
            tf.signal.frame(audio, 512, 180).shape.as_list(),
            tf.signal.frame(audio, 512, 180, pad_end=True).shape.as_list()]


@program
def p_signal_overlap_and_add(tf):
    frames = tf.constant(data((2, 4, 6), 8))
    return [val(tf.signal.overlap_and_add(frames, 2)), val(tf.signal.overlap_and_add(frames, 6)),
            val(tf.signal.overlap_and_add(frames, 5)), val(tf.signal.overlap_and_add(tf.ones([3, 4]), 2)),
            _grad(tf, lambda v: tf.signal.overlap_and_add(v, 3), data((3, 5), 9, dtype="float64")),
            _grad(tf, lambda v: tf.signal.frame(v, 4, 2, pad_end=True), data((2, 9), 10, dtype="float64")),
            outcome(lambda: tf.signal.overlap_and_add(tf.ones([4]), 2), "rank")]


@program
def p_signal_windows(tf):
    out = []
    for length in (1, 2, 5, 8):
        out += [val(tf.signal.hann_window(length)), val(tf.signal.hann_window(length, periodic=False)),
                val(tf.signal.hamming_window(length)), val(tf.signal.hamming_window(length, periodic=False,
                                                                                     dtype=tf.float64)),
                val(tf.signal.kaiser_window(length)), val(tf.signal.kaiser_window(length, beta=3.0,
                                                                                  dtype=tf.float64)),
                val(tf.signal.vorbis_window(length))]
    out += [val(tf.signal.kaiser_bessel_derived_window(8)), val(tf.signal.kaiser_bessel_derived_window(6, 4.0)),
            val(tf.signal.kaiser_bessel_derived_window(7, dtype=tf.float64)),
            outcome(lambda: tf.signal.hann_window(4, dtype=tf.int32), "floating point")]
    return out


@program
def p_signal_stft(tf):
    signal = tf.constant(data((2, 40), 11))
    stfts = tf.signal.stft(signal, 12, 5)
    padded = tf.signal.stft(signal, 12, 5, fft_length=20, pad_end=True, window_fn=tf.signal.hamming_window)
    plain = tf.signal.stft(signal, 8, 4, window_fn=None)
    inverse = tf.signal.inverse_stft(stfts, 12, 5, window_fn=tf.signal.inverse_stft_window_fn(5))
    inverse_short = tf.signal.inverse_stft(padded, 12, 5, fft_length=20)
    inverse_long = tf.signal.inverse_stft(tf.signal.stft(signal, 12, 4, fft_length=8), 12, 4, fft_length=8)
    spectrogram = tf.function(lambda w: tf.abs(tf.signal.stft(w, frame_length=16, frame_step=8))[..., tf.newaxis])
    return [cval(tf, stfts), cval(tf, padded), cval(tf, plain), val(inverse), val(inverse_short), val(inverse_long),
            val(tf.signal.inverse_stft_window_fn(3, tf.signal.hamming_window)(8, tf.float32)),
            val(spectrogram(signal)),
            _grad(tf, lambda v: tf.abs(tf.signal.stft(v, 8, 3)), data((1, 20), 12, dtype="float64")),
            _grad(tf, lambda v: tf.signal.inverse_stft(tf.complex(v, -v), 6, 2, fft_length=8),
                  data((4, 5), 13, dtype="float64"))]


@program
def p_signal_dct(tf):
    x = tf.constant(data((2, 6), 14, dtype="float64"))
    x32 = tf.constant(data((3, 5), 15))
    out = []
    for t in (1, 2, 3, 4):
        out += [val(tf.signal.dct(x, type=t)), val(tf.signal.idct(x32, type=t)),
                val(tf.signal.dct(x32, type=t, n=3)), val(tf.signal.dct(x, type=t, n=8))]
        if t != 1:
            out += [val(tf.signal.dct(x, type=t, norm="ortho")),
                    val(tf.signal.idct(tf.signal.dct(x, type=t, norm="ortho"), type=t, norm="ortho"))]
        out.append(_grad(tf, lambda v, t=t: tf.signal.dct(v, type=t), data((2, 5), 16 + t, dtype="float64")))
    out += [outcome(lambda: tf.signal.dct(x, type=1, norm="ortho"), "Normalization"),
            outcome(lambda: tf.signal.dct(x, type=5), "Types I, II, III and IV"),
            outcome(lambda: tf.signal.dct(x, axis=0), "axis must be -1"),
            outcome(lambda: tf.signal.dct(x, norm="forward"), "Unknown normalization"),
            outcome(lambda: tf.signal.dct(tf.ones([3, 1]), type=1), "greater than one"),
            outcome(lambda: tf.signal.dct(x, n=0), "positive integer")]
    return out


@program
def p_signal_mdct(tf):
    signal = tf.constant(data((2, 48), 21))
    m = tf.signal.mdct(signal, 16)
    m_ortho = tf.signal.mdct(signal, 16, window_fn=tf.signal.kaiser_bessel_derived_window, norm="ortho")
    m_plain = tf.signal.mdct(signal, 8, window_fn=None, pad_end=True)
    return [val(m), val(m_ortho), val(m_plain), val(tf.signal.inverse_mdct(m)),
            val(tf.signal.inverse_mdct(m_ortho, window_fn=tf.signal.kaiser_bessel_derived_window, norm="ortho")),
            val(tf.signal.inverse_mdct(m_plain, window_fn=None)),
            outcome(lambda: tf.signal.mdct(signal, 10), "multiple of 4")]


@program
def p_signal_inverse_mdct_docstring(tf):
    @tf.function
    def compare_round_trip(waveform):
        halflen = 200
        waveform_pad = tf.pad(waveform, [[halflen, 0], ])
        mdct = tf.signal.mdct(waveform_pad, 400, pad_end=True, window_fn=tf.signal.vorbis_window)
        inverse_mdct = tf.signal.inverse_mdct(mdct, window_fn=tf.signal.vorbis_window)
        return inverse_mdct[halflen: halflen + 1000]

    waveform = tf.constant(data((1000,), 22))
    return [bool(np.allclose(waveform.numpy(), compare_round_trip(waveform).numpy(), rtol=1e-3, atol=1e-4))]


@program
def p_signal_mel_and_mfcc(tf):
    matrix = tf.signal.linear_to_mel_weight_matrix()
    small = tf.signal.linear_to_mel_weight_matrix(8, 17, 16000, 20.0, 7000.0, dtype=tf.float64)
    pcm = tf.constant(data((2, 400), 23, dtype="float64"))  # float64: log of small mel bins amplifies rounding
    stfts = tf.signal.stft(pcm, frame_length=64, frame_step=32, fft_length=64)
    spectrograms = tf.abs(stfts)
    weights = tf.signal.linear_to_mel_weight_matrix(10, stfts.shape[-1], 16000, 80.0, 7600.0, tf.float64)
    mel = tf.tensordot(spectrograms, weights, 1)
    log_mel = tf.math.log(mel + 1e-6)
    mfccs = tf.signal.mfccs_from_log_mel_spectrograms(log_mel)[..., :6]
    return [val(matrix), val(small), val(mfccs),
            _grad(tf, tf.signal.mfccs_from_log_mel_spectrograms, data((2, 3, 5), 24, dtype="float64")),
            outcome(lambda: tf.signal.linear_to_mel_weight_matrix(0), "num_mel_bins must be positive"),
            outcome(lambda: tf.signal.linear_to_mel_weight_matrix(upper_edge_hertz=5000.0), "Nyquist"),
            outcome(lambda: tf.signal.linear_to_mel_weight_matrix(lower_edge_hertz=4000.0), "upper_edge_hertz")]
