"""keras.initializers.STFT (alias STFTInitializer): the real or imaginary DFT basis, windowed, as the kernels of
the convolutions keras.layers.STFTSpectrogram computes its STFT with. Keras 3 semantics: shape (frame_length, 1,
fft_length // 2 + 1), kernel = cos or sin of -2 pi t f / fft_length, times the window, divided by the window's L2
norm ("density") or L1 norm ("spectrum")."""

from __future__ import annotations

import numpy as np

import tinytf as _tf

from .initializers import Initializer, _constant, _dtype
from .stft_windows import get_window


class STFT(Initializer):
    """Initializer of Conv kernels for the short-time Fourier transform (`side` "real" or "imag")."""

    def __init__(self, side="real", window="hann", scaling="density", periodic=False):
        if side not in ["real", "imag"]:
            raise ValueError(f"side should be 'real' or 'imag', not {side}")
        if isinstance(window, str):
            get_window(window, 1)  # an unknown name raises here, as scipy does in Keras
        if scaling is not None and scaling not in ["density", "spectrum"]:
            raise ValueError(f"Scaling is invalid, it must be `None`, 'density' or 'spectrum'. Received "
                             f"scaling={scaling}")
        self.side, self.window, self.scaling, self.periodic = side, window, scaling, periodic

    def __call__(self, shape, dtype=None):
        dtype = _dtype(dtype)
        frame_length, _, bins = (int(d) for d in shape)
        t = dtype.as_numpy_dtype
        win, scale = None, t(1)
        if self.window is not None:
            values = get_window(self.window, frame_length, self.periodic) if isinstance(self.window, str) else \
                np.asarray(self.window.numpy() if hasattr(self.window, "numpy") else self.window)
            win = values.astype(t)
            if win.ndim != 1 or win.shape[-1] != frame_length:
                raise ValueError(f"The shape of `window` must be equal to [frame_length].Received: window shape="
                                 f"{_tf.TensorShape(win.shape)}")
            win = win.reshape(frame_length, 1, 1)
            if self.scaling == "density":
                scale = np.sqrt(np.sum(np.square(win)))
            elif self.scaling == "spectrum":
                scale = np.sum(np.abs(win))
        # Keras' arithmetic in the kernel's dtype: freq = k / fft_length, args = -2 t freq pi
        freq = np.arange(bins, dtype=t).reshape(1, 1, bins) / t((bins - 1) * 2)
        time = np.arange(frame_length, dtype=t).reshape(frame_length, 1, 1)
        args = (t(-2) * time * freq) * np.arccos(t(-1))
        kernel = np.cos(args) if self.side == "real" else np.sin(args)
        if win is not None:
            kernel = kernel * win / scale
        return _constant(kernel.astype(t), dtype)

    def get_config(self) -> dict:
        return {"side": self.side, "window": self.window, "periodic": self.periodic, "scaling": self.scaling}
