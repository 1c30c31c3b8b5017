"""The windows keras.initializers.STFT takes by name, as scipy.signal.get_window makes them (Keras calls scipy;
tinytf needs no scipy): symmetric by default, periodic (`fftbins`) = the symmetric window one sample longer,
truncated. Names and aliases are scipy's; a ('kaiser', beta) tuple is accepted as in scipy."""

from __future__ import annotations

import numpy as np


def _general_cosine(m, coefficients):
    angle = np.linspace(-np.pi, np.pi, m)
    return sum(a * np.cos(k * angle) for k, a in enumerate(coefficients))


def _bartlett(m):
    n = np.arange(m)
    return np.where(n <= (m - 1) / 2.0, 2.0 * n / (m - 1), 2.0 - 2.0 * n / (m - 1))


def _triang(m):
    n = np.arange(1, (m + 1) // 2 + 1)
    if m % 2 == 0:
        half = (2 * n - 1.0) / m
        return np.concatenate([half, half[::-1]])
    half = 2 * n / (m + 1.0)
    return np.concatenate([half, half[-2::-1]])


def _cosine(m):
    return np.sin(np.pi / m * (np.arange(m) + 0.5))


def _bohman(m):
    fac = np.abs(np.linspace(-1, 1, m)[1:-1])
    inner = (1 - fac) * np.cos(np.pi * fac) + 1.0 / np.pi * np.sin(np.pi * fac)
    return np.concatenate([[0.0], inner, [0.0]])


_WINDOWS = {
    "boxcar": np.ones, "triang": _triang, "bartlett": _bartlett, "cosine": _cosine, "bohman": _bohman,
    "hann": lambda m: _general_cosine(m, [0.5, 0.5]), "hamming": lambda m: _general_cosine(m, [0.54, 0.46]),
    "blackman": lambda m: _general_cosine(m, [0.42, 0.50, 0.08]),
}
_ALIASES = {"box": "boxcar", "ones": "boxcar", "rect": "boxcar", "rectangular": "boxcar", "triangle": "triang",
            "tri": "triang", "bart": "bartlett", "brt": "bartlett", "halfcosine": "cosine", "hanning": "hann",
            "han": "hann", "hamm": "hamming", "ham": "hamming", "black": "blackman", "blk": "blackman",
            "bman": "bohman", "bmn": "bohman"}


def get_window(window, length: int, fftbins: bool = True) -> np.ndarray:
    """scipy.signal.get_window(window, length, fftbins) for the windows above (float64)."""
    args = ()
    if isinstance(window, tuple):
        window, args = window[0], window[1:]
    name = _ALIASES.get(window, window)
    if name in ("kaiser", "ksr"):
        if not args:
            raise ValueError("The 'kaiser' window needs one or more parameters -- pass a tuple.")
        make = lambda m: np.kaiser(m, args[0])  # noqa: E731 - one parameter bound
    elif name in _WINDOWS:
        make = _WINDOWS[name]
    else:
        raise ValueError("Unknown window type.")
    if length <= 1:
        return np.ones(max(length, 0))
    if fftbins:  # periodic: one sample longer, the last dropped
        return np.asarray(make(length + 1), np.float64)[:-1]
    return np.asarray(make(length), np.float64)
