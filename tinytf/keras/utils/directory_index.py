"""Keras' dataset_utils for the *_dataset_from_directory makers: the files of a folder listed in Keras' order
(one subfolder a class, classes sorted, files by os.walk sorted) with their labels, shuffled by numpy's
RandomState(seed) as Keras shuffles the file list; the validation split and the label datasets."""

from __future__ import annotations

import os

import numpy as np

import tinytf as _tf


def _valid_files(directory: str, follow_links: bool, formats):
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links), key=lambda x: x[0]):
        for name in sorted(files):
            if name.lower().endswith(formats):
                yield root, name


def index_directory(directory, labels, formats, class_names=None, shuffle=True, seed=None, follow_links=False,
                    verbose=True):
    """(file paths, labels, class names) of the files under `directory`, as Keras' dataset_utils lists them."""
    if labels == "inferred":
        subdirs = [d for d in sorted(os.listdir(directory))
                   if os.path.isdir(os.path.join(directory, d)) and not d.startswith(".")]
        if class_names is not None:
            if not set(class_names).issubset(set(subdirs)):
                raise ValueError(f"The `class_names` passed did not match the names of the subdirectories of the "
                                 f"target directory. Expected: {subdirs} (or a subset of it), but received: "
                                 f"class_names={class_names}")
            subdirs = class_names
    else:
        subdirs = [""]
        if class_names is not None:
            if labels is None:
                raise ValueError("When `labels=None` (no labels), argument `class_names` cannot be specified.")
            raise ValueError("When argument `labels` is specified, argument `class_names` cannot be specified (the "
                             "`class_names` will be the sorted list of labels).")
    class_names = subdirs
    filenames, found_labels = [], []
    for index, subdir in enumerate(subdirs):
        folder = os.path.join(directory, subdir)
        dirname = os.path.basename(folder)
        for root, name in _valid_files(folder, follow_links, formats):
            filenames.append(os.path.join(dirname, os.path.relpath(os.path.join(root, name), folder)))
            found_labels.append(index)
    if labels == "inferred":
        labels = np.asarray(found_labels, dtype="int32")
    elif labels is None:
        class_names = None
    else:
        if len(labels) != len(filenames):
            raise ValueError(f"Expected the lengths of `labels` to match the number of files in the target "
                             f"directory. len(labels) is {len(labels)} while we found {len(filenames)} files in "
                             f"directory {directory}.")
        class_names = [str(label) for label in sorted(set(labels))]
    if verbose:
        if labels is None:
            print(f"Found {len(filenames)} files.")
        else:
            print(f"Found {len(filenames)} files belonging to {len(class_names)} classes.")
    file_paths = [os.path.join(directory, name) for name in filenames]
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(file_paths)
        if labels is not None:
            np.random.RandomState(seed).shuffle(labels)
    return file_paths, labels, class_names


def check_label_arguments(labels, label_mode, class_names, files: str, samples: str, lead: str = "") -> None:
    """Keras 3's checks of `labels`, `class_names` and `label_mode`, shared by the image, text and audio dataset
    makers; `files`/`samples` name what the folder holds in the message ("text files", "text samples"), and
    `lead` is the word before "`labels` argument" (Keras' audio maker says "The")."""
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(f"{lead}`labels` argument should be a list/tuple of integer labels, of the same size as "
                             f"the number of {files} in the target directory. If you wish to infer the labels from "
                             f"the subdirectory names in the target directory, pass `labels=\"inferred\"`. If you "
                             f"wish to get a dataset that only contains {samples} (no labels), pass `labels=None`. "
                             f"Received: labels={labels}")
        if class_names:
            raise ValueError(f'You can only pass `class_names` if `labels="inferred"`. Received: labels={labels}, '
                             f"and class_names={class_names}")
    if label_mode not in {"int", "categorical", "binary", None}:
        raise ValueError('`label_mode` argument must be one of "int", "categorical", "binary", or None. '
                         f"Received: label_mode={label_mode}")


def check_validation_split_arg(validation_split, subset, shuffle, seed) -> None:
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1, received: {validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError(f'`subset` must be either "training", "validation" or "both", received: {subset}')
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must provide a `seed` argument, "
                         "to make sure that there is no overlap between the training and validation subset.")


def training_or_validation_split(samples, labels, validation_split, subset):
    if not validation_split:
        return samples, labels
    count = int(validation_split * len(samples))
    if subset == "training":
        print(f"Using {len(samples) - count} files for training.")
        return samples[:-count], (labels[:-count] if labels is not None else None)
    if subset == "validation":
        print(f"Using {count} files for validation.")
        return samples[-count:], (labels[-count:] if labels is not None else None)
    raise ValueError(f'`subset` must be either "training" or "validation", received: {subset}')


def labels_to_dataset(labels, label_mode, num_classes):
    dataset = _tf.data.Dataset.from_tensor_slices(labels)
    if label_mode == "binary":
        return dataset.map(lambda x: _tf.expand_dims(_tf.cast(x, "float32"), axis=-1))
    if label_mode == "categorical":
        return dataset.map(lambda x: _tf.one_hot(x, num_classes))
    return dataset
