"""keras.utils.image_dataset_from_directory as Keras 3 builds it: class folders indexed and sorted as Keras sorts
them, the file list shuffled by numpy's RandomState(seed) and split for validation exactly as Keras does (so the
same files land in each subset, with the same labels), then a tf.data pipeline of read_file, decode_image and
resize, batched: JPEG, PNG, GIF and BMP files decode with TF's pixels (runtime/ops/image_decode.py). The
tf.data shuffle of the file order per epoch is tinytf's own stream, not TF's."""

from __future__ import annotations

import numpy as np

import tinytf as _tf

from ..layers.preprocessing.image_resizing import resize_images
from .directory_index import (
    check_label_arguments,
    check_validation_split_arg,
    index_directory,
    labels_to_dataset,
    training_or_validation_split,
)

ALLOWLIST_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_CHANNELS = {"rgb": 3, "rgba": 4, "grayscale": 1}


def _dataset(paths, labels, label_mode, num_classes, image_size, channels, interpolation, crop, pad, shuffle,
             buffer_size, seed):
    def load(path):
        image = _tf.io.decode_image(_tf.io.read_file(path), channels=channels, expand_animations=False)
        image = _tf.expand_dims(image, 0)
        if pad:
            image = _tf.image.resize_with_pad(image, image_size[0], image_size[1], method=interpolation)
        else:
            image = resize_images(image, image_size[0], image_size[1], interpolation, crop_to_aspect=crop)
        return _tf.reshape(image, (image_size[0], image_size[1], channels))  # nearest keeps uint8, as in TF

    ds = _tf.data.Dataset.from_tensor_slices(paths)
    if label_mode:
        ds = _tf.data.Dataset.zip((ds, labels_to_dataset(np.asarray(labels), label_mode, num_classes)))
    if shuffle:
        ds = ds.shuffle(buffer_size=buffer_size or 1024, seed=seed)
    return ds.map(lambda x, y: (load(x), y)) if label_mode else ds.map(load)


def image_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None, color_mode="rgb",
                                 batch_size=32, image_size=(256, 256), shuffle=True, seed=None, validation_split=None,
                                 subset=None, interpolation="bilinear", follow_links=False, crop_to_aspect_ratio=False,
                                 pad_to_aspect_ratio=False, data_format=None, format="tf", verbose=True):
    """A tf.data.Dataset of (images, labels) batches from class subfolders (labels="inferred"), as Keras 3."""
    check_label_arguments(labels, label_mode, class_names, "image files", "images")
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    if color_mode not in _CHANNELS:
        raise ValueError(f'`color_mode` must be one of {{"rgb", "rgba", "grayscale"}}. Received: '
                         f"color_mode={color_mode}")
    if data_format not in (None, "channels_last") or format != "tf":
        raise NotImplementedError("image_dataset_from_directory: tinytf builds channels_last tf.data datasets only")
    image_size = (image_size, image_size) if isinstance(image_size, int) else tuple(image_size)
    check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    paths, found, names = index_directory(directory, labels, ALLOWLIST_FORMATS, class_names, shuffle, seed,
                                          follow_links, verbose)
    if label_mode == "binary" and len(names) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 class_names. Received: '
                         f"class_names={names}")
    buffer_size = batch_size * 8 if batch_size is not None else 1024
    settings = (label_mode, len(names) if names else 0, image_size, _CHANNELS[color_mode], interpolation,
                crop_to_aspect_ratio, pad_to_aspect_ratio)
    subsets = ("training", "validation") if subset == "both" else (subset,)
    made = []
    for part in subsets:
        part_paths, part_labels = training_or_validation_split(paths, found, validation_split, part)
        if not part_paths:
            which = f"{part} " if subset == "both" else ""
            raise ValueError(f"No {which}images found in directory {directory}. Allowed formats: {ALLOWLIST_FORMATS}")
        part_shuffle = shuffle and not (subset == "both" and part == "validation")  # Keras keeps validation in order
        ds = _dataset(part_paths, part_labels, *settings, shuffle=part_shuffle, buffer_size=buffer_size, seed=seed)
        if batch_size is not None:
            ds = ds.batch(batch_size)
        ds = ds.prefetch(_tf.data.AUTOTUNE)
        ds.class_names, ds.file_paths = names, part_paths
        made.append(ds)
    return made if subset == "both" else made[0]
