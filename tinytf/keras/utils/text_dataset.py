"""keras.utils.text_dataset_from_directory as Keras 3 (TF 2.21) writes it: the .txt files of a folder, one
subfolder a class, listed in Keras' order (classes sorted, files by os.walk sorted), shuffled by numpy's
RandomState(seed) as Keras shuffles the file list, then by the dataset's shuffle(batch_size * 8, seed)."""

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


def _paths_and_labels_to_dataset(file_paths, labels, label_mode, num_classes, max_length, shuffle=False,
                                 shuffle_buffer_size=None, seed=None):
    def read(path):
        text = _tf.io.read_file(path)
        return _tf.strings.substr(text, 0, max_length) if max_length is not None else text

    dataset = _tf.data.Dataset.from_tensor_slices(file_paths)
    if label_mode:
        dataset = _tf.data.Dataset.zip((dataset, labels_to_dataset(labels, label_mode, num_classes)))
    if shuffle:
        dataset = dataset.shuffle(buffer_size=shuffle_buffer_size or 1024, seed=seed)
    if label_mode:
        return dataset.map(lambda x, y: (read(x), y))
    return dataset.map(read)


def text_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None, batch_size=32,
                                max_length=None, shuffle=True, seed=None, validation_split=None, subset=None,
                                follow_links=False, format="tf", verbose=True):  # noqa: A002 - Keras' name
    """A tf.data.Dataset of (text, label) batches from the .txt files under `directory` (one subfolder a
    class with labels="inferred"); subset="both" gives the training and the validation datasets."""
    check_label_arguments(labels, label_mode, class_names, "text files", "text samples")
    if format != "tf":
        raise ValueError(f'`format` should be "tf" (tinytf has no grain datasets). Received: format={format}')
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    file_paths, labels, class_names = index_directory(directory, labels, formats=(".txt",), class_names=class_names,
                                                      shuffle=shuffle, seed=seed, follow_links=follow_links,
                                                      verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 class_names. Received: '
                         f"class_names={class_names}")
    buffer_size = batch_size * 8 if batch_size is not None else 1024
    num_classes = len(class_names) if class_names else 0

    def finish(dataset):
        if batch_size is not None:
            dataset = dataset.batch(batch_size)
        dataset = dataset.prefetch(_tf.data.AUTOTUNE)
        dataset.class_names = class_names
        return dataset

    if subset == "both":
        train_paths, train_labels = training_or_validation_split(file_paths, labels, validation_split, "training")
        val_paths, val_labels = training_or_validation_split(file_paths, labels, validation_split, "validation")
        if not train_paths:
            raise ValueError(f"No training text files found in directory {directory}. Allowed format: .txt")
        if not val_paths:
            raise ValueError(f"No validation text files found in directory {directory}. Allowed format: .txt")
        train = _paths_and_labels_to_dataset(train_paths, train_labels, label_mode, num_classes, max_length, shuffle,
                                             buffer_size, seed)
        validation = _paths_and_labels_to_dataset(val_paths, val_labels, label_mode, num_classes, max_length)
        return [finish(train), finish(validation)]
    file_paths, labels = training_or_validation_split(file_paths, labels, validation_split, subset)
    if not file_paths:
        raise ValueError(f"No text files found in directory {directory}. Allowed format: .txt")
    return finish(_paths_and_labels_to_dataset(file_paths, labels, label_mode, num_classes, max_length, shuffle,
                                               buffer_size, seed))
