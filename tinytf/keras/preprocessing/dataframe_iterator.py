"""keras.preprocessing.image.DataFrameIterator (ImageDataGenerator.flow_from_dataframe, Keras 3's legacy module):
batches of images whose file names (`x_col`, under `directory`) and labels (`y_col`) come from a pandas
DataFrame. `class_mode` says what the labels become: "categorical" (one-hot, or multi-hot for a list of labels),
"binary" / "sparse" (class indices as floats), "raw" (the column's values), "multi_output" (one array per column
of a list `y_col`), "input" (the images themselves) or None (images only); `weight_col` adds sample weights.
Files that are missing or not images are dropped with Keras' warning when `validate_filenames`. pandas is needed
only to build the DataFrame: it is never imported here."""

from __future__ import annotations

import collections
import os
import warnings

import numpy as np

from .image_iterators import Iterator, load_file_batch


def _is_number_dtype(dtype) -> bool:
    return issubclass(getattr(dtype, "type", object), np.number)


class DataFrameIterator(Iterator):
    """Keras' DataFrameIterator: the same arguments, checks, messages and batches."""

    allowed_class_modes = {"binary", "categorical", "input", "multi_output", "raw", "sparse", None}

    def __init__(self, dataframe, directory=None, image_data_generator=None, x_col="filename", y_col="class",
                 weight_col=None, target_size=(256, 256), color_mode="rgb", classes=None, class_mode="categorical",
                 batch_size=32, shuffle=True, seed=None, data_format="channels_last", save_to_dir=None,
                 save_prefix="", save_format="png", subset=None, interpolation="nearest", keep_aspect_ratio=False,
                 dtype="float32", validate_filenames=True):
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
        if subset is None:
            self.split = None
        elif subset == "validation":
            self.split = (0, image_data_generator._validation_split)
        elif subset == "training":
            self.split = (image_data_generator._validation_split, 1)
        else:
            raise ValueError(f'Invalid subset name: {subset};expected "training" or "validation"')
        self.subset = subset
        df = dataframe.copy()
        self.directory = directory or ""
        self.class_mode = class_mode
        self.dtype = dtype
        self._check_params(df, x_col, y_col, weight_col, classes)
        if validate_filenames:
            df = self._filter_valid_filepaths(df, x_col)
        labelled = class_mode not in ("input", "multi_output", "raw", None)
        if labelled:
            df, classes = self._filter_classes(df, y_col, classes)
            self.class_indices = dict(zip(classes, range(len(classes))))
        if self.split:
            start, stop = int(self.split[0] * len(df)), int(self.split[1] * len(df))
            df = df.iloc[start:stop, :]
        if labelled:
            self.classes = self.get_classes(df, y_col)
        self.filenames = df[x_col].tolist()
        self._sample_weight = df[weight_col].values if weight_col else None
        if class_mode == "multi_output":
            self._targets = [np.array(df[col].tolist()) for col in y_col]
        if class_mode == "raw":
            self._targets = df[y_col].values
        self.samples = len(self.filenames)
        validated = "validated" if validate_filenames else "non-validated"
        if labelled:
            print(f"Found {self.samples} {validated} image filenames belonging to {len(classes)} classes.")
        else:
            print(f"Found {self.samples} {validated} image filenames.")
        self._filepaths = [os.path.join(self.directory, name) for name in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    def _check_params(self, df, x_col, y_col, weight_col, classes) -> None:
        mode = self.class_mode
        if mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {mode}; expected one of: {self.allowed_class_modes}")
        if mode == "multi_output" and not isinstance(y_col, list):
            raise TypeError(f'If class_mode="{mode}", y_col must be a list. Received {type(y_col).__name__}.')
        if not all(isinstance(x, str) for x in df[x_col]):
            raise TypeError(f"All values in column x_col={x_col} must be strings.")
        if mode in {"binary", "sparse"} and not all(isinstance(y, str) for y in df[y_col]):
            raise TypeError(f'If class_mode="{mode}", y_col="{y_col}" column values must be strings.')
        if mode == "binary":
            if classes:
                if len(set(classes)) != 2:
                    raise ValueError(f'If class_mode="binary" there must be 2 classes. {len(set(classes))} '
                                     "class/es were given.")
            elif df[y_col].nunique() != 2:
                raise ValueError(f'If class_mode="binary" there must be 2 classes. Found {df[y_col].nunique()} '
                                 "classes.")
        if mode == "categorical" and not all(isinstance(y, (str, list, tuple)) for y in df[y_col]):
            raise TypeError(f'If class_mode="{mode}", y_col="{y_col}" column values must be type string, list or '
                            "tuple.")
        if classes and mode in {"input", "multi_output", "raw", None}:
            warnings.warn(f'`classes` will be ignored given the class_mode="{mode}"', stacklevel=3)
        if weight_col and not _is_number_dtype(df[weight_col].dtype):
            raise TypeError(f"Column weight_col={weight_col} must be numeric.")

    def get_classes(self, df, y_col) -> list:
        """Each row's class index (a list of them for a row of several labels)."""
        return [[self.class_indices[one] for one in label] if isinstance(label, (list, tuple))
                else self.class_indices[label] for label in df[y_col]]

    @staticmethod
    def _filter_classes(df, y_col, classes):
        """The rows whose labels are among `classes` (labels outside dropped; rows left with none dropped),
        and the classes: the given ones in order, or every label found, sorted."""
        df = df.copy()

        def kept(labels):
            if isinstance(labels, (list, tuple)):
                return [c for c in labels if c in classes] or None
            if isinstance(labels, str):
                return labels if labels in classes else None
            raise TypeError(f"Expect string, list or tuple but found {type(labels)} in {y_col} column ")

        if classes:
            classes = list(collections.OrderedDict.fromkeys(classes).keys())
            df[y_col] = df[y_col].apply(kept)
        else:
            found = set()
            for value in df[y_col]:
                found.update(value) if isinstance(value, (list, tuple)) else found.add(value)
            classes = sorted(found)
        return df.dropna(subset=[y_col]), classes

    def _filter_valid_filepaths(self, df, x_col):
        """The rows whose file exists and has an image extension (Keras warns about the others)."""
        mask = df[x_col].map(lambda name: os.path.join(self.directory, name)).apply(
            lambda path: path.lower().endswith(self.white_list_formats) and os.path.isfile(path))
        n_invalid = int((~mask).sum())
        if n_invalid:
            warnings.warn(f'Found {n_invalid} invalid image filename(s) in x_col="{x_col}". These filename(s) will '
                          "be ignored.", stacklevel=3)
        return df[mask]

    @property
    def filepaths(self) -> list:
        return self._filepaths

    @property
    def labels(self):
        return self._targets if self.class_mode in {"multi_output", "raw"} else self.classes

    @property
    def sample_weight(self):
        return self._sample_weight

    def _get_batches_of_transformed_samples(self, index_array):
        batch_x = load_file_batch(self, index_array)
        mode = self.class_mode
        if mode == "input":
            batch_y = batch_x.copy()
        elif mode in {"binary", "sparse"}:
            batch_y = np.array([self.classes[j] for j in index_array], dtype=self.dtype)
        elif mode == "categorical":
            batch_y = np.zeros((len(batch_x), len(self.class_indices)), dtype=self.dtype)
            for i, j in enumerate(index_array):
                batch_y[i, self.classes[j]] = 1.0  # a list of indices: every label of the row
        elif mode == "multi_output":
            batch_y = [output[index_array] for output in self.labels]
        elif mode == "raw":
            batch_y = self.labels[index_array]
        else:
            return batch_x
        if self._sample_weight is None:
            return batch_x, batch_y
        return batch_x, batch_y, self._sample_weight[index_array]


__all__ = ["DataFrameIterator"]
