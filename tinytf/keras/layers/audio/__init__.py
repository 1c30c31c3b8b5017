"""Keras 3's audio layers: MelSpectrogram (a preprocessing layer: STFT power, mel filters, decibels) and
STFTSpectrogram (an STFT as convolutions with keras.initializers.STFT kernels, trainable)."""

from .mel_spectrogram import MelSpectrogram  # noqa: F401
from .stft_spectrogram import STFTSpectrogram  # noqa: F401
