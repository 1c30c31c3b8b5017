"""The epochs of fit over a tf.data dataset, taken as Keras 3's EpochIterator takes them.

Which iterators Keras makes matters for the numbers: a dataset's shuffle draws its order when an iterator is
made (tinytf/data/iteration_seeds.py), and Keras makes more iterators than it reads.
- Known length, no steps_per_epoch: each epoch reads a new iterator to the end, and then Keras makes the next
  one at once, which the following epoch throws away for a new one. So the epochs see the dataset's first,
  third, fifth... orders, and a dataset iterated after fit goes on from there.
- steps_per_epoch: one iterator goes on across epochs; when the epochs have read the dataset's length, Keras
  warns, ends that epoch early and starts a new iterator for the next one.
- Unknown length: one iterator per epoch, read until it ends, which Keras reports as running out of data
  (each epoch: the length it counts then includes the step that found the end). TF's fit has already
  called on_train_batch_begin for that step when the end is found (its step function reads the iterator),
  so the callbacks see one more batch begin than batch ends: `found_end` tells the training loop.
"""

from __future__ import annotations

import warnings

RAN_OUT_OF_DATA = ("Your input ran out of data; interrupting training. Make sure that your dataset or generator can "
                   "generate at least `steps_per_epoch * epochs` batches. You may need to use the `.repeat()` "
                   "function when building your dataset.")

_END = object()


def warn_ran_out_of_data() -> None:
    # from one place, as Keras 3 warns (its epoch iterator): Python's filter then shows it once a process,
    # however many epochs, evaluations and predictions run out
    warnings.warn(RAN_OUT_OF_DATA, stacklevel=1)


class DatasetEpochs:
    """The elements of one epoch after another; `read_ahead(iterator)` wraps an iterator that fit reads."""

    def __init__(self, dataset, steps_per_epoch, length, read_ahead):
        self._dataset = dataset
        self._steps_per_epoch = steps_per_epoch
        self._length = length  # batches per pass: known cardinality, or counted after a pass of unknown length
        self._read_ahead = read_ahead
        self._current = None  # the iterator the next epoch may go on with
        self._seen = 0
        self.found_end = False  # whether the last epoch ended by reading past the data's end

    def _fresh(self):
        return iter(self._dataset)  # made now: its shuffles draw their orders now, as TF's do

    def _reading(self, iterator):
        return iterator if isinstance(iterator, self._read_ahead) else self._read_ahead(iterator)

    def _ran_out(self):
        self.found_end = True
        if self._length is None:
            self._length = self._seen
        warn_ran_out_of_data()
        self._current = None

    def epoch(self):
        self.found_end = False
        steps = self._steps_per_epoch or self._length or -1
        if steps < 0:
            yield from self._to_the_end()
            return
        if self._current is None or self._steps_per_epoch is None:
            self._current, self._seen = self._fresh(), 0
        self._current = iterator = self._reading(self._current)
        for _ in range(steps):
            if self._length and self._seen >= self._length:
                if self._steps_per_epoch:
                    warn_ran_out_of_data()
                break
            self._seen += 1
            data = next(iterator, _END)
            if data is _END:
                self._ran_out()
                return
            yield data
        if self._length and self._seen >= self._length:
            self._current, self._seen = self._fresh(), 0

    def _to_the_end(self):
        iterator = self._reading(self._fresh())
        self._seen = 0
        while True:
            self._seen += 1
            data = next(iterator, _END)
            if data is _END:
                self._ran_out()
                return
            yield data
