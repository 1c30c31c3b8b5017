"""TF1's readers (tf.compat.v1.TextLineReader, WholeFileReader, IdentityReader, FixedLengthRecordReader,
TFRecordReader): each read() takes the next record of its current file, and when that file is used up takes the
next file name from a queue of names (string_input_producer's), so a TF1 input pipeline reads file after file
until the queue is closed and empty (tf.errors.OutOfRangeError). Keys are TF's: `file:line` for text lines,
`file:record` for fixed-length records, `file:offset` for TFRecords, the name itself for whole files.

The reader's position lives in the Python reader object, read and moved by a py_function node when a session
runs read(); tinytf keeps a queue's contents with the queue object as well, so both belong to the graph rather
than to one session (TF keeps them per session)."""

from __future__ import annotations

import threading

import numpy as np

from tinytf.runtime.errors import InvalidArgumentError

from ...io.tfrecord import read_records


def _tf():
    import tinytf

    return tinytf


class ReaderBase:
    """A reader's state (the current file's records, how many records and files it has produced) and the ops
    that read it: read, read_up_to, num_records_produced, num_work_units_completed, reset."""

    def __init__(self, reader_ref=None, supports_serialize=False):
        tf = _tf()
        if tf.executing_eagerly():
            raise RuntimeError("Readers are not supported when eager execution is enabled. Instead, please use "
                               "tf.data to get data into your model.")
        self._reader_ref = reader_ref
        self._supports_serialize = supports_serialize
        self._lock = threading.Lock()
        self._reset_state()

    def _reset_state(self):
        self._records = None  # an iterator of (key, value) over the current file
        self._produced = 0
        self._completed = 0

    @property
    def reader_ref(self):
        return self._reader_ref

    @property
    def supports_serialize(self) -> bool:
        return self._supports_serialize

    def _records_of(self, work: str):
        """(key, value) bytes of each record of one unit of work (a file name)."""
        raise NotImplementedError

    def _next(self, queue, stop_at_file_end=False):
        """The next (key, value); None when stop_at_file_end and the current file has just ended (read_up_to
        returns what one file gave, as TF's ReaderReadUpTo does)."""
        while True:
            if self._records is None:
                work = np.asarray(queue._dequeue(None, False)[0]).item()  # blocks as a dequeue op would
                work = work.decode() if isinstance(work, bytes) else str(work)
                self._records = iter(self._records_of(work))
            record = next(self._records, None)
            if record is not None:
                self._produced += 1
                return record
            self._records = None
            self._completed += 1
            if stop_at_file_end:
                return None

    def _read(self, queue, count, up_to):
        from tinytf.runtime.errors import OutOfRangeError

        with self._lock:
            keys, values = [], []
            try:
                while len(keys) < count:
                    record = self._next(queue, stop_at_file_end=up_to and bool(keys))
                    if record is None:
                        break
                    keys.append(record[0])
                    values.append(record[1])
            except OutOfRangeError:
                if not (up_to and keys):
                    raise
            return np.array(keys, dtype=object), np.array(values, dtype=object)

    def read(self, queue, name=None):
        """(key, value): the next record, from the file being read or the next file `queue` names."""
        tf = _tf()

        def read_one():
            keys, values = self._read(queue, 1, up_to=False)
            return keys[0], values[0]

        key, value = tf.py_function(read_one, [], [tf.string, tf.string], name=name or "ReaderReadV2")
        key.set_shape([])
        value.set_shape([])
        return key, value

    def read_up_to(self, queue, num_records, name=None):
        """(keys, values) of up to num_records records (fewer only at the very end of the input)."""
        tf = _tf()
        count = int(tf.get_static_value(num_records))
        if count <= 0:
            raise InvalidArgumentError(f"num_records must be positive, got {count}")
        keys, values = tf.py_function(lambda: self._read(queue, count, up_to=True), [], [tf.string, tf.string],
                                      name=name or "ReaderReadUpToV2")
        keys.set_shape([None])
        values.set_shape([None])
        return keys, values

    def _counter(self, read, name):
        tf = _tf()
        value = tf.py_function(lambda: np.int64(read()), [], tf.int64, name=name)
        value.set_shape([])
        return value

    def num_records_produced(self, name=None):
        return self._counter(lambda: self._produced, name or "ReaderNumRecordsProducedV2")

    def num_work_units_completed(self, name=None):
        return self._counter(lambda: self._completed, name or "ReaderNumWorkUnitsCompletedV2")

    def reset(self, name=None):
        """An op that puts the reader back at its start (no file, nothing produced)."""
        tf = _tf()

        def reset():
            with self._lock:
                self._reset_state()
            return np.int64(0)

        done = tf.py_function(reset, [], tf.int64, name=name or "ReaderResetV2")
        return tf.group(done)

    def serialize_state(self, name=None):
        raise NotImplementedError(f"{type(self).__name__} does not support serializing its state in tinytf")

    def restore_state(self, state, name=None):
        raise NotImplementedError(f"{type(self).__name__} does not support restoring its state in tinytf")


def _key(work, position) -> bytes:
    return f"{work}:{position}".encode()


class WholeFileReader(ReaderBase):
    """Each file is one record: key its name, value its contents."""

    def __init__(self, name=None):
        super().__init__()

    def _records_of(self, work):
        with open(work, "rb") as f:
            yield work.encode(), f.read()


class IdentityReader(ReaderBase):
    """Each unit of work is one record, key and value both the work string itself."""

    def __init__(self, name=None):
        super().__init__()

    def _records_of(self, work):
        yield work.encode(), work.encode()


class TextLineReader(ReaderBase):
    """Each line (without its newline) is a record, keyed `file:line number` (counting from 1, skipped header
    lines included)."""

    def __init__(self, skip_header_lines=None, name=None):
        super().__init__()
        self._skip = int(skip_header_lines or 0)

    def _records_of(self, work):
        with open(work, "rb") as f:
            for number, line in enumerate(f, start=1):
                if number <= self._skip:
                    continue
                yield _key(work, number), line.rstrip(b"\n").rstrip(b"\r")


class FixedLengthRecordReader(ReaderBase):
    """Records of record_bytes bytes after header_bytes, before footer_bytes, the next one hop_bytes further on
    (record_bytes when hop_bytes is 0 or None); a partial record at the end is dropped. Keys `file:record`."""

    def __init__(self, record_bytes, header_bytes=None, footer_bytes=None, hop_bytes=None, name=None,
                 encoding=None):
        super().__init__()
        if encoding not in (None, "", "ZLIB", "GZIP"):
            raise InvalidArgumentError(f"Unsupported encoding: {encoding}")
        self._record_bytes = int(record_bytes)
        self._header = int(header_bytes or 0)
        self._footer = int(footer_bytes or 0)
        self._hop = int(hop_bytes or 0) or self._record_bytes
        self._encoding = encoding or ""

    def _records_of(self, work):
        import gzip
        import zlib

        with open(work, "rb") as f:
            data = f.read()
        if self._encoding == "GZIP":
            data = gzip.decompress(data)
        elif self._encoding == "ZLIB":
            data = zlib.decompress(data)
        end = len(data) - self._footer
        start, number = self._header, 0
        while start + self._record_bytes <= end:
            yield _key(work, number), data[start:start + self._record_bytes]
            start += self._hop
            number += 1


class TFRecordReader(ReaderBase):
    """The records of TFRecord files (CRCs checked), keyed `file:offset` of each record's start."""

    def __init__(self, name=None, options=None):
        super().__init__()
        self._compression = None
        if options is not None:
            self._compression = getattr(options, "compression_type", options)

    def _records_of(self, work):
        offset = 0
        for record in read_records(work, compression_type=self._compression):
            yield _key(work, offset), record
            offset += 16 + len(record)


__all__ = ["FixedLengthRecordReader", "IdentityReader", "ReaderBase", "TFRecordReader", "TextLineReader",
           "WholeFileReader"]
