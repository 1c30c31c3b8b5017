"""tf.audio's WAV codec against Python's wave module (both directions), chunks other than fmt/data, eagerly and in
graphs (passes on and off) and Dataset.map; keras.utils.audio_dataset_from_directory's shapes, padding, splits
and ragged batches. tests/conformance/audio_pipeline.py compares the same with TF 2.21's recorded results."""

from __future__ import annotations

import io
import os
import struct
import wave

import numpy as np
import pytest

import tinytf as tf


def wav_bytes(samples, rate=16000, width=2):
    samples = np.asarray(samples)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as w:
        w.setnchannels(samples.shape[1])
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(samples.astype({1: "u1", 2: "<i2"}[width]).tobytes())
    return buffer.getvalue()


RNG = np.random.default_rng(3)
PCM = RNG.integers(-32768, 32768, size=(50, 2)).astype(np.int16)


@pytest.mark.parametrize("passes", [None, True, False])
def test_decode_matches_the_wave_module(passes):
    contents = tf.constant(wav_bytes(PCM, rate=22050))

    def decode(c):
        return tf.audio.decode_wav(c)

    if passes is None:
        audio, rate = decode(contents)
    else:
        saved = tf.config.optimizer.get_experimental_options()
        tf.config.optimizer.set_experimental_options({"disable_all": not passes})
        try:
            audio, rate = tf.function(decode)(contents)
        finally:
            tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})
    assert audio.dtype == tf.float32 and int(rate) == 22050
    np.testing.assert_array_equal(audio.numpy(), PCM / 32768.0)


def test_encoded_files_read_back_with_the_wave_module():
    audio = RNG.uniform(-1.2, 1.2, size=(40, 3)).astype(np.float32)
    contents = tf.audio.encode_wav(audio, 11025).numpy()
    with wave.open(io.BytesIO(contents)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes()) == (3, 2, 11025, 40)
        pcm = np.frombuffer(w.readframes(40), "<i2").reshape(40, 3)
    scaled = np.clip(audio, -1.0, 1.0) * 32768.0
    want = np.clip(np.sign(scaled) * np.floor(np.abs(scaled) + 0.5), -32768, 32767)
    np.testing.assert_array_equal(pcm, want)
    np.testing.assert_array_equal(tf.audio.decode_wav(contents).audio.numpy(), want / 32768.0)


def test_other_chunks_are_skipped_and_odd_chunks_padded():
    plain = wav_bytes(PCM[:4, :1], rate=8000)
    header, fmt, rest = plain[:12], plain[12:36], plain[36:]
    extra = b"LIST" + struct.pack("<I", 3) + b"abc\x00"  # an odd-sized chunk, padded to an even length
    audio, rate = tf.audio.decode_wav(header + fmt + extra + rest)
    np.testing.assert_array_equal(audio.numpy()[:, 0], PCM[:4, 0] / 32768.0)
    assert int(rate) == 8000


def test_errors_name_the_problem():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expected RIFF"):
        tf.audio.decode_wav(b"RIFX....WAVE")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Can only read 16-bit WAV files, but received 8"):
        tf.audio.decode_wav(wav_bytes([[1], [2]], width=1))
    with pytest.raises(tf.errors.InvalidArgumentError, match="No data chunk"):
        tf.audio.decode_wav(wav_bytes(PCM[:2])[:36])
    with pytest.raises(tf.errors.InvalidArgumentError, match="2-dimensional"):
        tf.audio.encode_wav(np.zeros(4, np.float32), 8000)


def test_decode_in_dataset_map_with_desired_shape():
    files = [wav_bytes(PCM[:n]) for n in (5, 30, 12)]
    ds = tf.data.Dataset.from_tensor_slices(files).map(
        lambda c: tf.audio.decode_wav(c, desired_channels=1, desired_samples=20).audio)
    assert ds.element_spec.shape.as_list() == [20, 1]
    got = np.stack([x.numpy() for x in ds])
    for i, n in enumerate((5, 30, 12)):
        want = np.zeros(20)
        want[:min(n, 20)] = PCM[:min(n, 20), 0] / 32768.0
        np.testing.assert_array_equal(got[i, :, 0], want)


@pytest.fixture
def speech_folder(tmp_path):
    for c, name in enumerate(("no", "yes")):
        os.makedirs(tmp_path / name)
        for i in range(5):
            (tmp_path / name / f"{i}.wav").write_bytes(wav_bytes(PCM[:10 + 7 * i + c, :1]))
    (tmp_path / "yes" / "readme.md").write_text("skipped: not a .wav")
    return str(tmp_path)


def test_audio_dataset_pads_each_batch_to_its_longest_file(speech_folder):
    ds = tf.keras.utils.audio_dataset_from_directory(speech_folder, batch_size=4, shuffle=False, verbose=False)
    assert ds.class_names == ["no", "yes"]
    batches = list(ds)
    assert [x.shape.as_list() for x, _ in batches] == [[4, 31, 1], [4, 38, 1], [2, 39, 1]]
    assert np.concatenate([y.numpy() for _, y in batches]).tolist() == [0] * 5 + [1] * 5
    np.testing.assert_array_equal(batches[0][0].numpy()[0, :10, 0], PCM[:10, 0] / 32768.0)
    assert np.all(batches[0][0].numpy()[0, 10:] == 0.0)


def test_audio_dataset_splits_lengths_and_ragged(speech_folder):
    train, validation = tf.keras.utils.audio_dataset_from_directory(
        speech_folder, batch_size=3, validation_split=0.3, subset="both", seed=5, output_sequence_length=25,
        label_mode="categorical", verbose=False)
    sizes = [sum(int(x.shape[0]) for x, _ in ds) for ds in (train, validation)]
    assert sizes == [7, 3]
    x, y = next(iter(train))
    assert x.shape.as_list() == [3, 25, 1] and y.dtype == tf.float32 and y.shape.as_list() == [3, 2]
    ragged = tf.keras.utils.audio_dataset_from_directory(speech_folder, ragged=True, shuffle=False,
                                                         label_mode=None, verbose=False)
    (batch,) = list(ragged)
    assert isinstance(batch, tf.RaggedTensor)
    assert batch.row_lengths().numpy().tolist() == [10, 17, 24, 31, 38, 11, 18, 25, 32, 39]
    with pytest.raises(ImportError, match="tensorflow_io"):
        tf.keras.utils.audio_dataset_from_directory(speech_folder, sampling_rate=8000)
