"""tf.debugging.experimental.enable_dump_debug_info / disable_dump_debug_info (TF's Debugger V2 dumps), a subset.

While on, every eager op becomes an Execution record (TF's DebugEvent protocol buffer, debug_event.proto: op
type, number of outputs, input and output tensor ids, the tensor debug mode, and with FULL_TENSOR the outputs as
TensorProtos), written in TF's file set <dump_root>/tfdbg_events.<time>.<host>.{metadata,execution,graphs,
graph_execution_traces,source_files,stack_frames} (TFRecord framing). The metadata file holds DebugMetadata
(file_version "debug.Event:1"). Not recorded: source files, stack frames, graphs and the ops inside
tf.functions (they run as one generated Python function; their files are left empty), and the health modes
(CURT_HEALTH, CONCISE_HEALTH, FULL_HEALTH, SHAPE, FULL_NUMERICS, REDUCE_INF_NAN_THREE_SLOTS) raise
NotImplementedError. `describe(dump_root)` reads a dump back (tinytf's or TF's execution and metadata records).

The DebugEvent messages are encoded here field by field (numbers from TF's debug_event.proto), since the
tensorboard package tinytf depends on does not ship debug_event_pb2."""

from __future__ import annotations

import glob
import itertools
import os
import re
import socket
import struct
import threading
import time
import uuid

import numpy as np

from tinytf.io.tfrecord import frame, read_records
from tinytf.runtime.context import add_op_observer, remove_op_observer
from tinytf.runtime.wire import encode_varint

MODES = ["UNSPECIFIED", "NO_TENSOR", "CURT_HEALTH", "CONCISE_HEALTH", "FULL_HEALTH", "SHAPE", "FULL_NUMERICS",
         "FULL_TENSOR", "REDUCE_INF_NAN_THREE_SLOTS"]
_SUFFIXES = ("metadata", "execution", "graphs", "graph_execution_traces", "source_files", "stack_frames")
_lock = threading.Lock()
_active: list = [None]


def _key(number: int, wire_type: int) -> bytes:
    return encode_varint(number << 3 | wire_type)


def _string(number: int, text) -> bytes:
    data = text.encode() if isinstance(text, str) else bytes(text)
    return _key(number, 2) + encode_varint(len(data)) + data


def _varint(number: int, value: int) -> bytes:
    return _key(number, 0) + encode_varint(value & ((1 << 64) - 1))


def _event(body_number: int, body: bytes) -> bytes:
    """A DebugEvent: wall_time (1, double) and one `what` field."""
    return _key(1, 1) + struct.pack("<d", time.time()) + _string(body_number, body)


class _Dump:
    def __init__(self, root, mode, buffer_size, op_regex, tensor_dtypes):
        self.root, self.mode, self.buffer_size = root, mode, buffer_size
        self.op_regex = re.compile(op_regex) if op_regex else None
        self.tensor_dtypes = tensor_dtypes
        os.makedirs(root, exist_ok=True)
        stem = os.path.join(root, f"tfdbg_events.{int(time.time())}.{socket.gethostname()}")
        self.files = {suffix: open(f"{stem}.{suffix}", "ab") for suffix in _SUFFIXES}
        from tinytf.version import VERSION

        metadata = _string(1, VERSION) + _string(2, "debug.Event:1") + _string(3, uuid.uuid4().hex[:8])
        self.files["metadata"].write(frame(_event(3, metadata)))
        self.buffer: list = []
        self.ids = itertools.count()
        self.tensor_ids: dict = {}  # id(tensor) -> (tensor id, tensor): kept alive so ids are never reused

    def _tensor_id(self, tensor) -> int:
        found = self.tensor_ids.get(id(tensor))
        if found is None or found[1] is not tensor:
            found = (next(self.ids), tensor)
            self.tensor_ids[id(tensor)] = found
        return found[0]

    def _dumps(self, op_type: str, tensor) -> bool:
        if self.op_regex is not None and not self.op_regex.match(op_type):
            return False
        if self.tensor_dtypes is None:
            return True
        dtypes = self.tensor_dtypes
        if callable(dtypes):
            return bool(dtypes(tensor.dtype))
        return any(tensor.dtype == d for d in dtypes)

    def on_op(self, op, inputs, outputs, start_ns, end_ns):
        from tinytf.graph_def.node_names import tf_type
        from tinytf.summary.encode import tensor_proto

        op_type = tf_type(op)
        outs = [] if outputs is None else list(outputs) if isinstance(outputs, tuple) else [outputs]
        body = _string(1, op_type) + _varint(2, len(outs))
        with _lock:
            for x in inputs:
                if hasattr(x, "dtype"):
                    body += _varint(4, self._tensor_id(x))
            for x in outs:
                body += _varint(5, self._tensor_id(x))
        body += _varint(6, MODES.index(self.mode))
        if self.mode == "FULL_TENSOR":
            for x in outs:
                if self._dumps(op_type, x) and not x.dtype.is_string:
                    body += _string(7, tensor_proto(np.asarray(x._value)).SerializeToString())
        body += b"".join(_varint(9, 0) for _ in outs)  # every output on device 0, the host CPU
        record = frame(_event(9, body))
        with _lock:
            if self.buffer_size > 0:
                self.buffer.append(record)
                del self.buffer[:-self.buffer_size]
            else:
                self.files["execution"].write(record)

    def close(self):
        self.files["execution"].write(b"".join(self.buffer))
        for f in self.files.values():
            f.close()


def enable_dump_debug_info(dump_root, tensor_debug_mode="NO_TENSOR", circular_buffer_size=1000, op_regex=None,
                           tensor_dtypes=None):
    """Start dumping eager executions under dump_root (see the module docstring for what is recorded)."""
    if tensor_debug_mode not in MODES:
        raise ValueError(f"Invalid value in tensor_debug_mode ('{tensor_debug_mode}'). Valid options are: {MODES}")
    if tensor_debug_mode not in ("NO_TENSOR", "FULL_TENSOR"):
        raise NotImplementedError(f"tensor_debug_mode {tensor_debug_mode!r}: tinytf dumps NO_TENSOR and FULL_TENSOR")
    dump_root = os.fspath(dump_root)
    if _active[0] is not None:
        if _active[0].root == dump_root and _active[0].mode == tensor_debug_mode:
            return _active[0]
        raise ValueError(f"There is already a dumping callback configured with a different dump root "
                         f"({_active[0].root}) or tensor debug mode ({_active[0].mode}).")
    dump = _Dump(dump_root, tensor_debug_mode, int(circular_buffer_size), op_regex, tensor_dtypes)
    _active[0] = dump
    add_op_observer(dump.on_op)
    return dump


def disable_dump_debug_info() -> None:
    """Stop dumping and write out what the circular buffer holds."""
    dump = _active[0]
    if dump is None:
        return
    _active[0] = None
    remove_op_observer(dump.on_op)
    dump.close()


# --- reading a dump back ---
def _fields(data: bytes) -> list:
    """(field number, value) pairs of a protobuf message: ints for varints, bytes for length-delimited."""
    out, i = [], 0
    while i < len(data):
        key, i = _read_varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _read_varint(data, i)
        elif wire == 1:
            value, i = data[i:i + 8], i + 8
        elif wire == 2:
            size, i = _read_varint(data, i)
            value, i = data[i:i + size], i + size
        elif wire == 5:
            value, i = data[i:i + 4], i + 4
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        out.append((number, value))
    return out


def _read_varint(data: bytes, i: int):
    shift = result = 0
    while True:
        byte = data[i]
        i += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, i
        shift += 7


def _packed(value) -> list:
    if isinstance(value, int):
        return [value]
    out, i = [], 0
    while i < len(value):
        number, i = _read_varint(value, i)
        out.append(number)
    return out


def describe(dump_root) -> dict:
    """{'metadata': {...}, 'executions': [{'op_type', 'num_outputs', 'input_tensor_ids', 'output_tensor_ids',
    'tensor_debug_mode', 'tensors'}...]} of the dump under dump_root (tensors as numpy arrays, FULL_TENSOR)."""
    from tensorboard.compat.proto import tensor_pb2
    from tensorboard.util import tensor_util

    result: dict = {"metadata": {}, "executions": []}
    for path in sorted(glob.glob(os.path.join(os.fspath(dump_root), "tfdbg_events.*"))):
        suffix = path.rsplit(".", 1)[-1]
        if suffix not in ("metadata", "execution"):
            continue
        for record in read_records(path):
            for number, body in _fields(bytes(record)):
                if number == 3:
                    names = {1: "tensorflow_version", 2: "file_version", 3: "tfdbg_run_id"}
                    result["metadata"] = {names[n]: v.decode() for n, v in _fields(body) if n in names}
                elif number == 9:
                    ex = {"op_type": "", "num_outputs": 0, "input_tensor_ids": [], "output_tensor_ids": [],
                          "tensor_debug_mode": "UNSPECIFIED", "tensors": []}
                    for n, v in _fields(body):
                        if n == 1:
                            ex["op_type"] = v.decode()
                        elif n == 2:
                            ex["num_outputs"] = v
                        elif n in (4, 5):  # TF packs repeated ints; tinytf writes them one by one
                            ex["input_tensor_ids" if n == 4 else "output_tensor_ids"].extend(_packed(v))
                        elif n == 6:
                            ex["tensor_debug_mode"] = MODES[v]
                        elif n == 7:
                            ex["tensors"].append(tensor_util.make_ndarray(tensor_pb2.TensorProto.FromString(v)))
                    result["executions"].append(ex)
    return result
