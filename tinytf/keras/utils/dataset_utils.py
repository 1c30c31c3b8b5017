"""keras.utils' data helpers: pack_x_y_sample_weight / unpack_x_y_sample_weight (the tuple a train_step
receives), split_dataset (two tf.data datasets from arrays or a dataset, optionally shuffled with Keras' Python
`random` seed) and get_source_inputs (the keras.Input tensors a symbolic tensor derives from)."""

from __future__ import annotations

import random

import numpy as np

import tinytf as _tf
from tinytf.runtime import nest


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """(x,), (x, y) or (x, y, sample_weight); a lone tuple or list x is wrapped so it is not read as (x, y)."""
    if y is None:
        return (x,) if isinstance(x, (tuple, list)) else x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def unpack_x_y_sample_weight(data):
    """(x, y, sample_weight) from what a train_step receives: x, (x,), (x, y) or (x, y, sample_weight)."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return (data, None, None)
    if len(data) == 1:
        return (data[0], None, None)
    if len(data) == 2:
        return (data[0], data[1], None)
    if len(data) == 3:
        return (data[0], data[1], data[2])
    raise ValueError(f"Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`, found: "
                     f"{data}")


def get_source_inputs(tensor):
    """The Input tensors (of a Functional graph) `tensor` is computed from, each once, in the order reached."""
    history = getattr(tensor, "_keras_history", None)
    if history is None:
        return [tensor]
    node = history[1]
    if node is None or not node.input_tensors:
        return [tensor]
    found = []
    for parent in node.input_tensors:
        for source in get_source_inputs(parent):
            if all(source is not seen for seen in found):
                found.append(source)
    return found


def _samples(dataset):
    """The dataset as a list of samples (tuples for tuple/list datasets), as Keras' _convert_dataset_to_list."""
    if isinstance(dataset, (list, tuple)):
        if len(dataset) == 0:
            raise ValueError("Received an empty list dataset. Please provide a non-empty list of arrays.")
        what = "list" if isinstance(dataset, list) else "tuple"
        for i, element in enumerate(dataset):
            if not isinstance(element, np.ndarray):
                raise ValueError(f"Expected a {what} of `numpy.ndarray` objects,Received: {type(element)} at index "
                                 f"{i}.")
            if element.shape[0] != dataset[0].shape[0]:
                raise ValueError(f"Received a {what} of NumPy arrays with different lengths.Mismatch found at index "
                                 f"{i}, Expected shape={dataset[0].shape} Received shape={element.shape}.Please "
                                 f"provide a {what} of NumPy arrays of the same length.")
        return list(zip(*dataset))
    if isinstance(dataset, np.ndarray):
        return list(dataset)
    if isinstance(dataset, _tf.data.Dataset):
        return [nest.map_structure(lambda t: np.asarray(t), element) for element in dataset]
    raise TypeError(f"Unsupported dataset type: {type(dataset)}")


def _split_sizes(left_size, right_size, total):
    """Keras' _rescale_dataset_split_sizes: fractions or counts, checked, as two ints."""
    for name, size in (("left_size", left_size), ("right_size", right_size)):
        if size is not None and type(size) not in (int, float):
            raise TypeError(f"Invalid `{name}` Type. Expected: int or float or None, Received: type({name})="
                            f"{type(size)}.")
    if left_size == 0 and right_size == 0:
        raise ValueError("Both `left_size` and `right_size` are zero. At least one of the split sizes must be "
                         "non-zero.")
    for name, size in (("left_size", left_size), ("right_size", right_size)):
        if (type(size) is int and (size <= 0 or size >= total)) or (type(size) is float and (size <= 0 or size >= 1)):
            raise ValueError(f"`{name}` should be either a positive integer smaller than {total}, or a float within "
                             f"the range `[0, 1]`. Received: {name}={size}")
    if type(left_size) is float and type(right_size) is float and left_size + right_size > 1:
        raise ValueError("The sum of `left_size` and `right_size` is greater than 1. It must be less than or equal "
                         "to 1.")
    left = round(left_size * total) if type(left_size) is float else left_size
    right = round(right_size * total) if type(right_size) is float else right_size
    if left is None:
        left = total - right
    elif right is None:
        right = total - left
    if left + right > total:
        raise ValueError(f"The sum of `left_size` and `right_size` should be smaller than the {total}. Received: "
                         f"left_size + right_size = {left + right}and total_length = {total}")
    for split, side in ((left, "left"), (right, "right")):
        if split == 0:
            raise ValueError(f"With `dataset` of length={total}, `left_size`={left_size} and `right_size`="
                             f"{right_size}.Resulting {side} side dataset split will be empty. Adjust any of the "
                             "aforementioned parameters")
    return int(left), int(right)


def _restore(samples, original):
    """Samples back into a tf.data source: per-component arrays (a tuple for tuple/list datasets)."""
    if isinstance(original, np.ndarray):
        return np.array(samples)
    first = samples[0]
    columns = [np.array(column) for column in zip(*[nest.flatten(s) for s in samples])]
    packed = nest.pack_sequence_as(first, columns)
    return tuple(packed) if isinstance(packed, list) else packed


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None, preferred_backend=None):
    """Two tf.data datasets: the first `left_size` samples and the last `right_size` (counts or fractions; one
    may be None), after a shuffle seeded as Keras seeds it (Python's `random`)."""
    if right_size is None and left_size is None:
        raise ValueError("At least one of the `left_size` or `right_size` must be specified. Received: "
                         "left_size=None and right_size=None")
    samples = _samples(dataset)
    if shuffle:
        if seed is None:
            seed = random.randint(0, int(1e6))
        random.seed(seed)  # Keras seeds the global generator, so later draws follow from it as in Keras
        random.shuffle(samples)
    left, right = _split_sizes(left_size, right_size, len(samples))
    return (_tf.data.Dataset.from_tensor_slices(_restore(samples[:left], dataset)),
            _tf.data.Dataset.from_tensor_slices(_restore(samples[-right:], dataset)))
