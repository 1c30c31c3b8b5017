"""Table initializers (tf.lookup.KeyValueTensorInitializer, TextFileInitializer): where a static table's keys
and values come from. Each gives them as two numpy arrays, read once when the table is made, as TF
initializes a table once."""

from __future__ import annotations

import os

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.errors import InvalidArgumentError, NotFoundError
from tinytf.runtime.ops.static_value import constant_value

from ..constant import convert_to_tensor


class TextFileIndex:
    """Which part of a line a TextFileInitializer takes: the whole line, or its line number."""

    WHOLE_LINE = -2
    LINE_NUMBER = -1


def known_value(tensor, what: str) -> np.ndarray:
    """The numpy value of an initializer's tensor: tables are built once, from values known when they are made
    (TF lifts a table made inside a tf.function out of it, so its keys must not depend on the function's
    arguments)."""
    value = constant_value(tensor)
    if value is None:
        raise ValueError(f"the {what} of a lookup table initializer must be known when the table is made "
                         f"(a constant or an eager tensor), not a tensor computed inside a tf.function")
    return np.asarray(value)


class TableInitializerBase:
    def __init__(self, key_dtype, value_dtype):
        self._key_dtype = dtypes.as_dtype(key_dtype)
        self._value_dtype = dtypes.as_dtype(value_dtype)

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return self._value_dtype

    def initialize(self, table):
        """Fill `table` with this initializer's keys and values (tables made with an initializer already are)."""
        keys, values = self._key_values()
        table._import_checked(keys, values)
        return None


class KeyValueTensorInitializer(TableInitializerBase):
    """Keys and values from two tensors (or lists) of the same length."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        keys = convert_to_tensor(keys, dtype=key_dtype)
        values = convert_to_tensor(values, dtype=value_dtype)
        super().__init__(keys.dtype, values.dtype)
        self._keys = known_value(keys, "keys")
        self._values = known_value(values, "values")
        if self._keys.shape != self._values.shape:
            raise InvalidArgumentError(f"Expected shape {list(self._keys.shape)} for value, got "
                                       f"{list(self._values.shape)}: the keys and values of a "
                                       f"KeyValueTensorInitializer must have the same shape")
        self._name = name

    def _key_values(self):
        return self._keys.reshape(-1), self._values.reshape(-1)


def _column(parts, line: bytes, number: int, index: int, dtype, path: str, offset: int = 0):
    if index == TextFileIndex.WHOLE_LINE:
        if not dtype.is_string:
            return _parse(line, dtype, path, number)
        return line
    if index == TextFileIndex.LINE_NUMBER:
        return number + offset
    if index >= len(parts):
        raise InvalidArgumentError(f"Invalid number of columns in {path} line {number} ({line!r}) : expected "
                                   f"{index + 1} got {len(parts)}")
    return parts[index] if dtype.is_string else _parse(parts[index], dtype, path, number)


def _parse(text: bytes, dtype, path: str, number: int):
    try:
        return float(text) if dtype.is_floating else int(text)
    except ValueError:
        raise InvalidArgumentError(f"Field {text.decode(errors='replace')} in line {number} is not a valid "
                                   f"{dtype.name} in {path}") from None


class TextFileInitializer(TableInitializerBase):
    """Keys and values from the lines of a text file: a column split by `delimiter`, the whole line
    (TextFileIndex.WHOLE_LINE) or the line number (TextFileIndex.LINE_NUMBER, plus value_index_offset)."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index, vocab_size=None, delimiter="\t",
                 name=None, value_index_offset=0):
        super().__init__(key_dtype, value_dtype)
        if key_index < -2:
            raise ValueError(f"`key_index` should be >= -2, received: {key_index}.")
        if value_index < -2:
            raise ValueError(f"`value_index` should be >= -2, received: {value_index}.")
        if key_index == TextFileIndex.LINE_NUMBER and self._key_dtype not in (dtypes.int64, dtypes.int32):
            raise ValueError(f"`key_dtype` must be int64 or int32 when `key_index` is LINE_NUMBER, received "
                             f"{self._key_dtype.name}")
        if value_index == TextFileIndex.LINE_NUMBER and self._value_dtype not in (dtypes.int64, dtypes.int32):
            raise ValueError(f"`value_dtype` must be int64 or int32 when `value_index` is LINE_NUMBER, received "
                             f"{self._value_dtype.name}")
        if (vocab_size is not None) and vocab_size <= 0:
            raise ValueError(f"`vocab_size` should be > 0, received: {vocab_size}")
        filename = filename.numpy() if hasattr(filename, "numpy") else filename
        self._filename = os.fsdecode(filename)
        self._key_index, self._value_index = key_index, value_index
        self._vocab_size, self._delimiter, self._offset = vocab_size, delimiter, value_index_offset
        self._name = name

    def _key_values(self):
        path = self._filename
        if not os.path.exists(path):
            raise NotFoundError(f"{path}; No such file or directory")
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        if self._vocab_size is not None:
            if len(lines) < self._vocab_size:
                raise InvalidArgumentError(f"Invalid vocab_size in {path}: expected {self._vocab_size} but got "
                                           f"{len(lines)}")
            lines = lines[:self._vocab_size]
        delimiter = None if self._delimiter is None else self._delimiter.encode()
        keys, values = [], []
        for number, line in enumerate(lines):
            line = line.removesuffix(b"\r")
            parts = line.split(delimiter) if delimiter is not None else line.split()
            keys.append(_column(parts, line, number, self._key_index, self._key_dtype, path))
            values.append(_column(parts, line, number, self._value_index, self._value_dtype, path, self._offset))
        return _array(keys, self._key_dtype), _array(values, self._value_dtype)


def _array(items, dtype) -> np.ndarray:
    if dtype.is_string:
        out = np.empty(len(items), dtype=object)
        out[:] = items
        return out
    return np.asarray(items, dtype=dtype.np)


