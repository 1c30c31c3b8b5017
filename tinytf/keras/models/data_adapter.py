"""What fit/evaluate/predict accept as data (numpy arrays, tensors, lists and dicts of them, Python
generators, iterables of batches such as datasets), turned into a stream of (x, y, sample_weight) batches."""

from __future__ import annotations

import math
import warnings

import numpy as np

import tinytf as _tf
from tinytf.runtime import nest
from tinytf.runtime.context import state
from tinytf.runtime.ops.philox import PhiloxGenerator, shuffle_permutation
from tinytf.runtime.tensor import EagerTensor

from ..utils.py_dataset import PyDataset, PyDatasetBatches
from .dataset_class_weights import class_weight_to_sample_weights, with_class_weights
from .dataset_epochs import DatasetEpochs, warn_ran_out_of_data
from .sparse_rows import SparseRows
from .step_functions import template_of


def _to_numpy(value):
    if value is None:
        return None
    if isinstance(value, (_tf.Tensor, _tf.Variable)):
        return np.asarray(value.numpy())
    return np.asarray(value)


def _as_batchable(value):
    """An array leaf as batches will hold it: float64 becomes float32 (Keras' floatx) once, not per batch; a
    SparseTensor is cut by rows (sparse_rows.py)."""
    if isinstance(value, _tf.sparse.SparseTensor):
        return SparseRows(value)
    array = _to_numpy(value)
    return array.astype(np.float32) if array.dtype == np.float64 else array


def refuse_numpy_strings(value) -> None:
    """Keras 3 on TF 2.21 takes strings as tensors or datasets only: a numpy array of str, bytes or objects
    given to fit/evaluate/predict is refused with the dtype's numpy name ("Invalid dtype: str32")."""
    for leaf in nest.flatten(value):
        if isinstance(leaf, np.ndarray) and leaf.dtype.kind in "USO":
            raise ValueError(f"Invalid dtype: {leaf.dtype.name}")


def batch_dtype(array):
    """The tensor dtype of `array`'s slices when they can be wrapped as they are (numeric arrays: found once),
    else None."""
    if isinstance(array, SparseRows) or array.dtype.kind not in "biufc" or array.ndim == 0:
        return None
    return to_tensor(array[:0]).dtype


def batch_wrapper(array):
    """How slices of `array` become tensors. A numeric array's slices are wrapped as they are (its dtype
    found once); others (strings, objects) go through the general conversion per batch."""
    if isinstance(array, SparseRows):
        return _keep_sparse
    dtype = batch_dtype(array)
    if dtype is None:
        return to_tensor
    return lambda part: EagerTensor(part, dtype)


def _keep_sparse(batch):
    return batch


def batch_tuple(x, y, sw):
    """The batch a step receives: (x,), (x, y) or (x, y, sample_weight)."""
    if y is None and sw is None:
        return (x,)
    if sw is None:
        return (x, y)
    return (x, y, sw)


def to_tensor(array):
    """A batch as a tensor: float64 data becomes float32 (Keras' floatx), other dtypes stay."""
    if isinstance(array, _tf.sparse.SparseTensor):
        return array
    if isinstance(array, _tf.Tensor):
        return _tf.cast(array, _tf.float32) if array.dtype is _tf.float64 else array
    array = np.asarray(array)
    if array.dtype == np.float64:
        array = array.astype(np.float32)
    return _tf.convert_to_tensor(array)


def is_array_like(value) -> bool:
    return all(isinstance(v, (np.ndarray, np.generic, _tf.Tensor, _tf.Variable, list, int, float))
               for v in nest.flatten(value)) and not _is_generator(value)


def _is_generator(value) -> bool:
    return hasattr(value, "__next__") or (hasattr(value, "__iter__") and not isinstance(
        value, (np.ndarray, list, tuple, dict, str, _tf.Tensor)))


def unpack(data):
    """(x, y, sample_weight) from a batch that is x, (x,), (x, y) or (x, y, sample_weight)."""
    if isinstance(data, tuple):
        if len(data) == 1:
            return data[0], None, None
        if len(data) == 2:
            return data[0], data[1], None
        if len(data) == 3:
            return data
        raise ValueError(f"Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`, "
                         f"found a tuple of {len(data)} elements")
    return data, None, None


def epoch_order(num_samples: int) -> np.ndarray:
    """fit's sample order for one epoch of in-memory arrays, as Keras 3 on TensorFlow draws it: a
    tf.random.shuffle of the indices inside a tf.data map function, whose first random op gets the seeds
    (global seed, 0), or (0, 2**31 - 1) for global seed 0. A new iterator re-creates that kernel each epoch,
    so with a global seed (keras.utils.set_random_seed) TF repeats the same order every epoch; without one,
    each epoch draws a fresh order."""
    if state.seed is None:
        return np.random.permutation(num_samples)
    seeds = (state.seed % (2**31 - 1), 0)
    seeds = (0, 2**31 - 1) if seeds == (0, 0) else seeds
    return shuffle_permutation(PhiloxGenerator(*seeds), num_samples)


class ArrayBatches:
    """Batches of in-memory arrays, shuffled per epoch when asked."""

    def __init__(self, x, y=None, sample_weight=None, batch_size=None, shuffle=False, class_weight=None,
                 steps=None, numpy_strings=False):
        if not numpy_strings:  # (train_on_batch and its kin take them, as Keras 3 does)
            for value in (x, y, sample_weight):
                refuse_numpy_strings(value)
        self.x = nest.map_structure(_as_batchable, x)
        self.y = None if y is None else nest.map_structure(_as_batchable, y)
        self.sample_weight = None if sample_weight is None else _as_batchable(sample_weight)
        sizes = {name: [len(a) for a in nest.flatten(value)] for name, value in
                 [("x", self.x), ("y", self.y), ("sample_weight", self.sample_weight)] if value is not None}
        counts = {n for v in sizes.values() for n in v}
        if len(counts) > 1:
            detail = " ".join(f"'{name}' sizes: {', '.join(map(str, s))}" for name, s in sizes.items())
            raise ValueError(f"Data cardinality is ambiguous. Make sure all arrays contain the same number of "
                             f"samples.{detail}")
        self.num_samples = counts.pop() if counts else 0
        if class_weight is not None:
            self.sample_weight = _class_weights(self.y, class_weight, self.sample_weight)
        # Keras 3's ArrayDataAdapter: steps without a batch_size make the batches ceil(n / steps) long
        self.batch_size = batch_size or (math.ceil(self.num_samples / steps) if steps else 32)
        self.shuffle = shuffle
        self.steps_per_epoch = steps
        self._pending = None  # with steps_per_epoch, the pass the next epoch goes on with
        self._seen = 0

    @property
    def steps(self) -> int:
        return self.steps_per_epoch or self._num_batches

    @property
    def _num_batches(self) -> int:
        return math.ceil(self.num_samples / self.batch_size)

    def batch_size_varies(self) -> bool:
        """Whether the step's batch dimension is None: Keras 3 makes full batches of arrays with a static size and
        concatenates a short last batch, so the batch dimension is None only when there is a short batch."""
        return self.num_samples % self.batch_size != 0

    def sample_shape(self):
        """The shape of one example of x, when x is a single array (else None)."""
        return tuple(self.x.shape[1:]) if hasattr(self.x, "shape") else None

    def batches(self):
        order = epoch_order(self.num_samples) if self.shuffle else None
        for start in range(0, self.num_samples, self.batch_size):
            index = slice(start, start + self.batch_size) if order is None else order[start:start + self.batch_size]

            def take(a, index=index):
                return to_tensor(a[index])

            x = nest.map_structure(take, self.x)
            y = None if self.y is None else nest.map_structure(take, self.y)
            sw = None if self.sample_weight is None else take(self.sample_weight)
            yield x, y, sw

    def flat_batches(self):
        """The batches of one epoch. With steps_per_epoch, Keras 3's EpochIterator: the pass over the arrays goes
        on across epochs, an epoch that reaches its end stops there with the ran-out-of-data warning, and the
        next epoch starts a new pass (a new shuffle)."""
        if not self.steps_per_epoch:
            yield from self._pass()
            return
        if self._pending is None:
            self._pending, self._seen = self._pass(), 0
        for _ in range(self.steps_per_epoch):
            if self._seen >= self._num_batches:
                warn_ran_out_of_data()
                break
            self._seen += 1
            yield next(self._pending)
        if self._seen >= self._num_batches:
            self._pending = None

    def _pass(self):
        """(template, leaves) per batch: the batch tuple's structure (the same object every batch) and its
        tensors in flat order, sliced whole from the arrays with numpy (no per-sample work)."""
        parts = batch_tuple(self.x, self.y, self.sample_weight)
        template = template_of(parts)
        arrays = nest.flatten(parts)
        size = self.batch_size
        order = epoch_order(self.num_samples) if self.shuffle else None
        indices = (slice(start, start + size) if order is None else order[start:start + size]
                   for start in range(0, self.num_samples, size))
        dtypes = [batch_dtype(a) for a in arrays]
        if any(dtype is None for dtype in dtypes):  # strings, objects, sparse rows: their conversion per batch
            pairs = [(batch_wrapper(a), a) for a in arrays]
            for index in indices:
                yield template, [wrap(a[index]) for wrap, a in pairs]
            return
        typed = list(zip(arrays, dtypes))  # numeric arrays: each slice wrapped as it is, no call per slice
        for index in indices:
            yield template, [EagerTensor(a[index], dtype) for a, dtype in typed]


def _class_weights(y, class_weight, sample_weight):
    """Per-sample weights from {class: weight}, times any given sample weights."""
    labels = nest.flatten(y)[0]
    if labels.ndim > 1 and labels.shape[-1] > 1:
        labels = np.argmax(labels, axis=-1)
    labels = labels.reshape(len(labels), -1)[:, 0].astype(np.int64)
    weights = np.array([class_weight.get(int(c), 1.0) for c in labels], np.float32)
    return weights if sample_weight is None else weights * sample_weight


class _ReadAhead:
    """An iterator one element ahead of its consumer, as a tf.data iterator is: TF injects a prefetch at the end
    of every input pipeline, so by the time fit has taken its last batch the pipeline has made the next one
    (a shuffle behind a repeat has begun its next pass and drawn that pass's seeds)."""

    _END = object()

    def __init__(self, iterator):
        self._iterator = iterator
        self._next = self._pull()

    def _pull(self):
        return next(self._iterator, self._END)

    def __iter__(self):
        return self

    def __next__(self):
        value = self._next
        if value is self._END:
            raise StopIteration
        self._next = self._pull()
        return value


class IterableBatches:
    """Batches from a generator or any iterable of batches; a tf.data dataset's epochs as Keras 3 takes them
    (dataset_epochs.py)."""

    def __init__(self, source, steps=None):
        self.source = source
        self.steps_per_epoch = steps
        self._iterator = source if hasattr(source, "__next__") else None
        self._is_dataset = isinstance(source, _tf.data.Dataset)
        self._epochs = None  # a dataset's epochs (DatasetEpochs), made at the first epoch
        self._found_end = False

    @property
    def found_end(self) -> bool:
        """Whether the last epoch ended by reading past the end of the data (not by counting its steps)."""
        return self._epochs.found_end if self._epochs is not None else self._found_end

    @property
    def steps(self):
        """Batches per epoch: steps_per_epoch, else a dataset's finite cardinality (as Keras 3's dataset adapter
        counts it: the progress bar shows 19/19, not 1/1), else None (unknown)."""
        if self.steps_per_epoch is not None or self._iterator is not None:
            return self.steps_per_epoch
        return self._known_length()

    def _known_length(self):
        cardinality = getattr(self.source, "_cardinality", None)
        n = cardinality() if callable(cardinality) else -1
        return n if isinstance(n, int) and n >= 0 else None

    @property
    def warns_when_out_of_data(self) -> bool:
        """A dataset's epochs warn as Keras' do (DatasetEpochs); fit warns for the other sources."""
        return self._is_dataset and self._iterator is None

    def batch_size_varies(self) -> bool:
        """Whether the step's batch dimension is None: a dataset's element spec says (batch with
        drop_remainder keeps it fixed); Keras gives generators' and PyDatasets' batches a None batch dimension."""
        if not self._is_dataset:
            return True
        specs = nest.flatten(getattr(self.source, "element_spec", None))
        shapes = [getattr(spec, "shape", None) for spec in specs]
        return not shapes or any(s is None or s.rank is None or s.rank == 0 or s.as_list()[0] is None
                                 for s in shapes)

    def sample_shape(self):
        """The shape of one example of x, from a dataset's element_spec when x is a single tensor (else None)."""
        spec = getattr(self.source, "element_spec", None)
        x = spec[0] if isinstance(spec, tuple) and spec else spec
        shape = getattr(x, "shape", None)
        if shape is None or shape.rank is None:
            return None
        return tuple(shape.as_list()[1:])

    def _epoch_elements(self):
        self._found_end = False
        if self._iterator is not None:
            iterator = self._iterator
        elif not self._is_dataset:
            iterator = iter(self.source)
        else:  # Keras 3's epoch iterator: which iterators it makes decides the shuffles' orders
            if self._epochs is None:
                self._epochs = DatasetEpochs(self.source, self.steps_per_epoch, self._known_length(), _ReadAhead)
            yield from self._epochs.epoch()
            return
        count = 0
        while self.steps_per_epoch is None or count < self.steps_per_epoch:
            data = next(iterator, _ReadAhead._END)
            if data is _ReadAhead._END:
                self._found_end = True
                return
            yield data
            count += 1

    def batches(self):
        for data in self._epoch_elements():
            x, y, sw = unpack(data)
            yield (nest.map_structure(to_tensor, x), None if y is None else nest.map_structure(to_tensor, y),
                   None if sw is None else to_tensor(sw))

    def flat_batches(self):
        """(template, leaves) per batch; a generator may change the structure from one batch to the next."""
        for x, y, sw in self.batches():
            parts = batch_tuple(x, y, sw)
            yield template_of(parts), nest.flatten(parts)


def capped_steps(steps):
    """steps_per_epoch under keras.config.set_max_steps_per_epoch's cap (Keras warns when it limits)."""
    from ..config import max_steps_per_epoch

    cap = max_steps_per_epoch()
    if cap and (not steps or cap < steps):
        warnings.warn(f"Limiting steps_per_epoch to {cap}", stacklevel=4)
        return cap
    return steps


def refuse_python_values(x, y=None, sample_weight=None) -> None:
    """Keras 3 takes arrays, tensors and structures of them: a Python list of values (strings, numbers) is not
    an array to it, and fit/evaluate/predict refuse it, naming x."""
    if any(isinstance(leaf, (bool, int, float, complex, str, bytes)) for leaf in nest.flatten((x, y, sample_weight))):
        raise ValueError(f"Unrecognized data type: x={x} (of type {type(x)})")


def make_batches(x, y=None, sample_weight=None, batch_size=None, shuffle=False, class_weight=None, steps=None):
    """The right batch source for the data given."""
    steps = capped_steps(steps)
    if isinstance(x, PyDataset):
        if y is not None or sample_weight is not None:
            raise ValueError("`y` and `sample_weight` arguments are not supported when using a PyDataset as input: "
                             "its batches must hold (x, y) or (x, y, sample_weight)")
        return PyDatasetBatches(x, shuffle=shuffle, steps=steps, to_tensor=to_tensor, unpack=unpack,
                                template_of=template_of, batch_tuple=batch_tuple, class_weight=class_weight,
                                class_weights_of=class_weight_to_sample_weights)
    if _is_generator(x) or (not isinstance(x, (np.ndarray, list, tuple, dict, _tf.Tensor)) and hasattr(x, "__iter__")):
        if y is not None:
            raise ValueError("`y` argument is not supported when using a generator or dataset as input: the batches "
                             "must hold (x, y) or (x, y, sample_weight)")
        if shuffle and isinstance(x, _tf.data.Dataset):  # fit's default shuffle=True, as Keras 3 warns of it
            warnings.warn("`shuffle=True` was passed, but will be ignored since the data `x` was provided as a "
                          "tf.data.Dataset. The Dataset is expected to already be shuffled (via "
                          "`.shuffle(buffer_size)`).", stacklevel=3)
        if class_weight is not None:
            if not isinstance(x, _tf.data.Dataset):
                raise ValueError(f"Argument `class_weight` is not supported for Python generator inputs. Received: "
                                 f"class_weight={class_weight}")
            x = with_class_weights(x, class_weight, unpack)
        return IterableBatches(x, steps)
    if x is None:
        raise ValueError("Unexpected value for `x`: None. Pass the input data.")
    refuse_python_values(x, y, sample_weight)
    return ArrayBatches(x, y, sample_weight, batch_size, shuffle, class_weight, steps)


def split_validation(x, y, sample_weight, validation_split):
    """The last `validation_split` of the samples, held out before any shuffling (Keras' rule)."""
    if not 0.0 < validation_split < 1.0:
        raise ValueError(f"`validation_split` must be between 0 and 1, received: {validation_split}")
    if _is_generator(x):
        raise ValueError("`validation_split` is only supported for tensors or NumPy arrays, not generators or datasets")
    n = len(nest.flatten(nest.map_structure(_to_numpy, x))[0])
    split_at = int(math.floor(n * (1.0 - validation_split)))

    def part(value, lo, hi):
        return None if value is None else nest.map_structure(lambda a: _to_numpy(a)[lo:hi], value)

    train = (part(x, 0, split_at), part(y, 0, split_at), part(sample_weight, 0, split_at))
    held = (part(x, split_at, n), part(y, split_at, n), part(sample_weight, split_at, n))
    return train, held
