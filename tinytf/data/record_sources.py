"""More sources and a sink of records: tf.data.FixedLengthRecordDataset (records of a fixed byte length
between a header and a footer), tf.data.experimental.SqlDataset (the rows of an SQLite query, through Python's
sqlite3) and tf.data.experimental.TFRecordWriter (a dataset of strings written as one TFRecord file)."""

from __future__ import annotations

import os
import sqlite3

import numpy as np

from tinytf.runtime import dtypes, nest
from tinytf.runtime.errors import InvalidArgumentError, UnknownError

from ..io.compressed import compression_of, open_for_reading
from ..io.tfrecord import TFRecordOptions
from ..io.tfrecord import TFRecordWriter as _FileWriter
from ..tensor_spec import TensorSpec
from .dataset import DatasetV2
from .experimental_transforms import _TypeName
from .graph_effects import when_run
from .readers import FileReaderDataset
from .sources import as_int
from .structure import ElementError


class FixedLengthRecordDataset(FileReaderDataset):
    """`tf.data.FixedLengthRecordDataset(filenames, record_bytes, header_bytes=None, footer_bytes=None,
    buffer_size=None, compression_type=None, num_parallel_reads=None)`: each file's body (without
    `header_bytes` and `footer_bytes`) cut into records of `record_bytes`; a body that is not a multiple of
    the record length is TF's InvalidArgumentError."""

    _tf_name = "FixedLengthRecordDatasetV2"

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None, buffer_size=None,
                 compression_type=None, num_parallel_reads=None, name=None):
        self._record = as_int(record_bytes, "record_bytes")
        self._header = 0 if header_bytes is None else as_int(header_bytes, "header_bytes")
        self._footer = 0 if footer_bytes is None else as_int(footer_bytes, "footer_bytes")
        super().__init__(filenames, compression_type, buffer_size, num_parallel_reads, "FixedLengthRecordDataset")

    def _read(self, path):
        if self._record <= 0:
            raise InvalidArgumentError("`record_bytes` must be > 0")
        if self._header < 0 or self._footer < 0:
            raise InvalidArgumentError("`header_bytes` and `footer_bytes` must be >= 0")
        with open_for_reading(path, self._compression, self._buffer_size) as f:
            data = f.read()
        body = len(data) - self._header - self._footer
        if body < 0 or body % self._record:
            raise InvalidArgumentError(
                f"Excluding the header ({self._header} bytes) and footer ({self._footer} bytes), input file "
                f"\"{path}\" has body length {max(body, 0)} bytes, which is not an exact multiple of the record "
                f"length ({self._record} bytes).")
        for start in range(self._header, self._header + body, self._record):
            yield data[start:start + self._record]


class SqlDataset(DatasetV2):
    """`tf.data.experimental.SqlDataset(driver_name, data_source_name, query, output_types)`: one element per
    row of `query` on the SQLite database `data_source_name`, each column converted to its output type (as
    TF's SQLite reader does: text to strings, integers and reals to numbers, and an int for tf.bool)."""

    _tf_name = "SqlDatasetV2"

    def __init__(self, driver_name, data_source_name, query, output_types):
        self._driver = _text(driver_name)
        if self._driver != "sqlite":
            raise InvalidArgumentError(f"The database type, {self._driver}, is not supported by SqlDataset. The set "
                                       "of supported databases is: {'sqlite'}.")
        self._source, self._query = _text(data_source_name), _text(query)
        types = nest.map_structure(dtypes.as_dtype, output_types)
        self._types = nest.flatten(types)
        super().__init__(nest.map_structure(lambda t: TensorSpec((), t), types))

    def _flat_iter(self):
        try:
            connection = sqlite3.connect(f"file:{self._source}?mode=ro", uri=True)
        except sqlite3.Error as e:
            raise UnknownError(f"Failed to open the database {self._source}: {e}") from None
        try:
            try:
                cursor = connection.execute(self._query)
            except sqlite3.Error as e:
                raise UnknownError(f"Prepare() failed: [1] {e}: {self._query}") from None
            columns = len(cursor.description or ())
            if columns != len(self._types):
                raise InvalidArgumentError(f"The number of columns in query ({columns}) must match the number of "
                                           f"elements in output_types ({len(self._types)}).")
            for row in cursor:
                yield tuple(_column(v, t) for v, t in zip(row, self._types))
        finally:
            connection.close()


def _column(value, dtype):
    """One SQLite column as TF's reader gives it: sqlite3_column_text / _int64 / _double, so a NULL is empty
    or zero and text read as a number is SQLite's own conversion of it."""
    if dtype.is_string:
        return b"" if value is None else (value if isinstance(value, bytes) else str(value).encode())
    if value is None:
        value = 0
    elif isinstance(value, (str, bytes)):
        value = _sqlite_number(value, dtype)
    if dtype is dtypes.bool_:
        return np.bool_(int(value) != 0)
    if dtype.is_integer:
        return np.array(int(value)).astype(dtype.np)[()]  # a numpy scalar, as a pipeline's scalars are
    return np.array(value, dtype.np)[()]


def _sqlite_number(text, dtype):
    """SQLite's conversion of text to a number: its longest numeric prefix, else 0."""
    cast = "INTEGER" if dtype.is_integer or dtype is dtypes.bool_ else "REAL"
    with sqlite3.connect(":memory:") as c:
        return c.execute(f"SELECT CAST(? AS {cast})", (text,)).fetchone()[0]


def _text(value) -> str:
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, bytes):
        return value.decode()
    return os.fspath(value)


class TFRecordWriter:
    """`tf.data.experimental.TFRecordWriter(filename, compression_type=None)`: `write(dataset)` writes the
    dataset's scalar strings as the records of one TFRecord file (created anew at each write)."""

    def __init__(self, filename, compression_type=None):
        self._filename = _text(filename)
        self._compression = compression_of(compression_type)

    def write(self, dataset):
        if not isinstance(dataset, DatasetV2):
            raise TypeError(f"Invalid `dataset.` Expected a `tf.data.Dataset` object but got {type(dataset)}.")
        spec = dataset._spec_inside
        if not (isinstance(spec, TensorSpec) and spec.dtype.is_string and spec._shape == ()):
            shape = getattr(spec, "shape", None)
            types = nest.map_structure(lambda s: _TypeName(s.dtype), spec)
            raise TypeError(f"Invalid `dataset`. Expected a`dataset` that produces scalar `tf.string` elements, but "
                            f"got a dataset which produces elements with shapes {_shape_text(shape)} and types "
                            f"{types!r}.")
        return when_run(self._write, dataset)

    def _write(self, dataset) -> None:
        with _FileWriter(self._filename, TFRecordOptions(self._compression)) as writer:
            for item in dataset._flat_iter():
                if type(item) is ElementError:
                    raise item.error
                record = item[0]
                writer.write(record[()] if isinstance(record, np.ndarray) else record)  # a 0-d string array


def _shape_text(shape) -> str:
    if shape is None:
        return "?"
    return str(tuple(shape.as_list())) if shape.rank is not None else "<unknown>"
