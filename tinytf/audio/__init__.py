"""`tf.audio`: 16-bit PCM WAV files decoded to float32 samples in [-1, 1) and encoded back (TF's DecodeWav and
EncodeWav, registered ops in runtime/ops/wav_codec.py, so they run inside Dataset.map)."""

from __future__ import annotations

import collections

from tinytf.runtime.ops import wav_codec as _wav

DecodeWav = collections.namedtuple("DecodeWav", ["audio", "sample_rate"])


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """A WAV file's samples as float32 (samples, channels) and its sample rate (int32). desired_channels keeps the
    first channels or repeats the last one; desired_samples truncates or pads with zeros (-1: as in the file)."""
    audio, sample_rate = _wav.decode_wav(contents, desired_channels, desired_samples, name=name)
    return DecodeWav(audio, sample_rate)


def encode_wav(audio, sample_rate, name=None):
    """float32 (samples, channels) audio as a 16-bit PCM WAV file (a string scalar); values are clipped to
    [-1, 1]."""
    return _wav.encode_wav(audio, sample_rate, name=name)
