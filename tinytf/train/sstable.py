"""The sorted string table that holds a TensorFlow checkpoint's index (LevelDB's table layout, as TF's
lib/io/table writes it, uncompressed): data blocks of prefix-compressed key/value entries with restart points,
an empty meta-index block, an index block of block handles, and a 48-byte footer ending in the table's magic
number. Every block carries a type byte and a masked CRC32C."""

from __future__ import annotations

import struct

from tinytf.runtime.errors import DataLossError
from tinytf.runtime.wire import encode_varint

from ..io.tfrecord import masked_crc32c

MAGIC = 0xDB4775248B80FB57
FOOTER_SIZE = 48
RESTART_INTERVAL = 16
BLOCK_SIZE = 262144  # TF's table option for checkpoint indexes


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    shift = result = 0
    while True:
        if pos >= len(data):
            raise DataLossError("corrupted checkpoint index: a number runs past the end of its block")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


class _BlockBuilder:
    def __init__(self):
        self.buffer = bytearray()
        self.restarts = [0]
        self.count = 0
        self.last_key = b""

    def add(self, key: bytes, value: bytes):
        shared = 0
        if self.count % RESTART_INTERVAL == 0 and self.count:
            self.restarts.append(len(self.buffer))
        elif self.count:
            limit = min(len(key), len(self.last_key))
            while shared < limit and key[shared] == self.last_key[shared]:
                shared += 1
        self.buffer += (encode_varint(shared) + encode_varint(len(key) - shared) + encode_varint(len(value))
                        + key[shared:] + value)
        self.last_key = key
        self.count += 1

    def size(self) -> int:
        return len(self.buffer) + 4 * len(self.restarts) + 4

    def finish(self) -> bytes:
        return bytes(self.buffer) + b"".join(struct.pack("<I", r) for r in self.restarts) + \
            struct.pack("<I", len(self.restarts))


def _separator(start: bytes, limit: bytes) -> bytes:
    """A short key >= start and < limit (LevelDB's FindShortestSeparator), for the index block."""
    common = 0
    while common < min(len(start), len(limit)) and start[common] == limit[common]:
        common += 1
    if common < min(len(start), len(limit)):
        byte = start[common]
        if byte < 0xFF and byte + 1 < limit[common]:
            return start[:common] + bytes([byte + 1])
    return start


def _successor(key: bytes) -> bytes:
    """A short key >= key (LevelDB's FindShortSuccessor), for the last block's index entry."""
    for i, byte in enumerate(key):
        if byte != 0xFF:
            return key[:i] + bytes([byte + 1])
    return key


def write_table(entries) -> bytes:
    """An SSTable of (key, value) byte pairs, which must come in strictly increasing key order. The bytes are
    those TensorFlow writes for the same entries (same block cuts, restart points and index keys)."""
    out = bytearray()
    index = _BlockBuilder()
    block = _BlockBuilder()
    previous = None
    pending = None  # (last key, handle) of a finished block, indexed once the next key is known

    def emit(contents: bytes) -> bytes:
        handle = encode_varint(len(out)) + encode_varint(len(contents))
        out.extend(contents + b"\x00" + struct.pack("<I", masked_crc32c(contents + b"\x00")))
        return handle

    for key, value in entries:
        if previous is not None and key <= previous:
            raise ValueError(f"checkpoint keys must be unique and sorted: {key!r} after {previous!r}")
        previous = key
        if pending is not None:
            index.add(_separator(pending[0], key), pending[1])
            pending = None
        block.add(key, value)
        if block.size() >= BLOCK_SIZE:
            pending = (block.last_key, emit(block.finish()))
            block = _BlockBuilder()
    if block.count:
        pending = (block.last_key, emit(block.finish()))
    if pending is not None:
        index.add(_successor(pending[0]), pending[1])
    meta_handle = emit(_BlockBuilder().finish())
    index_handle = emit(index.finish())
    footer = meta_handle + index_handle
    out += footer + b"\x00" * (FOOTER_SIZE - 8 - len(footer)) + struct.pack("<Q", MAGIC)
    return bytes(out)


def _block_entries(block: bytes):
    (num_restarts,) = struct.unpack("<I", block[-4:])
    end = len(block) - 4 - 4 * num_restarts
    pos, key = 0, b""
    while pos < end:
        shared, pos = _read_varint(block, pos)
        unshared, pos = _read_varint(block, pos)
        length, pos = _read_varint(block, pos)
        key = key[:shared] + block[pos:pos + unshared]
        pos += unshared
        yield key, block[pos:pos + length]
        pos += length


def _read_block(data: bytes, handle: bytes, what: str) -> bytes:
    offset, pos = _read_varint(handle, 0)
    size, _ = _read_varint(handle, pos)
    if offset + size + 5 > len(data):
        raise DataLossError(f"truncated checkpoint index ({what} block past the end of the file)")
    contents, kind = data[offset:offset + size], data[offset + size]
    (crc,) = struct.unpack("<I", data[offset + size + 1:offset + size + 5])
    if masked_crc32c(data[offset:offset + size + 1]) != crc:
        raise DataLossError(f"corrupted checkpoint index: bad checksum of a {what} block")
    if kind != 0:
        raise DataLossError(f"checkpoint index block compressed with type {kind}, which tinytf does not read")
    return contents


def read_table(data: bytes) -> dict:
    """Every (key, value) of an SSTable, checking the magic number and every block's checksum."""
    if len(data) < FOOTER_SIZE or struct.unpack("<Q", data[-8:])[0] != MAGIC:
        raise DataLossError("not a checkpoint index (no table magic number at the end; truncated or foreign file)")
    footer = data[-FOOTER_SIZE:]
    _, pos = _read_varint(footer, 0)
    _, pos = _read_varint(footer, pos)
    _, end = _read_varint(footer, pos)
    _, end = _read_varint(footer, end)
    index = _read_block(data, footer[pos:end], "index")
    table = {}
    for _, handle in _block_entries(index):
        table.update(_block_entries(_read_block(data, handle, "data")))
    return table
