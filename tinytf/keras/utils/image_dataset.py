"""keras.utils.image_dataset_from_directory as Keras 3 builds it: class folders indexed and sorted as Keras sorts
them, the file list shuffled by numpy's RandomState(seed) and split for validation exactly as Keras does (so the
same files land in each subset, with the same labels), then a tf.data pipeline of read_file, decode_image and
resize, batched. PNG files decode here (tf.io.decode_png); JPEG, GIF and BMP files are listed as Keras lists
them but decoding one raises (tinytf has no codec for them). The tf.data shuffle of the file order per epoch is
tinytf's own stream, not TF's."""

from __future__ import annotations

import os

import numpy as np

import tinytf as _tf

from ..layers.preprocessing.image_resizing import resize_images

ALLOWLIST_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_CHANNELS = {"rgb": 3, "rgba": 4, "grayscale": 1}


def _class_folders(directory, labels, class_names):
    if labels != "inferred":
        if class_names is not None:
            raise ValueError("When `labels=None` (no labels), argument `class_names` cannot be specified."
                             if labels is None else "When argument `labels` is specified, argument `class_names` "
                             "cannot be specified (the `class_names` will be the sorted list of labels).")
        return [""]
    folders = [d for d in sorted(os.listdir(directory))
               if os.path.isdir(os.path.join(directory, d)) and not d.startswith(".")]
    if class_names is not None:
        if not set(class_names).issubset(set(folders)):
            raise ValueError(f"The `class_names` passed did not match the names of the subdirectories of the target "
                             f"directory. Expected: {folders} (or a subset of it), but received: "
                             f"class_names={class_names}")
        return list(class_names)
    return folders


def index_directory(directory, labels, formats, class_names=None, shuffle=True, seed=None, follow_links=False,
                    verbose=True):
    """(file paths, labels, class names) as Keras' dataset_utils.index_directory makes them."""
    folders = _class_folders(directory, labels, class_names)
    filenames, found_labels = [], []
    for index, folder in enumerate(folders):
        root_dir = os.path.join(directory, folder)
        for root, _, files in sorted(os.walk(root_dir, followlinks=follow_links), key=lambda x: x[0]):
            for name in sorted(files):
                if name.lower().endswith(formats):
                    filenames.append(os.path.join(os.path.basename(root_dir),
                                                  os.path.relpath(os.path.join(root, name), root_dir)))
                    found_labels.append(index)
    if labels == "inferred":
        labels = np.array(found_labels, dtype="int32")
        names = folders
    elif labels is None:
        names = None
    else:
        if len(labels) != len(filenames):
            raise ValueError(f"Expected the lengths of `labels` to match the number of files in the target directory. "
                             f"len(labels) is {len(labels)} while we found {len(filenames)} files in directory "
                             f"{directory}.")
        names = [str(label) for label in sorted(set(labels))]
    if verbose:
        print(f"Found {len(filenames)} files." if labels is None else
              f"Found {len(filenames)} files belonging to {len(names)} classes.")
    paths = [os.path.join(directory, name) for name in filenames]
    if shuffle:
        seed = np.random.randint(1e6) if seed is None else seed
        np.random.RandomState(seed).shuffle(paths)
        if labels is not None:
            np.random.RandomState(seed).shuffle(labels)
    return paths, labels, names


def _split(paths, labels, validation_split, subset):
    if not validation_split:
        return paths, labels
    count = int(validation_split * len(paths))
    if subset == "training":
        print(f"Using {len(paths) - count} files for training.")
        return paths[:-count], None if labels is None else labels[:-count]
    print(f"Using {count} files for validation.")
    return paths[-count:], None if labels is None else labels[-count:]


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
        label_ds = _tf.data.Dataset.from_tensor_slices(np.asarray(labels))
        if label_mode == "binary":
            label_ds = label_ds.map(lambda x: _tf.expand_dims(_tf.cast(x, "float32"), axis=-1))
        elif label_mode == "categorical":
            label_ds = label_ds.map(lambda x: _tf.one_hot(x, num_classes))
        ds = _tf.data.Dataset.zip((ds, label_ds))
    if shuffle:
        ds = ds.shuffle(buffer_size=buffer_size or 1024, seed=seed)
    return ds.map(lambda x, y: (load(x), y)) if label_mode else ds.map(load)


def image_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None, color_mode="rgb",
                                 batch_size=32, image_size=(256, 256), shuffle=True, seed=None, validation_split=None,
                                 subset=None, interpolation="bilinear", follow_links=False, crop_to_aspect_ratio=False,
                                 pad_to_aspect_ratio=False, data_format=None, format="tf", verbose=True):
    """A tf.data.Dataset of (images, labels) batches from class subfolders (labels="inferred"), as Keras 3."""
    if labels not in ("inferred", None) and not isinstance(labels, (list, tuple)):
        raise ValueError(f"`labels` argument should be a list/tuple of integer labels, of length equal to the number "
                         f"of image files in the target directory. If you wish to infer the labels from the "
                         f"subdirectory names in the target directory, pass `labels=\"inferred\"`. If you wish to "
                         f"get a dataset that only contains images (no labels), pass `labels=None`. Received: "
                         f"labels={labels}")
    if label_mode not in {"int", "categorical", "binary", None}:
        raise ValueError(f'`label_mode` argument must be one of "int", "categorical", "binary", or None. Received: '
                         f"label_mode={label_mode}")
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    if color_mode not in _CHANNELS:
        raise ValueError(f'`color_mode` must be one of {{"rgb", "rgba", "grayscale"}}. Received: '
                         f"color_mode={color_mode}")
    if data_format not in (None, "channels_last") or format != "tf":
        raise NotImplementedError("image_dataset_from_directory: tinytf builds channels_last tf.data datasets only")
    image_size = (image_size, image_size) if isinstance(image_size, int) else tuple(image_size)
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1, received: {validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError(f'`subset` must be either "training", "validation" or "both", received: {subset}')
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must provide a `seed` argument, "
                         "to make sure that there is no overlap between the training and validation subset.")
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
        part_paths, part_labels = _split(paths, found, validation_split, part)
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
