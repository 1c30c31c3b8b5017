"""keras.preprocessing.sequence.TimeseriesGenerator: Keras' deprecated batch generator over a time series, a
PyDataset (so fit / evaluate / predict take it): batch i holds windows data[row - length:row:sampling_rate] for
rows start_index + length + i * batch_size * stride, ... (stride apart, up to end_index) and the targets at
those rows; shuffle draws batch_size rows with np.random.randint, as Keras does, so np.random.seed fixes them.

get_config / to_json work here; in Keras 3.15 they fail (PyDataset has no get_config to extend)."""

from __future__ import annotations

import json

import numpy as np

from ..utils.py_dataset import PyDataset


class TimeseriesGenerator(PyDataset):
    """Batches of (windows, targets) from consecutive data points; axis 0 of data is time."""

    def __init__(self, data, targets, length, sampling_rate=1, stride=1, start_index=0, end_index=None,
                 shuffle=False, reverse=False, batch_size=128, **kwargs):
        super().__init__(**kwargs)
        if len(data) != len(targets):
            raise ValueError(f"Data and targets have to be of same length. Data length is {len(data)} while target "
                             f"length is {len(targets)}")
        self.data, self.targets, self.length = data, targets, length
        self.sampling_rate, self.stride = sampling_rate, stride
        self.start_index = start_index + length
        self.end_index = len(data) - 1 if end_index is None else end_index
        self.shuffle, self.reverse, self.batch_size = shuffle, reverse, batch_size
        if self.start_index > self.end_index:
            raise ValueError(f"`start_index+length={self.start_index} > end_index={self.end_index}` is disallowed, as "
                             "no part of the sequence would be left to be used as current step.")

    def __len__(self):
        span = self.batch_size * self.stride
        return (self.end_index - self.start_index + span) // span

    def __getitem__(self, index):
        if self.shuffle:
            rows = np.random.randint(self.start_index, self.end_index + 1, size=self.batch_size)
        else:
            first = self.start_index + self.batch_size * self.stride * index
            rows = np.arange(first, min(first + self.batch_size * self.stride, self.end_index + 1), self.stride)
        samples = np.array([self.data[row - self.length:row:self.sampling_rate] for row in rows])
        targets = np.array([self.targets[row] for row in rows])
        if self.reverse:
            return samples[:, ::-1, ...], targets
        return samples, targets

    def get_config(self) -> dict:
        """The arguments, data and targets as JSON text (TypeError when they are not JSON-serializable)."""
        def as_json(values, what):
            if type(values).__module__ == np.__name__:
                values = values.tolist()
            try:
                return json.dumps(values)
            except TypeError as e:
                raise TypeError(f"{what} not JSON Serializable: {values}") from e

        return {"workers": self.workers, "use_multiprocessing": self.use_multiprocessing,
                "max_queue_size": self.max_queue_size,
                "data": as_json(self.data, "Data"), "targets": as_json(self.targets, "Targets"),
                "length": self.length, "sampling_rate": self.sampling_rate, "stride": self.stride,
                "start_index": self.start_index, "end_index": self.end_index, "shuffle": self.shuffle,
                "reverse": self.reverse, "batch_size": self.batch_size}

    def to_json(self, **kwargs) -> str:
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()}, **kwargs)
