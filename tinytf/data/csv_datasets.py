"""tf.data.experimental.CsvDataset (one tuple of scalars per CSV record) and make_csv_dataset (batches of
{column name: values} dicts, types inferred from the first rows, optionally a label split off), with TF's
parsing rules (runtime/ops/csv.py: quotes, defaults, na_value) and TF's error messages."""

from __future__ import annotations

import collections

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops.csv import CSV_DTYPES, convert_field, split_record
from tinytf.runtime.tensor import Tensor

from ..constant import convert_to_tensor
from ..deprecation_warning import warn_once
from ..io.compressed import compression_of, open_for_reading
from ..tensor_spec import TensorSpec
from .dataset import DatasetV2
from .readers import FileSource, matching_files
from .structure import ElementError


def _record_default(default, index):
    """(dtype, default value or None when required) of one record default: a dtype, a value, a one-element
    list or a tensor (empty: required)."""
    if isinstance(default, dtypes.DType):
        dtype, value = default, None
    else:
        if isinstance(default, Tensor):
            tensor = default
        else:  # a Python value is a constant, also while interleave traces a function that builds the dataset
            from ..scopes import init_scope

            with init_scope():
                tensor = convert_to_tensor(default)
        array = np.asarray(tensor.numpy(), dtype=object if tensor.dtype.is_string else None)
        if array.size > 1:
            raise ValueError(f"CsvDataset: record_defaults[{index}] must have at most one element, got {array.size}")
        dtype, value = tensor.dtype, (array.reshape(-1)[0] if array.size else None)
    if dtype not in CSV_DTYPES:
        raise TypeError(f"CsvDataset: record_defaults[{index}] has type {dtype.name}; use int32, int64, float32, "
                        "float64 or string")
    if value is not None and not dtype.is_string:
        value = dtype.np.type(value)
    return dtype, value


def _bytes(text) -> bytes:
    return text.encode("utf-8") if isinstance(text, str) else bytes(text)


def csv_records(path, compression, buffer_size):
    """The records of a CSV file: lines, except that a quoted field may hold line breaks."""
    with open_for_reading(path, compression, buffer_size) as f:
        pending = None
        for line in f:
            pending = line if pending is None else pending + line
            if pending.count(b'"') % 2:  # inside a quoted field: the record goes on
                continue
            record, pending = pending, None
            if record.endswith(b"\n"):
                record = record[:-2] if record.endswith(b"\r\n") else record[:-1]
            yield record
        if pending is not None:
            yield pending


class CsvDataset(FileSource, DatasetV2):
    """`tf.data.experimental.CsvDataset(filenames, record_defaults, compression_type=None, buffer_size=None,
    header=False, field_delim=",", use_quote_delim=True, na_value="", select_cols=None, exclude_cols=None)`."""

    _tf_name = "CsvDatasetV2"

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None, header=False,
                 field_delim=",", use_quote_delim=True, na_value="", select_cols=None, exclude_cols=None,
                 name=None):
        inputs = self._set_files(filenames, "CsvDataset")
        parsed = [_record_default(d, i) for i, d in enumerate(record_defaults)]
        if not parsed:
            raise ValueError("CsvDataset: record_defaults must not be empty")
        self._dtypes = [d for d, _ in parsed]
        self._defaults = [v for _, v in parsed]
        self._compression = compression_of(compression_type)
        self._buffer_size = buffer_size
        self._header = bool(header)
        self._delim = _bytes(field_delim)
        if len(self._delim) != 1:
            raise ValueError(f"field_delim should be only one character, got {field_delim!r}")
        self._quoted = bool(use_quote_delim)
        self._na = _bytes(na_value)
        if select_cols is not None and exclude_cols is not None:
            raise ValueError("Either select_cols or exclude_cols should be empty")
        self._select = None if select_cols is None else [int(c) for c in select_cols]
        self._exclude = None if exclude_cols is None else set(int(c) for c in exclude_cols)
        for cols in (self._select, None if exclude_cols is None else [int(c) for c in exclude_cols]):
            if cols is not None and any(b <= a for a, b in zip(cols, cols[1:])):
                raise InvalidArgumentError("select_cols / exclude_cols is not sorted in ascending order")
        if self._select is not None and len(self._select) != len(self._dtypes):
            raise InvalidArgumentError(f"select_cols should match output size: {len(self._select)} columns selected "
                                       f"for {len(self._dtypes)} record_defaults")
        DatasetV2.__init__(self, tuple(TensorSpec((), d) for d in self._dtypes), inputs)

    def _columns(self, n_fields):
        if self._select is not None:
            return self._select
        if self._exclude is not None:
            return [c for c in range(n_fields) if c not in self._exclude]
        return None

    def _flat_iter(self):
        n = len(self._dtypes)
        for path in self._file_list():
            records = csv_records(path, self._compression, self._buffer_size)
            if self._header:
                next(records, None)
            for index, record in enumerate(records):
                try:
                    yield self._row(record, index, n)
                except InvalidArgumentError as error:  # one bad record: ignore_errors() drops it, as in TF
                    yield ElementError(error)

    def _row(self, record, index, n):
        fields = split_record(record, self._delim, self._quoted, index)
        columns = self._columns(len(fields))
        if columns is not None:
            if len(fields) <= columns[-1]:
                raise InvalidArgumentError(f"Expect {columns[-1] + 1} fields but have {len(fields)} in record")
            fields = [fields[c] for c in columns]
        if len(fields) != n:
            have = "more" if len(fields) > n else len(fields)
            raise InvalidArgumentError(f"Expect {n} fields but have {have} in record")
        return tuple(self._convert(c, field) for c, field in enumerate(fields))

    def _convert(self, column, field):
        if field == b"" or field == self._na:
            default = self._defaults[column]
            if default is None:
                raise InvalidArgumentError(f"Field {column} is required but missing in record!")
            return default
        dtype = self._dtypes[column]
        try:
            value = convert_field(field, dtype, column, 0)
        except InvalidArgumentError:
            raise InvalidArgumentError(f"Field {column} in record is not a valid {dtype.name}: "
                                       f"{field.decode('utf-8', 'replace')}") from None
        return value if dtype.is_string else dtype.np.type(value)


# --- make_csv_dataset -------------------------------------------------------------------------------------------
_FLOAT32_MAX = float(np.finfo(np.float32).max)
_INFERENCE_ORDER = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64, dtypes.string)


def _fits(text: bytes, dtype) -> bool:
    try:
        convert_field(text, dtype, 0, 0)
    except InvalidArgumentError:
        return False
    value = float(text) if dtype.is_floating else 0.0
    return dtype is not dtypes.float32 or abs(value) <= _FLOAT32_MAX or value in (float("inf"), float("-inf"))


def _infer_types(files, n_columns, delim, quoted, na, header, compression, rows):
    """The narrowest type in int32 < int64 < float32 < float64 < string holding every value seen in the first
    `rows` records (empty fields and na_value say nothing), as TF's make_csv_dataset infers them."""
    kinds = [0] * n_columns
    seen = 0
    for path in files:
        records = csv_records(path, compression, None)
        if header:
            next(records, None)
        for record in records:
            if seen >= rows:
                break
            fields = split_record(record, delim, quoted, seen)
            if len(fields) != n_columns:
                raise ValueError(f"Problem inferring types: CSV row {seen} has {len(fields)} number of fields. "
                                 f"Expected: {n_columns}.")
            for c, field in enumerate(fields):
                if field == b"" or field == na:
                    continue
                while not _fits(field, _INFERENCE_ORDER[kinds[c]]):
                    kinds[c] += 1
            seen += 1
    return [_INFERENCE_ORDER[k] for k in kinds]


def _header_names(path, delim, quoted, compression) -> list:
    first = next(csv_records(path, compression, None), None)
    if first is None:
        raise ValueError(f"Cannot infer column names: {path} is empty")
    return [f.decode("utf-8") for f in split_record(first, delim, quoted, 0)]


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None, label_name=None,
                     select_columns=None, field_delim=",", use_quote_delim=True, na_value="", header=True,
                     num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False, num_rows_for_inference=100,
                     compression_type=None, ignore_errors=False, encoding="utf-8"):
    """Batches of (OrderedDict of columns[, label]) read from CSV files, as TF's make_csv_dataset builds them:
    files shuffled, records interleaved, shuffled and repeated `num_epochs` times (None: forever, and the last
    short batch dropped), batched, turned into dicts, prefetched."""
    from .dataset import AUTOTUNE

    files = matching_files(file_pattern)
    if not files:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    delim, na = _bytes(field_delim), _bytes(na_value)
    compression = compression_of(compression_type)
    if column_names is None:
        if not header:
            raise ValueError("Cannot infer column names without a header line.")
        column_names = _header_names(files[0], delim, use_quote_delim, compression)
    column_names = list(column_names)
    if len(set(column_names)) != len(column_names):
        raise ValueError("Cannot have duplicate column names.")
    select_cols = None
    if select_columns is not None:
        if all(isinstance(c, int) for c in select_columns):
            select_cols = sorted(select_columns)
        else:
            missing = [c for c in select_columns if c not in column_names]
            if missing:
                raise ValueError(f"Invalid column names in `select_columns`: {missing}. Column names are "
                                 f"{column_names}.")
            select_cols = sorted(column_names.index(c) for c in select_columns)
        column_names = [column_names[i] for i in select_cols]
    if label_name is not None and label_name not in column_names:
        raise ValueError(f"`label_name` provided must be one of the columns: {column_names}. Received: {label_name}.")
    if column_defaults is None:
        n_all = len(_header_names(files[0], delim, use_quote_delim, compression)) if select_cols is not None \
            else len(column_names)
        types = _infer_types(files, n_all, delim, use_quote_delim, na, header, compression, num_rows_for_inference)
        if select_cols is not None:
            types = [types[i] for i in select_cols]
        column_defaults = [convert_to_tensor(b"" if t.is_string else t.np.type(0), t) for t in types]
    if len(column_defaults) != len(column_names):
        raise ValueError(f"The number of column defaults ({len(column_defaults)}) does not match the number of "
                         f"columns ({len(column_names)}).")

    def file_dataset(filename):
        return CsvDataset(filename, column_defaults, compression_type=compression or None, header=header,
                          field_delim=field_delim, use_quote_delim=use_quote_delim, na_value=na_value,
                          select_cols=select_cols)

    dataset = DatasetV2.from_tensor_slices(files)
    if shuffle:
        dataset = dataset.shuffle(len(files), seed=shuffle_seed)
    dataset = dataset.interleave(file_dataset, cycle_length=num_parallel_reads or 1, block_length=1)
    if ignore_errors:  # TF calls its deprecated experimental.ignore_errors here, which logs its notice
        warn_once("ignore_errors", "tensorflow.python.data.experimental.ops.error_ops",
                  "Use `tf.data.Dataset.ignore_errors` instead.", depth=1)
        dataset = dataset.ignore_errors()
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, seed=shuffle_seed)
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=num_epochs is None)
    names = tuple(column_names)

    def to_dict(*columns):
        features = collections.OrderedDict(zip(names, columns))
        if label_name is None:
            return features
        label = features.pop(label_name)
        return features, label

    dataset = dataset.map(to_dict)
    return dataset.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)
