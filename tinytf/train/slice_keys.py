"""The keys under which a TF checkpoint stores the slices of a partitioned variable (TF's
`checkpoint::EncodeTensorNameSlice`): OrderedCode of (0, the full tensor's name, rank, then start and length of
each dimension). They start with a zero byte, so they sort before every name and never decode as text; the full
tensor's own entry lists its slices (BundleEntryProto.slices) and holds no bytes itself."""

from __future__ import annotations

# The bits OrderedCode sets in the first two bytes of a signed number encoded in 1..10 bytes: the length, in
# unary, ahead of the value, so that the bytes of two numbers compare as the numbers do.
_LENGTH_HEADER = ((0, 0), (0x80, 0), (0xC0, 0), (0xE0, 0), (0xF0, 0), (0xF8, 0), (0xFC, 0), (0xFE, 0),
                  (0xFF, 0), (0xFF, 0x80), (0xFF, 0xC0))


def _unsigned(n: int) -> bytes:
    """OrderedCode's WriteNumIncreasing: a length byte, then the number big-endian without leading zeros."""
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([len(body)]) + body


def _signed(v: int) -> bytes:
    """OrderedCode's WriteSignedNumIncreasing."""
    magnitude = ~v if v < 0 else v
    if magnitude < 64:
        return bytes([(0x80 ^ v) & 0xFF])
    n = magnitude.bit_length() // 7 + 1
    buf = bytearray(b"\xff\xff" if v < 0 else b"\x00\x00") + bytearray((v & (2**64 - 1)).to_bytes(8, "big"))
    out = buf[10 - n:]
    out[0] ^= _LENGTH_HEADER[n][0]
    out[1] ^= _LENGTH_HEADER[n][1]
    return bytes(out)


def _string(s: bytes) -> bytes:
    """OrderedCode's WriteString: 0x00 and 0xff escaped, then the 0x00 0x01 terminator."""
    return s.replace(b"\xff", b"\xff\x00").replace(b"\x00", b"\x00\xff") + b"\x00\x01"


def slice_key(name: str, starts, lengths) -> bytes:
    """The checkpoint key of the slice of `name` that starts at `starts` with extent `lengths` (per dimension)."""
    out = _unsigned(0) + _string(name.encode()) + _unsigned(len(starts))
    for start, length in zip(starts, lengths):
        out += _signed(int(start)) + _signed(int(length))
    return out


def is_slice_key(key: bytes) -> bool:
    return key[:1] == b"\x00"
