"""Dataset.save / Dataset.load (tf.data.experimental.save / load) and Dataset.snapshot, in TF's on-disk
snapshot format (version 2), so that TF reads what tinytf saves and the other way round:

    path/snapshot.metadata            SnapshotMetadataRecord (run id, component dtypes, count, finalized)
    path/dataset_spec.pb              the element spec as a StructuredValue
    path/<run id>/<shard>.shard/00000000.snapshot
                                      a TFRecord file (GZIP-compressed if asked): each element is one record
                                      per component, a TensorProto, in the element's flat order

A snapshot keeps one such directory per pipeline fingerprint (snapshot_fingerprint.py) under its path,
written by the first complete pass and read by later ones."""

from __future__ import annotations

import multiprocessing
import os
import random
import time

from tinytf.runtime import dtypes, nest
from tinytf.runtime.errors import InvalidArgumentError, NotFoundError
from tinytf.runtime.ops.io_serialize import parse_array, serialize_array
from tinytf.runtime.wire import encode_varint

from ..io.tfrecord import TFRecordOptions, TFRecordWriter, read_records
from ..tensor_spec import TensorSpec
from .dataset import AUTOTUNE, DatasetV2, UnaryDataset, dataset_methods
from .functions import TracedFunction
from .graph_effects import when_run
from .structure import DatasetSpec, ElementError
from .symbolic import lifted_tensors, with_bound_functions

METADATA, SPEC = "snapshot.metadata", "dataset_spec.pb"
_VERSION = 2


# --- the metadata record, a small protobuf message written and read field by field ---------------------------
def _field(number: int, wire: int) -> bytes:
    return encode_varint(number << 3 | wire)


def encode_metadata(run_id: str, component_dtypes, num_elements: int, finalized: bool) -> bytes:
    run = run_id.encode()
    packed = b"".join(encode_varint(d.as_datatype_enum) for d in component_dtypes)
    return (_field(2, 2) + encode_varint(len(run)) + run + _field(3, 0) + encode_varint(int(time.time() * 1e6))
            + _field(4, 0) + encode_varint(_VERSION) + _field(5, 2) + encode_varint(len(packed)) + packed
            + _field(6, 0) + encode_varint(num_elements) + _field(1000, 0) + encode_varint(int(finalized)))


def decode_metadata(data: bytes) -> dict:
    """run_id, version, dtypes (enum values), num_elements, finalized of a SnapshotMetadataRecord."""
    out = {"run_id": "", "version": 0, "dtypes": [], "num_elements": -1, "finalized": False}
    at = 0

    def varint():
        nonlocal at
        shift = value = 0
        while True:
            byte = data[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value

    while at < len(data):
        key = varint()
        number, wire = key >> 3, key & 7
        if wire == 0:
            value = varint()
            if number == 4:
                out["version"] = value
            elif number == 5:
                out["dtypes"].append(value)
            elif number == 6:
                out["num_elements"] = value - (1 << 64) if value >> 63 else value
            elif number == 1000:
                out["finalized"] = bool(value)
        elif wire == 2:
            n = varint()
            payload, at = data[at:at + n], at + n
            if number == 2:
                out["run_id"] = payload.decode()
            elif number == 5:  # packed dtypes
                inner, data_, at_ = [], data, at
                data, at = payload, 0
                while at < len(data):
                    inner.append(varint())
                data, at = data_, at_
                out["dtypes"].extend(inner)
        elif wire == 1:
            at += 8
        elif wire == 5:
            at += 4
        else:
            raise InvalidArgumentError("a tf.data snapshot.metadata file that is not a SnapshotMetadataRecord")
    return out


# --- compression, specs --------------------------------------------------------------------------------------
def _compression(compression, what: str) -> str:
    """None, "" or "GZIP" (TF's "AUTO" of snapshot is SNAPPY, which needs a codec tinytf has not: no
    compression instead, which TF reads too when told compression=None)."""
    name = "" if compression in (None, "", "AUTO", "NONE") else str(compression).upper()
    if name not in ("", "GZIP"):
        raise ValueError(f"{what}: compression {compression!r} is not available in tinytf; use None or 'GZIP'")
    return name


def _dense_specs(spec, what: str) -> list:
    specs = nest.flatten(spec)
    for s in specs:
        if type(s) is not TensorSpec:
            raise TypeError(f"{what}: tinytf saves elements of dense tensors; {s} is a composite component (make it "
                            "dense with a map first)")
    return specs


def _write_spec(path: str, spec) -> None:
    from ..saved_model.structure import encode

    with open(os.path.join(path, SPEC), "wb") as f:
        f.write(encode(spec).SerializeToString())


def _read_spec(path: str):
    from tensorboard.compat.proto import struct_pb2

    from ..saved_model.structure import decode

    file = os.path.join(path, SPEC)
    if not os.path.exists(file):
        raise NotFoundError(f"tf.data snapshot element_spec file not found: {file}.")
    proto = struct_pb2.StructuredValue()
    with open(file, "rb") as f:
        proto.ParseFromString(f.read())
    return decode(proto)


# --- writing -------------------------------------------------------------------------------------------------
def _shard_files(run_dir: str, compression: str):
    """A writer per shard index, opened when the shard gets its first element."""
    writers: dict = {}

    def writer(shard: int):
        if shard not in writers:
            shard_dir = os.path.join(run_dir, f"{shard:08d}.shard")
            os.makedirs(shard_dir, exist_ok=True)
            writers[shard] = TFRecordWriter(os.path.join(shard_dir, "00000000.snapshot"), TFRecordOptions(compression))
        return writers[shard]
    return writer, writers


def write_elements(items, directory: str, spec, compression: str, shard_of, run_id: str | None = None):
    """Writes the flat elements `items` yields as a finalized snapshot in `directory`; yields each element after
    writing it (snapshot passes them on). The metadata is written last: an interrupted write is not finalized."""
    specs = nest.flatten(spec)
    run_id = run_id or str(random.getrandbits(63))
    os.makedirs(directory, exist_ok=True)
    writer, writers = _shard_files(os.path.join(directory, run_id), compression)
    count = 0
    try:
        for item in items:
            if type(item) is ElementError:
                raise item.error
            w = writer(shard_of(item))
            for value, s in zip(item, specs):
                w.write(serialize_array(value, s.dtype))
            count += 1
            yield item
    finally:
        for w in writers.values():
            w.close()
    with open(os.path.join(directory, METADATA), "wb") as f:
        f.write(encode_metadata(run_id, [s.dtype for s in specs], count, True))


def _sharder(dataset, shard_func):
    if shard_func is None:
        return None, lambda item: 0
    traced = TracedFunction(shard_func, [dataset._spec_inside], "save")
    out = traced.output_spec
    if not (isinstance(out, TensorSpec) and out.dtype is dtypes.int64 and out._shape == ()):
        raise ValueError(f"save: `shard_func` must return a scalar tf.int64 tensor, got {out}")
    return traced, lambda item: int(traced(item)[0])


def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    """`Dataset.save(path, compression=None, shard_func=None)`: writes every element to `path` (TF's format);
    `shard_func(element)` (an int64 scalar) picks each element's shard file."""
    if checkpoint_args is not None:
        raise ValueError("save: tinytf does not checkpoint a save in progress (`checkpoint_args`); save without it")
    path = os.fspath(path)
    spec = dataset._spec_inside
    _dense_specs(spec, "save")
    compression = _compression(compression, "save")
    traced, shard_of = _sharder(dataset, shard_func)

    def write(dataset):
        os.makedirs(path, exist_ok=True)
        _write_spec(path, spec)
        for _ in write_elements(dataset._flat_iter(), path, spec, compression, shard_of):
            pass
    if traced is not None and traced.lifted:
        raise ValueError("save: a `shard_func` reading a tf.function's tensors is not supported; pass it the "
                         "values through the dataset's elements")
    return when_run(write, dataset)


# --- reading -------------------------------------------------------------------------------------------------
class _ShardDataset(DatasetV2):
    """The elements of one shard file."""

    _tf_name = "_ShardReaderDataset"

    def __init__(self, file, spec, compression):
        super().__init__(spec)
        self._file, self._compression = file, compression

    def _flat_iter(self):
        specs = nest.flatten(self._element_spec)
        records = read_records(self._file, self._compression)
        while True:
            item = []
            for s in specs:
                record = next(records, None)
                if record is None:
                    if item:
                        raise InvalidArgumentError(f"a tf.data snapshot shard ends within an element: {self._file}")
                    return
                value = parse_array(record, s.dtype)
                item.append(value[()] if value.ndim == 0 else value)  # scalars as numpy scalars, as elsewhere
            yield tuple(item)


class _ShardsDataset(DatasetV2):
    """The shards of a snapshot run, one dataset each, in shard order (what `reader_func` receives)."""

    _tf_name = "_ShardsDataset"

    def __init__(self, files, spec, compression):
        super().__init__(DatasetSpec(spec))
        self._shards = [_ShardDataset(f, spec, compression) for f in files]

    def _cardinality(self):
        return len(self._shards)

    def _flat_iter(self):
        for shard in self._shards:
            yield (shard,)


def _default_reader(datasets):
    return datasets.interleave(lambda x: x, cycle_length=multiprocessing.cpu_count(), num_parallel_calls=AUTOTUNE)


class LoadDataset(UnaryDataset):
    """The elements `reader_func` makes of the shards; its cardinality the metadata's count."""

    _tf_name = "_LoadDataset"

    def __init__(self, read, count):
        super().__init__(read)
        self._count = count

    def _cardinality(self):
        return self._count

    def _flat_iter(self):
        return self._input._flat_iter()


def _run_files(directory: str, metadata: dict) -> list:
    run_dir = os.path.join(directory, metadata["run_id"])
    shards = sorted(d for d in os.listdir(run_dir) if d.endswith(".shard")) if os.path.isdir(run_dir) else []
    files = []
    for shard in shards:
        shard_dir = os.path.join(run_dir, shard)
        files.extend(os.path.join(shard_dir, f) for f in sorted(os.listdir(shard_dir)) if f.endswith(".snapshot"))
    return files


def read_metadata(directory: str) -> dict | None:
    file = os.path.join(directory, METADATA)
    if not os.path.exists(file):
        return None
    with open(file, "rb") as f:
        return decode_metadata(f.read())


def read_run(directory: str, spec, compression: str, reader_func, metadata: dict):
    if metadata["version"] != _VERSION:
        raise InvalidArgumentError(f"tinytf reads tf.data snapshots of version {_VERSION}, got {metadata['version']}")
    specs = nest.flatten(spec)
    if metadata["dtypes"] and metadata["dtypes"] != [s.dtype.as_datatype_enum for s in specs]:
        saved = [dtypes.as_dtype(d).name for d in metadata["dtypes"]]
        raise InvalidArgumentError(f"The element_spec's dtypes {[s.dtype.name for s in specs]} differ from the saved "
                                   f"dataset's {saved}")
    shards = _ShardsDataset(_run_files(directory, metadata), spec, compression)
    read = (reader_func or _default_reader)(shards)
    if not isinstance(read, DatasetV2):
        raise TypeError("`reader_func` must return a `tf.data.Dataset`")
    return read


def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
    """`Dataset.load(path, element_spec=None, compression=None, reader_func=None)`: the dataset saved at
    `path` (by tinytf or TF). `reader_func(datasets)` turns the dataset of shard datasets into one."""
    path = os.fspath(path)
    if wait:  # a distributed_save still being written: its metadata comes last, finalized
        _wait_for_finalized(path)
    spec = _read_spec(path) if element_spec is None else element_spec
    metadata = read_metadata(path)
    if metadata is None:
        raise NotFoundError(f"Could not find metadata file [{path}]")
    _dense_specs(spec, "load")
    read = read_run(path, spec, _compression(compression, "load"), reader_func, metadata)
    return LoadDataset(read, metadata["num_elements"] if metadata["finalized"] else -2)


def _wait_for_finalized(path: str, poll_seconds: float = 0.01) -> None:
    while True:
        metadata = read_metadata(path) if os.path.exists(os.path.join(path, SPEC)) else None
        if metadata is not None and metadata["finalized"]:
            return
        time.sleep(poll_seconds)


# --- snapshot ------------------------------------------------------------------------------------------------
class SnapshotDataset(UnaryDataset):
    """The input's elements; the first complete pass also writes them under `path/<fingerprint>`, and later
    passes (of this or an equal pipeline, in this process or another) read them from there instead."""

    _tf_name = "_SnapshotDataset"

    def __init__(self, input_dataset, path, compression, reader_func, shard_func):
        super().__init__(input_dataset)
        _dense_specs(self._spec_inside, "snapshot")
        self._path = os.fspath(path)
        self._compression = _compression(compression, "snapshot")
        self._reader_func = reader_func
        self._shard, self._shard_of = _sharder(input_dataset, shard_func)
        self._graph_tensors = lifted_tensors(self._shard) if self._shard is not None else ()

    def _bound_copy(self, values):
        new = with_bound_functions(self, values, "_shard")
        shard = new._shard
        new._shard_of = lambda item: int(shard(item)[0])
        return new

    def _flat_iter(self):
        from .snapshot_fingerprint import fingerprint

        directory = os.path.join(self._path, fingerprint(self._input))
        metadata = read_metadata(directory)
        if metadata is not None and metadata["finalized"]:
            yield from read_run(directory, self._spec_inside, self._compression, self._reader_func,
                                metadata)._flat_iter()
            return
        yield from write_elements(self._input._flat_iter(), directory, self._spec_inside, self._compression,
                                  self._shard_of)


@dataset_methods
class _SavingMethods:
    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        return save(self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
        return load(path, element_spec, compression, reader_func, wait)

    def snapshot(self, path, compression="AUTO", reader_func=None, shard_func=None, name=None):
        return SnapshotDataset(self, path, compression, reader_func, shard_func)


def snapshot(path, compression="AUTO", reader_func=None, shard_func=None):
    """`tf.data.experimental.snapshot(path, ...)`: Dataset.snapshot for Dataset.apply."""
    return lambda dataset: dataset.snapshot(path, compression, reader_func, shard_func)
