"""keras.preprocessing.image's iterators (Keras 3's legacy module): `Iterator`, a keras.utils.PyDataset of batches
drawn from an index order reshuffled each epoch (numpy's global generator, reseeded with seed + batches seen, as
Keras does, so a seeded iterator gives Keras' batches); `NumpyArrayIterator` over arrays (ImageDataGenerator.flow)
and `DirectoryIterator` over one folder of images per class (flow_from_directory). Each image is randomly
transformed and standardized by its ImageDataGenerator; model.fit takes any of them."""

from __future__ import annotations

import os
import threading
import warnings

import numpy as np

from .. import config
from ..utils import image_utils
from ..utils.py_dataset import PyDataset


class Iterator(PyDataset):
    """Base of the image iterators: subclasses give `_get_batches_of_transformed_samples(index_array)`."""

    white_list_formats = ("png", "jpg", "jpeg", "bmp", "ppm", "tif", "tiff")

    def __init__(self, n, batch_size, shuffle, seed, **kwargs):
        super().__init__(**kwargs)
        self.n, self.batch_size, self.seed, self.shuffle = n, batch_size, seed, shuffle
        self.batch_index = 0
        self.total_batches_seen = 0
        self.lock = threading.Lock()
        self.index_array = None
        self.index_generator = self._flow_index()

    def _set_index_array(self):
        self.index_array = np.arange(self.n)
        if self.shuffle:
            self.index_array = np.random.permutation(self.n)

    def __getitem__(self, idx):
        if idx >= len(self):
            raise ValueError(f"Asked to retrieve element {idx}, but the Sequence has length {len(self)}")
        if self.seed is not None:
            np.random.seed(self.seed + self.total_batches_seen)
        self.total_batches_seen += 1
        if self.index_array is None:
            self._set_index_array()
        return self._get_batches_of_transformed_samples(self.index_array[self.batch_size * idx:
                                                                         self.batch_size * (idx + 1)])

    def __len__(self):
        return (self.n + self.batch_size - 1) // self.batch_size

    def on_epoch_end(self):
        self._set_index_array()

    def reset(self):
        self.batch_index = 0

    def _flow_index(self):
        self.reset()
        while True:
            if self.seed is not None:
                np.random.seed(self.seed + self.total_batches_seen)
            if self.batch_index == 0:
                self._set_index_array()
            current = 0 if self.n == 0 else (self.batch_index * self.batch_size) % self.n
            if self.n > current + self.batch_size:
                self.batch_index += 1
            else:
                self.batch_index = 0
            self.total_batches_seen += 1
            yield self.index_array[current:current + self.batch_size]

    def __iter__(self):
        return self

    def __next__(self):
        with self.lock:
            index_array = next(self.index_generator)
        return self._get_batches_of_transformed_samples(index_array)

    def _get_batches_of_transformed_samples(self, index_array):
        raise NotImplementedError


class NumpyArrayIterator(Iterator):
    """Batches of (transformed) images from a rank-4 array, with labels, sample weights and extra arrays."""

    def __init__(self, x, y, image_data_generator, batch_size=32, shuffle=False, sample_weight=None, seed=None,
                 data_format=None, save_to_dir=None, save_prefix="", save_format="png", subset=None,
                 ignore_class_split=False, dtype=None):
        data_format = data_format or config.image_data_format()
        self.dtype = dtype or config.floatx()
        if isinstance(x, (tuple, list)):
            x_misc = [np.asarray(x[1])] if not isinstance(x[1], list) else [np.asarray(xx) for xx in x[1]]
            x = x[0]
            for xx in x_misc:
                if len(x) != len(xx):
                    raise ValueError(f"All of the arrays in `x` should have the same length. Found a pair with: "
                                     f"len(x[0]) = {len(x)}, len(x[?]) = {len(xx)}")
        else:
            x_misc = []
        if y is not None and len(x) != len(y):
            raise ValueError(f"`x` (images tensor) and `y` (labels) should have the same length. Found: x.shape = "
                             f"{np.asarray(x).shape}, y.shape = {np.asarray(y).shape}")
        if sample_weight is not None and len(x) != len(sample_weight):
            raise ValueError(f"`x` (images tensor) and `sample_weight` should have the same length. Found: x.shape "
                             f"= {np.asarray(x).shape}, sample_weight.shape = {np.asarray(sample_weight).shape}")
        if subset is not None:
            if subset not in {"training", "validation"}:
                raise ValueError(f'Invalid subset name: {subset}; expected "training" or "validation".')
            split_idx = int(len(x) * image_data_generator._validation_split)
            if (y is not None and not ignore_class_split
                    and not np.array_equal(np.unique(y[:split_idx]), np.unique(y[split_idx:]))):
                raise ValueError("Training and validation subsets have different number of classes after the split. "
                                 "If your numpy arrays are sorted by the label, you might want to shuffle them.")
            part = slice(None, split_idx) if subset == "validation" else slice(split_idx, None)
            x = x[part]
            x_misc = [np.asarray(xx[part]) for xx in x_misc]
            if y is not None:
                y = y[part]
        self.x = np.asarray(x, dtype=self.dtype)
        self.x_misc = x_misc
        if self.x.ndim != 4:
            raise ValueError(f"Input data in `NumpyArrayIterator` should have rank 4. You passed an array with shape "
                             f"{self.x.shape}")
        channels_axis = 3 if data_format == "channels_last" else 1
        if self.x.shape[channels_axis] not in {1, 3, 4}:
            warnings.warn(f'NumpyArrayIterator is set to use the data format convention "{data_format}" (channels '
                          f"on axis {channels_axis}), i.e. expected either 1, 3, or 4 channels on axis "
                          f"{channels_axis}. However, it was passed an array with shape {self.x.shape} "
                          f"({self.x.shape[channels_axis]} channels).", stacklevel=2)
        self.y = np.asarray(y) if y is not None else None
        self.sample_weight = np.asarray(sample_weight) if sample_weight is not None else None
        self.image_data_generator = image_data_generator
        self.data_format = data_format
        self.save_to_dir, self.save_prefix, self.save_format = save_to_dir, save_prefix, save_format
        super().__init__(self.x.shape[0], batch_size, shuffle, seed)

    def _get_batches_of_transformed_samples(self, index_array):
        batch_x = np.zeros((len(index_array),) + self.x.shape[1:], dtype=self.dtype)
        generator = self.image_data_generator
        for i, j in enumerate(index_array):
            x = self.x[j]
            params = generator.get_random_transform(x.shape)
            x = generator.apply_transform(x.astype(self.dtype), params)
            batch_x[i] = generator.standardize(x)
        if self.save_to_dir:
            for i, j in enumerate(index_array):
                img = image_utils.array_to_img(batch_x[i], self.data_format, scale=True)
                img.save(os.path.join(self.save_to_dir, f"{self.save_prefix}_{j}_{np.random.randint(1e4)}."
                                                        f"{self.save_format}"))
        miscs = [xx[index_array] for xx in self.x_misc]
        output = (batch_x if not miscs else [batch_x] + miscs,)
        if self.y is None:
            return output[0]
        output += (self.y[index_array],)
        if self.sample_weight is not None:
            output += (self.sample_weight[index_array],)
        return output


def _iter_valid_files(directory, white_list_formats, follow_links):
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links), key=lambda entry: entry[0]):
        for fname in sorted(files):
            if fname.lower().endswith(".tiff"):
                warnings.warn('Using ".tiff" files with multiple bands will cause distortion. Please verify your '
                              "output.", stacklevel=2)
            if fname.lower().endswith(white_list_formats):
                yield root, fname


def _list_valid_filenames_in_directory(directory, white_list_formats, split, class_indices, follow_links):
    """(class indices, paths relative to the parent of `directory`) of the images of one class folder; `split`
    keeps the fraction (start, stop) of them (validation_split)."""
    dirname = os.path.basename(directory)
    valid = list(_iter_valid_files(directory, white_list_formats, follow_links))
    if split:
        start, stop = int(split[0] * len(valid)), int(split[1] * len(valid))
        valid = valid[start:stop]
    classes, filenames = [], []
    for root, fname in valid:
        classes.append(class_indices[dirname])
        filenames.append(os.path.join(dirname, os.path.relpath(os.path.join(root, fname), directory)))
    return classes, filenames


class DirectoryIterator(Iterator):
    """Batches of images read from `directory/<class name>/*.png` (jpg, bmp, ...), resized to target_size,
    with labels by class_mode ("categorical", "binary", "sparse", "input" or None)."""

    allowed_class_modes = {"categorical", "binary", "sparse", "input", None}

    def __init__(self, directory, image_data_generator, target_size=(256, 256), color_mode="rgb", classes=None,
                 class_mode="categorical", batch_size=32, shuffle=True, seed=None, data_format=None, save_to_dir=None,
                 save_prefix="", save_format="png", follow_links=False, subset=None, interpolation="nearest",
                 keep_aspect_ratio=False, dtype=None):
        data_format = data_format or config.image_data_format()
        self.dtype = dtype or config.floatx()
        self.image_data_generator = image_data_generator
        self.target_size = tuple(target_size)
        self.keep_aspect_ratio = keep_aspect_ratio
        if color_mode not in {"rgb", "rgba", "grayscale"}:
            raise ValueError(f'Invalid color mode: {color_mode}; expected "rgb", "rgba", or "grayscale".')
        self.color_mode, self.data_format = color_mode, data_format
        channels = {"rgba": 4, "rgb": 3, "grayscale": 1}[color_mode]
        self.image_shape = (self.target_size + (channels,) if data_format == "channels_last"
                            else (channels,) + self.target_size)
        self.save_to_dir, self.save_prefix, self.save_format = save_to_dir, save_prefix, save_format
        self.interpolation = interpolation
        if subset is not None:
            split_at = image_data_generator._validation_split
            if subset == "validation":
                self.split = (0, split_at)
            elif subset == "training":
                self.split = (split_at, 1)
            else:
                raise ValueError(f'Invalid subset name: {subset};expected "training" or "validation"')
        else:
            self.split = None
        self.subset = subset
        self.directory = directory
        if class_mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {class_mode}; expected one of: {self.allowed_class_modes}")
        self.class_mode = class_mode
        if not classes:
            classes = [d for d in sorted(os.listdir(directory)) if os.path.isdir(os.path.join(directory, d))]
        self.num_classes = len(classes)
        self.class_indices = dict(zip(classes, range(len(classes))))
        self.filenames, labels = [], []
        for subdir in classes:
            found, names = _list_valid_filenames_in_directory(os.path.join(directory, subdir),
                                                              self.white_list_formats, self.split,
                                                              self.class_indices, follow_links)
            labels += found
            self.filenames += names
        self.samples = len(self.filenames)
        self.classes = np.asarray(labels, dtype="int32").reshape(self.samples)
        print(f"Found {self.samples} images belonging to {self.num_classes} classes.")
        self._filepaths = [os.path.join(directory, fname) for fname in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    @property
    def filepaths(self):
        return self._filepaths

    @property
    def labels(self):
        return self.classes

    @property
    def sample_weight(self):
        return None

    def _get_batches_of_transformed_samples(self, index_array):
        batch_x = load_file_batch(self, index_array)
        if self.class_mode == "input":
            batch_y = batch_x.copy()
        elif self.class_mode in {"binary", "sparse"}:
            batch_y = self.classes[index_array].astype(self.dtype)
        elif self.class_mode == "categorical":
            batch_y = np.zeros((len(batch_x), len(self.class_indices)), dtype=self.dtype)
            batch_y[np.arange(len(batch_x)), self.classes[index_array]] = 1.0
        else:
            return batch_x
        return batch_x, batch_y


__all__ = ["DirectoryIterator", "Iterator", "NumpyArrayIterator"]



def load_file_batch(iterator, index_array) -> np.ndarray:
    """The images of `index_array` read from `iterator._filepaths`, resized, transformed and standardized by its
    ImageDataGenerator (if any), and saved to `save_to_dir` when asked: what DirectoryIterator and
    DataFrameIterator share."""
    batch_x = np.zeros((len(index_array),) + iterator.image_shape, dtype=iterator.dtype)
    generator = iterator.image_data_generator
    for i, j in enumerate(index_array):
        img = image_utils.load_img(iterator._filepaths[j], color_mode=iterator.color_mode,
                                   target_size=iterator.target_size, interpolation=iterator.interpolation,
                                   keep_aspect_ratio=iterator.keep_aspect_ratio)
        x = image_utils.img_to_array(img, data_format=iterator.data_format)
        if hasattr(img, "close"):
            img.close()
        if generator:
            params = generator.get_random_transform(x.shape)
            x = generator.apply_transform(x, params)
            x = generator.standardize(x)
        batch_x[i] = x
    if iterator.save_to_dir:
        for i, j in enumerate(index_array):
            img = image_utils.array_to_img(batch_x[i], iterator.data_format, scale=True)
            img.save(os.path.join(iterator.save_to_dir, f"{iterator.save_prefix}_{j}_{np.random.randint(1e7)}."
                                                        f"{iterator.save_format}"))
    return batch_x
