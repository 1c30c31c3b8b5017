"""keras.utils.PyDataset (and its older name Sequence): a dataset written in Python as `__getitem__(index)` ->
batch and `__len__()` -> batches per epoch, which fit, evaluate and predict iterate once per epoch, calling
`on_epoch_end()` after each. With workers > 1 a thread pool reads the next batches ahead of the one being
trained on, as Keras 3 does (`max_queue_size` batches in flight, always delivered in order)."""

from __future__ import annotations

import concurrent.futures
import random
import warnings

from tinytf.runtime import nest


class PyDataset:
    """Base class for Python datasets: subclasses implement __getitem__ and __len__ (or num_batches)."""

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        self._workers = workers
        self._use_multiprocessing = use_multiprocessing
        self._max_queue_size = max_queue_size

    # subclasses that skip super().__init__() still work, as in Keras (which warns about it)
    @property
    def workers(self):
        return getattr(self, "_workers", 1)

    @workers.setter
    def workers(self, value):
        self._workers = value

    @property
    def use_multiprocessing(self):
        return getattr(self, "_use_multiprocessing", False)

    @use_multiprocessing.setter
    def use_multiprocessing(self, value):
        self._use_multiprocessing = value

    @property
    def max_queue_size(self):
        return getattr(self, "_max_queue_size", 10)

    @max_queue_size.setter
    def max_queue_size(self, value):
        self._max_queue_size = value

    def __getitem__(self, index):
        raise NotImplementedError(f"{type(self).__name__} must implement __getitem__(index)")

    @property
    def num_batches(self):
        """Batches per epoch (None: unbounded, read until __getitem__ raises IndexError)."""
        if hasattr(self, "__len__"):
            return len(self)
        raise NotImplementedError("You need to implement the `num_batches` property:\n\n@property\ndef "
                                  "num_batches(self):\n  return ...")

    def on_epoch_begin(self):
        """Called at the start of every epoch."""

    def on_epoch_end(self):
        """Called at the end of every epoch (shuffle the data here, say)."""


Sequence = PyDataset


class PyDatasetBatches:
    """What fit/evaluate/predict iterate for a PyDataset: its batches in index order (shuffled per epoch when
    fit's shuffle is on, as Keras 3 shuffles the batch order), as (x, y, sample_weight) of tensors."""

    def __init__(self, dataset: PyDataset, shuffle=False, steps=None, to_tensor=None, unpack=None, template_of=None,
                 batch_tuple=None, class_weight=None, class_weights_of=None):
        self._class_weight, self._class_weights_of = class_weight, class_weights_of  # fit's, as sample weights
        self.dataset, self.shuffle, self.steps_per_epoch = dataset, shuffle, steps
        self._to_tensor, self._unpack, self._template_of, self._batch_tuple = (to_tensor, unpack, template_of,
                                                                               batch_tuple)
        # Keras' fit and evaluate reset their epoch iterator before the first epoch, which ends an epoch of the
        # dataset: on_epoch_end runs once more than there are epochs, here too
        dataset.on_epoch_end()
        if dataset.use_multiprocessing and dataset.workers > 1:
            warnings.warn("tinytf reads a PyDataset's batches in worker threads, not processes: "
                          "use_multiprocessing=True is accepted and runs on threads", stacklevel=4)

    @property
    def steps(self):
        if self.steps_per_epoch is not None:
            return self.steps_per_epoch
        return self.dataset.num_batches

    def _indices(self):
        count = self.dataset.num_batches
        if count is None:
            index = 0
            while True:
                yield index
                index += 1
        order = list(range(count))
        if self.shuffle:
            random.shuffle(order)
        yield from order

    def _raw_batches(self):
        indices = self._indices()
        if self.steps_per_epoch is not None:
            indices = (i for _, i in zip(range(self.steps_per_epoch), indices))
        if self.dataset.workers <= 1:
            for index in indices:
                try:
                    yield self.dataset[index]
                except IndexError:
                    if self.dataset.num_batches is None:
                        return
                    raise
            return
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.dataset.workers) as pool:
            pending = []
            for index in indices:
                pending.append(pool.submit(self.dataset.__getitem__, index))
                if len(pending) >= max(1, self.dataset.max_queue_size):
                    yield pending.pop(0).result()
            for future in pending:
                yield future.result()

    def batches(self):
        self.dataset.on_epoch_begin()
        for data in self._raw_batches():
            x, y, sw = self._unpack(tuple(data) if isinstance(data, list) else data)
            if self._class_weight is not None and y is not None:
                if sw is not None:
                    raise ValueError("You cannot specify `class_weight` and `sample_weight` at the same time.")
                sw = self._class_weights_of(y, self._class_weight)
            to_tensor = self._to_tensor
            yield (nest.map_structure(to_tensor, x), None if y is None else nest.map_structure(to_tensor, y),
                   None if sw is None else to_tensor(sw))
        self.dataset.on_epoch_end()

    def flat_batches(self):
        for x, y, sw in self.batches():
            parts = self._batch_tuple(x, y, sw)
            yield self._template_of(parts), nest.flatten(parts)
