"""keras.utils.audio_dataset_from_directory as Keras 3 (TF 2.21) writes it: the .wav files of a folder, one
subfolder a class, listed and shuffled as the other *_dataset_from_directory makers do (directory_index.py), each
read and decoded by tf.audio.decode_wav inside Dataset.map. Without output_sequence_length a batch is padded with
zeros to its longest file; with it every file is truncated or zero-padded to that length; ragged=True gives
RaggedTensors of each file's own length."""

from __future__ import annotations

import numpy as np

import tinytf as _tf

from .directory_index import (
    check_label_arguments,
    check_validation_split_arg,
    index_directory,
    labels_to_dataset,
    training_or_validation_split,
)

ALLOWED_FORMATS = (".wav",)


def _read_and_decode(path, output_sequence_length):
    contents = _tf.io.read_file(path)
    length = -1 if output_sequence_length is None else output_sequence_length
    return _tf.audio.decode_wav(contents=contents, desired_samples=length).audio


def _paths_and_labels_to_dataset(file_paths, labels, label_mode, num_classes, output_sequence_length, ragged,
                                 shuffle=False, shuffle_buffer_size=None, seed=None):
    dataset = _tf.data.Dataset.from_tensor_slices(file_paths)
    if label_mode:
        dataset = _tf.data.Dataset.zip((dataset, labels_to_dataset(labels, label_mode, num_classes)))
    if shuffle:
        dataset = dataset.shuffle(buffer_size=shuffle_buffer_size or 1024, seed=seed)
    if label_mode:
        dataset = dataset.map(lambda x, y: (_read_and_decode(x, output_sequence_length), y),
                              num_parallel_calls=_tf.data.AUTOTUNE)
        if ragged:
            dataset = dataset.map(lambda x, y: (_tf.RaggedTensor.from_tensor(x), y))
        return dataset
    dataset = dataset.map(lambda x: _read_and_decode(x, output_sequence_length), num_parallel_calls=_tf.data.AUTOTUNE)
    if ragged:
        dataset = dataset.map(lambda x: _tf.RaggedTensor.from_tensor(x))
    return dataset


def _prepare(dataset, batch_size, class_names, output_sequence_length, ragged, labelled):
    dataset = dataset.prefetch(_tf.data.AUTOTUNE)
    if batch_size is not None:
        if output_sequence_length is None and not ragged:
            shapes = ([None, None], []) if labelled else [None, None]
            dataset = dataset.padded_batch(batch_size, padded_shapes=shapes)
        else:
            dataset = dataset.batch(batch_size)
    dataset.class_names = class_names  # users read it, as in Keras
    return dataset


def _check_arguments(labels, label_mode, class_names, output_sequence_length, ragged, sampling_rate):
    check_label_arguments(labels, label_mode, class_names, "audio files", "audio samples", lead="The ")
    if ragged and output_sequence_length is not None:
        raise ValueError("Cannot set both `ragged` and `output_sequence_length`")
    if sampling_rate is not None:
        if not isinstance(sampling_rate, int):
            raise ValueError(f"`sampling_rate` should have an integer value. Received: sampling_rate={sampling_rate}")
        if sampling_rate <= 0:
            raise ValueError(f"`sampling_rate` should be higher than 0. Received: sampling_rate={sampling_rate}")
        # Keras resamples with tensorflow_io, which tinytf does not have (as Keras says when it is missing)
        raise ImportError("To use the argument `sampling_rate`, you should install tensorflow_io. You can install "
                          "it via `pip install tensorflow-io`.")


def audio_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None, batch_size=32,
                                 sampling_rate=None, output_sequence_length=None, ragged=False, shuffle=True,
                                 seed=None, validation_split=None, subset=None, follow_links=False, verbose=True):
    """A tf.data.Dataset of (audio (batch, samples, channels) float32, label) batches from the .wav files under
    `directory` (one subfolder a class with labels="inferred"); subset="both" gives the training and the validation
    datasets."""
    _check_arguments(labels, label_mode, class_names, output_sequence_length, ragged, sampling_rate)
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    buffer_size = batch_size * 8 if batch_size is not None else 1024
    file_paths, labels, class_names = index_directory(directory, labels, formats=ALLOWED_FORMATS,
                                                      class_names=class_names, shuffle=shuffle, seed=seed,
                                                      follow_links=follow_links, verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 class_names. Received: '
                         f"class_names={class_names}")
    num_classes = len(class_names) if class_names else 0

    def make(paths, labels_, shuffled):
        dataset = _paths_and_labels_to_dataset(paths, labels_, label_mode, num_classes, output_sequence_length,
                                               ragged, shuffled, buffer_size, seed)
        return _prepare(dataset, batch_size, class_names, output_sequence_length, ragged, bool(label_mode))

    if subset == "both":
        train_paths, train_labels = training_or_validation_split(file_paths, labels, validation_split, "training")
        if not train_paths:
            raise ValueError(f"No training audio files found in directory {directory}. Allowed format(s): "
                             f"{ALLOWED_FORMATS}")
        val_paths, val_labels = training_or_validation_split(file_paths, labels, validation_split, "validation")
        if not val_paths:
            raise ValueError(f"No validation audio files found in directory {directory}. Allowed format(s): "
                             f"{ALLOWED_FORMATS}")
        return make(train_paths, train_labels, shuffle), make(val_paths, val_labels, False)
    file_paths, labels = training_or_validation_split(file_paths, labels, validation_split, subset)
    if not file_paths:
        raise ValueError(f"No audio files found in directory {directory}. Allowed format(s): {ALLOWED_FORMATS}")
    return make(file_paths, labels, shuffle)
