"""WAV files, decoded and encoded with struct and numpy: TF's DecodeWav and EncodeWav as ops, so tf.audio's
functions run inside dataset.map graphs. As in TF, only 16-bit PCM is read and written: samples become float32 in
[-1, 1) (divided by 32768), and floats are clipped to [-1, 1], scaled by 32768, rounded half away from zero and
saturated to int16 when written. Chunks other than 'fmt ' and 'data' are skipped."""

from __future__ import annotations

import struct

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register

_PCM, _EXTENSIBLE = 1, 0xFFFE


def _bytes_of(value) -> bytes:
    value = value[()] if isinstance(value, np.ndarray) else value
    return value if isinstance(value, bytes) else str(value).encode()


def _expect(data: bytes, pos: int, tag: bytes):
    found = data[pos:pos + 4]
    if found != tag:
        raise InvalidArgumentError(f"Header mismatch: Expected {tag.decode()} but found "
                                   f"{found.decode('latin-1')}")


def decode(data: bytes):
    """(samples as int16 (frames, channels), sample rate) of a 16-bit PCM WAV file."""
    if len(data) < 12:
        raise InvalidArgumentError(f"Data too short when trying to read the WAV header: {len(data)} bytes")
    _expect(data, 0, b"RIFF")
    _expect(data, 8, b"WAVE")
    pos, channels, rate, samples = 12, None, None, None
    while pos + 8 <= len(data):
        tag, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = data[pos + 8:pos + 8 + size]
        if tag == b"fmt ":
            if len(body) < 16:
                raise InvalidArgumentError(f"Bad fmt chunk size: {size} (at least 16 expected)")
            audio_format, channels, rate, _, _, bits = struct.unpack("<HHIIHH", body[:16])
            if audio_format not in (_PCM, _EXTENSIBLE):
                raise InvalidArgumentError(f"Bad audio format value: {audio_format} (only PCM WAV files are read)")
            if bits != 16:
                raise InvalidArgumentError(f"Can only read 16-bit WAV files, but received {bits}")
            if channels < 1:
                raise InvalidArgumentError("Bad number of channels: 0")
        elif tag == b"data":
            if channels is None:
                raise InvalidArgumentError("The WAV file has no fmt chunk before its data chunk")
            usable = len(body) - len(body) % (2 * channels)
            samples = np.frombuffer(body[:usable], "<i2").reshape(-1, channels)
            break
        pos += 8 + size + (size & 1)  # chunks are padded to an even length
    if samples is None:
        raise InvalidArgumentError("No data chunk found in the WAV file")
    return samples, rate


def _decode_kernel(contents, *, desired_channels, desired_samples):
    samples, rate = decode(_bytes_of(contents))
    audio = samples.astype(np.float32) / np.float32(32768.0)
    if desired_channels >= 0 and desired_channels != audio.shape[1]:
        # fewer channels: the first ones; more: the last one repeated (TF's DecodeWav)
        picks = np.minimum(np.arange(desired_channels), audio.shape[1] - 1)
        audio = audio[:, picks]
    if desired_samples >= 0:
        if desired_samples <= audio.shape[0]:
            audio = audio[:desired_samples]
        else:
            audio = np.concatenate([audio, np.zeros((desired_samples - audio.shape[0], audio.shape[1]),
                                                    np.float32)])
    return np.ascontiguousarray(audio), np.int32(rate)


def _infer_decode(contents, *, desired_channels, desired_samples):
    if not contents.dtype.is_string:
        raise TypeError(f"decode_wav: contents must be a string tensor, got {contents.dtype.name}")
    if contents._shape is not None and len(contents._shape) != 0:
        raise ValueError(f"decode_wav: contents must be a scalar, got shape {list(contents._shape)}")
    shape = (desired_samples if desired_samples >= 0 else None, desired_channels if desired_channels >= 0 else None)
    return [(dtypes.float32, shape), (dtypes.int32, ())]


def encode(audio: np.ndarray, rate: int) -> bytes:
    """A (frames, channels) float array as a 16-bit PCM WAV file."""
    scaled = np.clip(audio.astype(np.float32), -1.0, 1.0) * np.float32(32768.0)
    rounded = np.sign(scaled) * np.floor(np.abs(scaled) + np.float32(0.5))  # std::round: half away from zero
    pcm = np.clip(rounded, -32768, 32767).astype("<i2").tobytes()
    channels = audio.shape[1]
    fmt = struct.pack("<HHIIHH", _PCM, channels, rate, rate * channels * 2, channels * 2, 16)
    return b"RIFF" + struct.pack("<I", 36 + len(pcm)) + b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt + \
        b"data" + struct.pack("<I", len(pcm)) + pcm


def _encode_kernel(audio, sample_rate):
    if audio.ndim != 2:
        raise InvalidArgumentError(f"audio must be 2-dimensional{list(audio.shape)}")
    out = np.empty((), dtype=object)
    out[()] = encode(np.asarray(audio), int(sample_rate))
    return out


def _infer_encode(audio, sample_rate):
    if audio.dtype is not dtypes.float32:
        raise TypeError(f"encode_wav: audio must be float32, got {audio.dtype.name}")
    if audio._shape is not None and len(audio._shape) != 2:
        raise ValueError(f"audio must be 2-dimensional{list(audio._shape)}")
    if sample_rate.dtype is not dtypes.int32 or (sample_rate._shape is not None and len(sample_rate._shape) != 0):
        raise ValueError("encode_wav: sample_rate must be an int32 scalar")
    return dtypes.string, ()


decode_wav_op = register(OpDef("decode_wav", _decode_kernel, _infer_decode, differentiable=False,
                               doc="TF's DecodeWav: a 16-bit PCM WAV file's samples in [-1, 1) and its rate"))
encode_wav_op = register(OpDef("encode_wav", _encode_kernel, _infer_encode, differentiable=False,
                               doc="TF's EncodeWav: float samples as a 16-bit PCM WAV file"))


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """`tf.audio.decode_wav`: (audio float32 (samples, channels), sample_rate int32) of a WAV string scalar."""
    return apply(decode_wav_op, [convert_to_tensor(contents, dtypes.string)],
                 {"desired_channels": int(desired_channels), "desired_samples": int(desired_samples)}, name=name)


def encode_wav(audio, sample_rate, name=None):
    """`tf.audio.encode_wav`: float32 (samples, channels) audio in [-1, 1] as a 16-bit PCM WAV string scalar."""
    return apply(encode_wav_op, [convert_to_tensor(audio, dtypes.float32),
                                 convert_to_tensor(sample_rate, dtypes.int32)], name=name)
