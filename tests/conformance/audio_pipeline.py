"""tf.audio.decode_wav / encode_wav and keras.utils.audio_dataset_from_directory as TensorFlow 2.21 runs them, and
the data pipeline of TF's "Simple audio recognition" tutorial (audio_dataset_from_directory with
output_sequence_length and subset="both", squeeze, shard, the STFT spectrogram [..., tf.newaxis]) on a few small
16-bit WAV files written here with Python's wave module."""

from __future__ import annotations

import io
import os
import shutil
import tempfile
import wave

import numpy as np

from . import data, outcome, program, val


def wav_bytes(samples, rate=16000, width=2):
    """A PCM WAV file of int samples (frames, channels) written by Python's wave module."""
    samples = np.asarray(samples)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as w:
        w.setnchannels(samples.shape[1])
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(samples.astype({1: "u1", 2: "<i2", 4: "<i4"}[width]).tobytes())
    return buffer.getvalue()


def _pcm(length, seed, channels=1):
    return np.round(data((length, channels), seed, scale=0.6) * 32767).astype(np.int16)


def make_speech_folder(root):
    """3 classes ("down", "go", "up") of 4 mono files each, 600 to 1400 samples long."""
    for c, name in enumerate(("down", "go", "up")):
        os.makedirs(os.path.join(root, name))
        for i in range(4):
            with open(os.path.join(root, name, f"clip_{i}.wav"), "wb") as f:
                f.write(wav_bytes(_pcm(600 + 200 * i + 50 * c, seed=10 * c + i)))
    with open(os.path.join(root, "go", "notes.txt"), "w") as f:
        f.write("not audio")


@program
def p_audio_decode_encode_wav(tf):
    stereo = wav_bytes(_pcm(7, 1, channels=2), rate=22050)
    mono = wav_bytes(_pcm(5, 2), rate=8000)
    a = np.array([[0.0, 0.5], [-1.0, 1.0], [0.25, -0.3], [2.0, -2.0], [1e-5, 0.99999]], np.float32)
    encoded = tf.audio.encode_wav(a, 16000)
    decoded = tf.audio.decode_wav(stereo)

    @tf.function
    def in_graph(contents):
        audio, rate = tf.audio.decode_wav(contents, desired_channels=1, desired_samples=9)
        return audio, rate, tf.audio.encode_wav(audio * 0.5, rate)

    graph_audio, graph_rate, graph_encoded = in_graph(tf.constant(stereo))
    spec = tf.TensorSpec([], tf.string)
    shapes = [tf.function(lambda c, k=k: tf.audio.decode_wav(c, **k)).get_concrete_function(spec).structured_outputs
              for k in ({}, {"desired_channels": 1}, {"desired_samples": 100, "desired_channels": 2})]
    return [val(decoded.audio), val(decoded.sample_rate), val(tf.audio.decode_wav(stereo, desired_channels=1)),
            val(tf.audio.decode_wav(stereo, desired_channels=3)), val(tf.audio.decode_wav(mono, desired_channels=2)),
            val(tf.audio.decode_wav(stereo, desired_samples=3)), val(tf.audio.decode_wav(mono, desired_samples=8)),
            val(tf.audio.decode_wav(stereo, desired_channels=0).audio),
            list(encoded.numpy()), list(tf.audio.encode_wav(tf.zeros([0, 2]), 100).numpy()),
            val(tf.audio.decode_wav(encoded).audio), val(graph_audio), val(graph_rate), list(graph_encoded.numpy()),
            [[s.audio.shape.as_list(), s.sample_rate.shape.as_list()] for s in shapes],
            type(decoded).__name__, list(decoded._fields)]


@program
def p_audio_wav_errors(tf):
    return [outcome(lambda: tf.audio.decode_wav(b"hello there, not a wav file"), "Header mismatch"),
            outcome(lambda: tf.audio.decode_wav(wav_bytes([[0], [128], [255]], width=1)), "16-bit"),
            outcome(lambda: tf.audio.decode_wav(wav_bytes([[0], [2 ** 30]], width=4)), "16-bit"),
            outcome(lambda: tf.audio.encode_wav(np.zeros(5, np.float32), 16000), "2-dimensional")]


@program
def p_audio_dataset_from_directory(tf):
    tf.random.set_seed(None)  # the shuffles' op seeds below pair with TF's default global seed, whatever ran before
    root = tempfile.mkdtemp()
    try:
        make_speech_folder(root)
        out = []
        ds = tf.keras.utils.audio_dataset_from_directory(root, batch_size=5, shuffle=False, verbose=False)
        out.append(ds.class_names)
        out.append([[val(x), val(y)] for x, y in ds])
        ds = tf.keras.utils.audio_dataset_from_directory(root, batch_size=4, seed=3, output_sequence_length=900,
                                                         label_mode="categorical", verbose=False)
        out.append([[val(x), val(y)] for x, y in ds])
        ragged = tf.keras.utils.audio_dataset_from_directory(root, batch_size=3, ragged=True, seed=1,
                                                             label_mode=None, verbose=False)
        out.append([[val(x.row_lengths()), val(tf.reduce_sum(x.flat_values))] for x in ragged])
        unbatched = tf.keras.utils.audio_dataset_from_directory(root, batch_size=None, seed=2, verbose=False)
        out.append([[x.shape.as_list(), val(y)] for x, y in unbatched])
        out.append(outcome(lambda: tf.keras.utils.audio_dataset_from_directory(
            root, ragged=True, output_sequence_length=100), "Cannot set both"))
        out.append(outcome(lambda: tf.keras.utils.audio_dataset_from_directory(
            root, label_mode="binary", verbose=False), "exactly 2"))
        out.append(outcome(lambda: tf.keras.utils.audio_dataset_from_directory(
            root, validation_split=0.2, subset="training"), "seed"))
        return out
    finally:
        shutil.rmtree(root)


@program
def p_audio_recognition_tutorial_pipeline(tf):
    root = tempfile.mkdtemp()
    try:
        make_speech_folder(root)
        train_ds, val_ds = tf.keras.utils.audio_dataset_from_directory(
            directory=root, batch_size=4, validation_split=0.25, seed=0, output_sequence_length=1000,
            subset="both", verbose=False)
        label_names = np.array(train_ds.class_names)

        def squeeze(audio, labels):
            audio = tf.squeeze(audio, axis=-1)
            return audio, labels

        train_ds = train_ds.map(squeeze, tf.data.AUTOTUNE)
        val_ds = val_ds.map(squeeze, tf.data.AUTOTUNE)
        test_ds = val_ds.shard(num_shards=2, index=0)
        val_ds = val_ds.shard(num_shards=2, index=1)

        def get_spectrogram(waveform):
            spectrogram = tf.signal.stft(waveform, frame_length=255, frame_step=128)
            spectrogram = tf.abs(spectrogram)
            spectrogram = spectrogram[..., tf.newaxis]
            return spectrogram

        def make_spec_ds(ds):
            return ds.map(map_func=lambda audio, label: (get_spectrogram(audio), label),
                          num_parallel_calls=tf.data.AUTOTUNE)

        train_spectrogram_ds = make_spec_ds(train_ds)
        val_spectrogram_ds = make_spec_ds(val_ds)
        test_spectrogram_ds = make_spec_ds(test_ds)
        out = [list(label_names), train_ds.element_spec[0].shape.as_list()]
        for example_audio, example_labels in train_ds.take(1):
            spectrogram = get_spectrogram(example_audio[0])
            # float32 bins far below the frame's energy differ from TF's FFT by rounding: every bin is compared in
            # float64, the float32 spectrogram by its shape and per-frame sums
            out += [val(example_audio[0, :50]), val(example_labels), spectrogram.shape.as_list(),
                    val(tf.reduce_sum(spectrogram, axis=[1, 2])),
                    val(get_spectrogram(tf.cast(example_audio[0], tf.float64)))]
        for name, ds in (("train", train_spectrogram_ds), ("val", val_spectrogram_ds), ("test", test_spectrogram_ds)):
            out.append([name, [[s.shape.as_list(), val(tf.reduce_sum(s, axis=[1, 2, 3])), val(y)] for s, y in ds]])
        out.append(train_spectrogram_ds.element_spec[0].shape.as_list())
        norm = tf.keras.layers.Normalization()
        norm.adapt(data=train_spectrogram_ds.map(map_func=lambda spec, label: spec))
        out.append([val(norm.mean), val(norm.variance)])
        return out
    finally:
        shutil.rmtree(root)
