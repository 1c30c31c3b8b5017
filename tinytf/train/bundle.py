"""TensorFlow's checkpoint files (a "tensor bundle"): `PREFIX.index`, an SSTable mapping each tensor's key
to a BundleEntryProto (dtype, shape, offset, size, masked CRC32C), and `PREFIX.data-00000-of-00001`, the
tensors' bytes. Files written here load in TensorFlow and the other way round. Writes are atomic: both files
go to temporary names first and are renamed into place (see write_bundle), so a crash mid-save leaves the
previous checkpoint of that prefix whole."""

from __future__ import annotations

import os
import struct

import numpy as np
from tensorboard.compat.proto import types_pb2

from tinytf.runtime.errors import DataLossError, NotFoundError
from tinytf.runtime.wire import encode_varint

from ..io.tfrecord import masked_crc32c
from . import sstable
from .bundle_format import BundleEntryProto, BundleHeaderProto
from .slice_keys import is_slice_key, slice_key

_NUMPY_OF = {
    types_pb2.DT_FLOAT: np.float32, types_pb2.DT_DOUBLE: np.float64, types_pb2.DT_HALF: np.float16,
    types_pb2.DT_INT8: np.int8, types_pb2.DT_INT16: np.int16, types_pb2.DT_INT32: np.int32,
    types_pb2.DT_INT64: np.int64, types_pb2.DT_UINT8: np.uint8, types_pb2.DT_UINT16: np.uint16,
    types_pb2.DT_UINT32: np.uint32, types_pb2.DT_UINT64: np.uint64, types_pb2.DT_BOOL: np.bool_,
    types_pb2.DT_COMPLEX64: np.complex64, types_pb2.DT_COMPLEX128: np.complex128,
}
_DTYPE_OF = {np.dtype(v): k for k, v in _NUMPY_OF.items()}


def data_path(prefix: str) -> str:
    return f"{prefix}.data-00000-of-00001"


def index_path(prefix: str) -> str:
    return f"{prefix}.index"


def _string_layout(items: list) -> tuple[bytes, int]:
    """TF's layout of a string tensor and its checksum. Stored: every element's length as a varint, a masked
    CRC32C of the lengths, the elements' bytes. Both checksums read each length as 4 little-endian bytes (not
    as its varint), so the entry's checksum is not the CRC of the stored bytes."""
    as_uint32 = b"".join(struct.pack("<I", len(x)) for x in items)
    length_check = struct.pack("<I", masked_crc32c(as_uint32))
    strings = b"".join(items)
    stored = b"".join(encode_varint(len(x)) for x in items) + length_check + strings
    return stored, masked_crc32c(as_uint32 + length_check + strings)


def _tensor_bytes(array: np.ndarray) -> tuple[int, bytes, int]:
    """(DataType, stored bytes, masked checksum) of one tensor."""
    if array.dtype.kind in "OSU":
        items = [x if isinstance(x, bytes) else str(x).encode() for x in np.asarray(array, dtype=object).reshape(-1)]
        return (types_pb2.DT_STRING, *_string_layout(items))
    try:
        dtype = _DTYPE_OF[array.dtype]
    except KeyError:
        raise TypeError(f"a checkpoint cannot hold tensors of dtype {array.dtype}") from None
    raw = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False).tobytes()
    return dtype, raw, masked_crc32c(raw)


def write_bundle(prefix: str, tensors: dict, sliced: dict | None = None) -> None:
    """Write `tensors` (key -> numpy array; bytes/str elements for strings) as a checkpoint at `prefix`;
    `sliced` (key -> (full shape, [(start per dimension, array of the slice)])) adds tensors saved as slices,
    as TF saves a partitioned variable: one entry of the full shape that lists the slices, and one entry per
    slice under its encoded key (slice_keys.py).

    Both files are written under `.tmp` names first, then the data file and the index are renamed into
    place, in that order. A crash before the first rename leaves the old pair; between the two renames it
    leaves the new data with its index still under `.tmp`, which `complete_interrupted_write` (run by every
    reader and writer) renames into place: a reader never pairs an index with the wrong data."""
    prefix = os.fspath(prefix)
    os.makedirs(os.path.dirname(os.path.abspath(prefix)), exist_ok=True)
    complete_interrupted_write(prefix)
    # the data in TF's order: by name, a sliced tensor's slices in their order; the index sorted by key bytes
    stored = [(key, key.encode(), np.asarray(tensors[key])) if key in tensors else (key, None, None)
              for key in sorted({*tensors, *(sliced or {})})]
    entries = []
    data_tmp, index_tmp = data_path(prefix) + ".tmp", index_path(prefix) + ".tmp"
    with open(data_tmp, "wb") as data:
        offset = 0

        def add(key_bytes, array):
            nonlocal offset
            dtype, raw, crc = _tensor_bytes(array)
            entry = BundleEntryProto(dtype=dtype, offset=offset, size=len(raw), crc32c=crc)
            for size in array.shape:
                entry.shape.dim.add(size=size)
            entries.append((key_bytes, entry.SerializeToString()))
            data.write(raw)
            offset += len(raw)

        for key, key_bytes, array in stored:
            if key_bytes is not None:
                add(key_bytes, array)
                continue
            full_shape, parts = sliced[key]
            header = BundleEntryProto()  # the full tensor's entry: its shape and slices, no bytes of its own
            for size in full_shape:
                header.shape.dim.add(size=int(size))
            for start, part in parts:
                part = np.asarray(part)
                header.dtype = _tensor_bytes(part[:0])[0]
                extent = header.slices.add()
                for begin, length in zip(start, part.shape):
                    extent.extent.add(start=int(begin), length=int(length))
                add(slice_key(key, start, part.shape), part)
            entries.append((key.encode(), header.SerializeToString()))
        data.flush()
        os.fsync(data.fileno())
    entries.sort(key=lambda item: item[0])
    header = BundleHeaderProto(num_shards=1)
    header.version.producer = 1
    with open(index_tmp, "wb") as index:
        index.write(sstable.write_table([(b"", header.SerializeToString())] + entries))
        index.flush()
        os.fsync(index.fileno())
    os.replace(data_tmp, data_path(prefix))
    os.replace(index_tmp, index_path(prefix))


def complete_interrupted_write(prefix: str) -> None:
    """Finish or undo a write_bundle that stopped part way (see write_bundle)."""
    index_tmp = index_path(prefix) + ".tmp"
    if not os.path.exists(index_tmp):
        return
    if os.path.exists(data_path(prefix) + ".tmp"):  # stopped before the data was renamed: the old pair stands
        os.remove(index_tmp)
    else:  # the new data is in place: its index goes with it
        os.replace(index_tmp, index_path(prefix))


class BundleReader:
    """Reads a checkpoint: `keys()`, `dtype(key)`, `shape(key)`, `get_tensor(key)` (checksum-verified)."""

    def __init__(self, prefix: str):
        self.prefix = os.fspath(prefix)
        complete_interrupted_write(self.prefix)
        try:
            with open(index_path(self.prefix), "rb") as f:
                table = sstable.read_table(f.read())
        except FileNotFoundError:
            raise NotFoundError(f"Unsuccessful TensorSliceReader constructor: Failed to find any matching files "
                                f"for {self.prefix}") from None
        header = BundleHeaderProto()
        header.ParseFromString(table.pop(b"", b""))
        if header.num_shards > 1:
            raise DataLossError(f"checkpoint {self.prefix} has {header.num_shards} shards; tinytf reads one")
        if header.endianness != 0:
            raise DataLossError(f"checkpoint {self.prefix} is big-endian; tinytf reads little-endian ones")
        self._entries = {}
        self._slices = {}  # the entries of slices of partitioned variables, by their encoded keys
        for key, value in table.items():
            entry = BundleEntryProto()
            entry.ParseFromString(value)
            if is_slice_key(key):
                self._slices[key] = entry
            else:
                self._entries[key.decode()] = entry
        self._data = None

    def keys(self) -> list:
        return sorted(self._entries)

    def has_tensor(self, key: str) -> bool:
        return key in self._entries

    def shape(self, key: str) -> list:
        return [d.size for d in self._entries[key].shape.dim]

    def numpy_dtype(self, key: str):
        kind = self._entries[key].dtype
        return object if kind == types_pb2.DT_STRING else _NUMPY_OF[kind]

    def get_tensor(self, key: str) -> np.ndarray:
        if key not in self._entries:
            raise NotFoundError(f"Key {key} not found in checkpoint {self.prefix}")
        entry = self._entries[key]
        if entry.slices:
            return self._assembled(key, entry)
        return self._read(key, entry, self.shape(key))

    def _assembled(self, key: str, entry) -> np.ndarray:
        """A tensor saved as slices (a partitioned variable), put together whole."""
        shape = self.shape(key)
        whole = np.zeros(shape, dtype=self.numpy_dtype(key))
        for extent in entry.slices:
            starts = [e.start for e in extent.extent]
            # an extent without a length (TF's has_length unset: 0 here) covers the whole dimension, and its key
            # says so with length -1 (TF's kFullExtent)
            coded = [e.length if e.length or not size else -1 for e, size in zip(extent.extent, shape)]
            lengths = [size if n == -1 else n for n, size in zip(coded, shape)]
            part = self._slices.get(slice_key(key, starts, coded))
            if part is None:
                raise DataLossError(f"checkpoint {self.prefix} lists a slice of {key} at {starts} that it lacks")
            index = tuple(slice(a, a + n) for a, n in zip(starts, lengths))
            whole[index] = self._read(key, part, lengths)
        return whole

    def _read(self, key: str, entry, shape) -> np.ndarray:
        if self._data is None:
            try:
                with open(data_path(self.prefix), "rb") as f:
                    # read once into one buffer; each tensor is then copied out of it once
                    data = bytearray(os.fstat(f.fileno()).st_size)
                    n = f.readinto(data)
                    self._data = data if n == len(data) else data[:n]
            except FileNotFoundError:
                raise NotFoundError(f"checkpoint data file {data_path(self.prefix)} is missing") from None
        # a view of the stored bytes (numpy, which the C checksum accepts without a copy)
        raw = np.frombuffer(self._data, np.uint8, count=max(0, min(entry.size, len(self._data) - entry.offset)),
                            offset=min(entry.offset, len(self._data)))
        if len(raw) == entry.size and entry.dtype == types_pb2.DT_STRING:
            array = _parse_strings(raw.tobytes(), int(np.prod(shape, dtype=np.int64)), key)
            crc = _string_layout(list(array))[1]
        else:
            array, crc = None, masked_crc32c(raw)
        if len(raw) != entry.size or crc != entry.crc32c:
            raise DataLossError(f"Checksum does not match: stored {entry.crc32c} vs. calculated {crc} on the "
                                f"restored bytes for {key} in {self.prefix} (the data file is corrupted or truncated)")
        if array is not None:
            array = array.reshape(shape)
            return array[()] if array.ndim == 0 else array
        if entry.dtype not in _NUMPY_OF:
            raise DataLossError(f"tensor {key} of {self.prefix} has dtype {types_pb2.DataType.Name(entry.dtype)}, "
                                "which tinytf does not read")
        stored = np.dtype(_NUMPY_OF[entry.dtype]).newbyteorder("<")
        array = raw.view(stored).astype(_NUMPY_OF[entry.dtype]).reshape(shape)  # the one copy: the caller's own
        return array[()] if array.ndim == 0 else array  # scalars as numpy scalars, as TF's reader gives them


def _parse_strings(raw: bytes, count: int, key: str) -> np.ndarray:
    """The elements of a stored string tensor (its checksum is checked by the caller)."""
    lengths, pos = [], 0
    for _ in range(count):
        n, pos = sstable._read_varint(raw, pos)
        lengths.append(n)
    pos += 4  # the lengths' checksum, covered by the tensor's
    out = np.empty(count, dtype=object)
    for i, n in enumerate(lengths):
        out[i] = raw[pos:pos + n]
        pos += n
    if pos != len(raw):
        raise DataLossError(f"string tensor {key} in the checkpoint is corrupted (its lengths do not add up)")
    return out
