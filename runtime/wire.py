"""Protocol-buffer wire encoding by hand, for the few records tinytf writes byte for byte as TF does (checkpoint
tables, SavedModel fingerprints, tf.data snapshots, JSON examples): a base-128 varint."""

from __future__ import annotations


def encode_varint(value: int) -> bytes:
    """`value` as a protobuf varint; a negative int64 takes ten bytes (its two's complement), as protobuf writes it."""
    value &= (1 << 64) - 1
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)
