"""`tf.signal`: Fourier transforms, framing, windows, spectrograms, DCT/MDCT and mel filters, as TF 2.21 ships
them. The transforms are registered ops (runtime/ops/fft.py); everything else is written with ops, so it runs
eagerly and inside tf.function and has gradients where TF has them."""

from .dct import dct, idct, mfccs_from_log_mel_spectrograms  # noqa: F401
from .fft_ops import (  # noqa: F401
    fft,
    fft2d,
    fft3d,
    fftnd,
    fftshift,
    ifft,
    ifft2d,
    ifft3d,
    ifftnd,
    ifftshift,
    irfft,
    irfft2d,
    irfft3d,
    irfftnd,
    rfft,
    rfft2d,
    rfft3d,
    rfftnd,
)
from .framing import frame, overlap_and_add  # noqa: F401
from .mel import linear_to_mel_weight_matrix  # noqa: F401
from .spectral import inverse_mdct, inverse_stft, inverse_stft_window_fn, mdct, stft  # noqa: F401
from .windows import (  # noqa: F401
    hamming_window,
    hann_window,
    kaiser_bessel_derived_window,
    kaiser_window,
    vorbis_window,
)
