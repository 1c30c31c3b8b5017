"""Datasets that read files: TextLineDataset (one string per line), TFRecordDataset (one string per record)
and Dataset.list_files. Files are read lazily, one open file per reader at a time (num_parallel_reads
files at a time, their elements interleaved one by one as TF's deterministic parallel interleave does)."""

from __future__ import annotations

import copy
import glob
import os

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.tensor import Tensor

from ..constant import convert_to_tensor
from ..io.compressed import compression_of, open_for_reading
from ..io.tfrecord import read_records
from ..tensor_spec import TensorSpec
from .dataset import DatasetV2, dataset_methods
from .sources import TensorSliceDataset, as_int
from .symbolic import deferred, is_symbolic


def filenames_of(filenames, what: str) -> list:
    """`filenames` (a str, a list of them, a string tensor of any rank, or a dataset of strings) as paths."""
    if isinstance(filenames, DatasetV2):
        spec = filenames._spec_inside
        if not isinstance(spec, TensorSpec) or not spec.dtype.is_string:
            raise TypeError(f"{what}: a dataset of filenames must have scalar tf.string elements, got {spec}")
        return [_text(v[0]) for v in filenames._flat_iter()]
    if isinstance(filenames, Tensor):
        if not filenames.dtype.is_string:
            raise TypeError(f"{what}: `filenames` must be a tf.string tensor, got {filenames.dtype.name}")
        return [_text(v) for v in np.asarray(filenames.numpy(), dtype=object).reshape(-1)]
    if isinstance(filenames, (str, bytes, os.PathLike)):
        return [_text(filenames)]
    out = [_text(f) for f in np.asarray(filenames, dtype=object).reshape(-1)]
    if not all(isinstance(f, str) for f in out):
        raise TypeError(f"{what}: `filenames` must be strings, got {filenames!r}")
    return out


def _text(value):
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return value


class FileSource:
    """The files of a reader: names known now, or known when the graph runs: a string graph tensor (a
    tf.function's argument, bound by `_bound_copy`) or a dataset of names built from graph tensors (e.g.
    list_files of such a pattern, bound with the reader as one of its inputs), read as iteration starts."""

    def _set_files(self, filenames, what) -> tuple:
        """Sets the files; returns the input datasets the reader then has."""
        self._file_dataset = None
        if is_symbolic(filenames):
            if not filenames.dtype.is_string:
                raise TypeError(f"{what}: `filenames` must be a tf.string tensor, got {filenames.dtype.name}")
            self._graph_tensors, self._files = (filenames,), None
            return ()
        if isinstance(filenames, DatasetV2) and filenames._graph_inputs():
            filenames_of(_spec_only(filenames), what)  # the element spec is checked now
            self._file_dataset, self._files, self._what_reads = filenames, None, what
            return (filenames,)
        self._files = filenames_of(filenames, what)
        return ()

    def _bound_copy(self, values):
        bound = copy.copy(self)
        bound._graph_tensors = ()
        bound._files = [_text(v) for v in np.asarray(values[0], dtype=object).reshape(-1)]
        return bound

    def _file_list(self) -> list:
        if self._files is None and self._file_dataset is not None:
            return filenames_of(self._file_dataset, self._what_reads)
        return self._files


class _SpecOnly(DatasetV2):
    def _flat_iter(self):
        return iter(())


def _spec_only(dataset):
    """An empty dataset with `dataset`'s element spec (filenames_of checks the spec before reading names)."""
    return _SpecOnly(dataset._spec_inside)


class FileReaderDataset(FileSource, DatasetV2):
    """The shared part of the readers: the files, the compression, and the order of their elements."""

    def __init__(self, filenames, compression_type, buffer_size, num_parallel_reads, what):
        inputs = self._set_files(filenames, what)
        self._compression = compression_of(compression_type)
        self._buffer_size = None if buffer_size is None else as_int(buffer_size, "buffer_size")
        parallel = None if num_parallel_reads is None else as_int(num_parallel_reads, "num_parallel_reads")
        if parallel is not None and parallel < 1 and parallel != -1:  # -1 is AUTOTUNE
            raise ValueError(f"{what}: num_parallel_reads must be positive or tf.data.AUTOTUNE, got {parallel}")
        self._parallel = parallel
        DatasetV2.__init__(self, TensorSpec((), dtypes.string), inputs)

    def _read(self, path):
        """The elements of one file, as bytes."""
        raise NotImplementedError

    def _flat_iter(self):
        files = self._file_list()
        if self._parallel is None or len(files) <= 1:
            for path in files:
                for item in self._read(path):
                    yield (item,)
            return
        yield from self._interleaved(files)

    def _interleaved(self, files):
        """Round robin over `num_parallel_reads` open files (AUTOTUNE: all of them), one element each; a file
        that ends gives its place to the next file, which is first read on the following round (TF's order)."""
        cycle = len(files) if self._parallel == -1 else self._parallel
        pending = iter(files)
        slots = [self._read(p) for _, p in zip(range(cycle), pending)]
        try:
            while slots:
                i = 0
                while i < len(slots):
                    item = next(slots[i], None)
                    if item is None:
                        following = next(pending, None)
                        if following is None:
                            del slots[i]
                            continue
                        slots[i] = self._read(following)  # read from on the next round, as TF
                        i += 1
                        continue
                    yield (item,)
                    i += 1
        finally:
            for s in slots:
                s.close()


class TextLineDataset(FileReaderDataset):
    """`tf.data.TextLineDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None)`:
    each line of each file without its line ending ("\\n" or "\\r\\n")."""

    _tf_name = "TextLineDatasetV2"  # the class TF 2.21 returns (its repr)

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        super().__init__(filenames, compression_type, buffer_size, num_parallel_reads, "TextLineDataset")

    def _read(self, path):
        with open_for_reading(path, self._compression, self._buffer_size) as f:
            for line in f:
                if line.endswith(b"\n"):
                    line = line[:-2] if line.endswith(b"\r\n") else line[:-1]
                yield line


class TFRecordDataset(FileReaderDataset):
    """`tf.data.TFRecordDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None)`:
    each record of each file, its checksums verified (DataLossError at a damaged record)."""

    _tf_name = "TFRecordDatasetV2"  # the class TF 2.21 returns (its repr)

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        super().__init__(filenames, compression_type, buffer_size, num_parallel_reads, "TFRecordDataset")

    def _read(self, path):
        return read_records(path, self._compression, self._buffer_size)


def matching_files(patterns) -> list:
    """The files matching glob patterns (TF's MatchingFiles: `*`, `?`, `[...]`, no `**`), sorted."""
    found = set()
    for pattern in filenames_of(patterns, "list_files"):
        if glob.has_magic(pattern):
            found.update(glob.glob(pattern))
        elif os.path.exists(pattern):
            found.add(pattern)
    return sorted(found)


def list_files(file_pattern, shuffle=None, seed=None, name=None):
    """`Dataset.list_files`: the matching filenames, shuffled (with `seed`) unless `shuffle=False`; TF's
    InvalidArgumentError when nothing matches."""
    files = matching_files(file_pattern)
    if not files:
        shown = ", ".join(filenames_of(file_pattern, "list_files"))
        raise InvalidArgumentError(f"Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized "
                                   f"data: b'No files matched pattern: {shown}'")
    array = np.empty(len(files), dtype=object)
    array[:] = [f.encode("utf-8") for f in files]
    dataset = TensorSliceDataset(convert_to_tensor(array, dtypes.string))
    if shuffle is None or shuffle:
        dataset = dataset.shuffle(len(files), seed=seed)
    return dataset


@dataset_methods
class _ReaderMethods:
    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """The files matching glob pattern(s), shuffled unless shuffle=False (TF's default is to shuffle)."""
        return (deferred(lambda pattern: list_files(pattern, shuffle, seed), (file_pattern,),
                         lambda: TensorSpec((), dtypes.string), (), "_ShuffleDataset")
                or list_files(file_pattern, shuffle, seed))
