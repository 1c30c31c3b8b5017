"""keras.utils.timeseries_dataset_from_array as Keras 3 (TF 2.21) writes it: windows of `sequence_length`
steps `sampling_rate` apart, starting every `sequence_stride` steps, with the target at each window's start;
shuffled start positions by numpy's RandomState(seed), then the dataset's shuffle(batch_size * 8, seed)."""

from __future__ import annotations

import numpy as np

import tinytf as _tf


def _sequences_from_indices(array, indices, start_index, end_index):
    data = _tf.data.Dataset.from_tensors(array[start_index:end_index])
    return _tf.data.Dataset.zip((data.repeat(), indices)).map(lambda steps, inds: _tf.gather(steps, inds))


def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1, sampling_rate=1, batch_size=128,
                                  shuffle=False, seed=None, start_index=None, end_index=None, format="tf"):  # noqa: A002
    """A tf.data.Dataset of sliding windows over `data` (batches of (windows, targets) when targets is given)."""
    if start_index:
        if start_index < 0:
            raise ValueError(f"`start_index` must be 0 or greater. Received: start_index={start_index}")
        if start_index >= len(data):
            raise ValueError(f"`start_index` must be lower than the length of the data. Received: "
                             f"start_index={start_index}, for data of length {len(data)}")
    if end_index:
        if start_index and end_index <= start_index:
            raise ValueError(f"`end_index` must be higher than `start_index`. Received: start_index={start_index}, "
                             f"and end_index={end_index} ")
        if end_index >= len(data):
            raise ValueError(f"`end_index` must be lower than the length of the data. Received: "
                             f"end_index={end_index}, for data of length {len(data)}")
        if end_index <= 0:
            raise ValueError(f"`end_index` must be higher than 0. Received: end_index={end_index}")
    if sampling_rate <= 0:
        raise ValueError(f"`sampling_rate` must be higher than 0. Received: sampling_rate={sampling_rate}")
    if sampling_rate >= len(data):
        raise ValueError(f"`sampling_rate` must be lower than the length of the data. Received: "
                         f"sampling_rate={sampling_rate}, for data of length {len(data)}")
    if sequence_stride <= 0:
        raise ValueError(f"`sequence_stride` must be higher than 0. Received: sequence_stride={sequence_stride}")
    if sequence_stride >= len(data):
        raise ValueError(f"`sequence_stride` must be lower than the length of the data. Received: "
                         f"sequence_stride={sequence_stride}, for data of length {len(data)}")
    if format != "tf":
        raise ValueError(f'`format` should be "tf" (tinytf has no grain datasets). Received: format={format}')
    start_index = 0 if start_index is None else start_index
    end_index = len(data) if end_index is None else end_index
    num_seqs = end_index - start_index - (sequence_length - 1) * sampling_rate
    if targets is not None:
        num_seqs = min(num_seqs, len(targets))
    index_dtype = "int32" if num_seqs < 2147483647 else "int64"
    start_positions = np.arange(0, num_seqs, sequence_stride, dtype=index_dtype)
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(start_positions)
    length = _tf.cast(sequence_length, dtype=index_dtype)
    rate = _tf.cast(sampling_rate, dtype=index_dtype)
    positions = _tf.data.Dataset.from_tensors(start_positions).repeat()
    count = len(start_positions)
    indices = _tf.data.Dataset.zip((_tf.data.Dataset.range(count), positions)).map(
        lambda i, p: _tf.range(p[i], p[i] + length * rate, rate))
    dataset = _sequences_from_indices(data, indices, start_index, end_index)
    if targets is not None:
        target_indices = _tf.data.Dataset.zip((_tf.data.Dataset.range(count), positions)).map(lambda i, p: p[i])
        dataset = _tf.data.Dataset.zip((dataset, _sequences_from_indices(targets, target_indices, start_index,
                                                                         end_index)))
    dataset = dataset.prefetch(_tf.data.AUTOTUNE)
    if batch_size is not None:
        if shuffle:
            dataset = dataset.shuffle(buffer_size=batch_size * 8, seed=seed)
        return dataset.batch(batch_size)
    if shuffle:
        dataset = dataset.shuffle(buffer_size=1024, seed=seed)
    return dataset
