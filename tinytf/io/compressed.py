"""Opening a file for reading with TF's compression types ("" / "GZIP" / "ZLIB"): a buffered binary file
object, so records (read(n)) and lines (iteration) read the same way whatever the compression."""

from __future__ import annotations

import gzip
import io
import zlib

from tinytf.runtime.errors import FailedPreconditionError, NotFoundError

COMPRESSION_TYPES = ("", "GZIP", "ZLIB")


def compression_of(compression_type) -> str:
    """TF's compression_type argument (None, "", "GZIP", "ZLIB", any case, or a string tensor) as a name."""
    if hasattr(compression_type, "numpy"):
        compression_type = compression_type.numpy()
    if isinstance(compression_type, bytes):
        compression_type = compression_type.decode()
    if isinstance(compression_type, int) and not isinstance(compression_type, bool):
        # TF1's tf.python_io.TFRecordCompressionType: NONE 0, ZLIB 1, GZIP 2 (TFRecordOptions takes them too)
        compression_type = {0: "", 1: "ZLIB", 2: "GZIP"}.get(compression_type, compression_type)
    name = (compression_type or "").upper()
    if name not in COMPRESSION_TYPES:
        raise ValueError(f"Unsupported compression_type: {compression_type!r}; use '', 'GZIP' or 'ZLIB'")
    return name


def open_for_reading(path: str, compression: str, buffer_size: int | None = None):
    """The file at `path`, decompressed; NotFoundError (TF's message) when it is missing."""
    try:
        raw = open(path, "rb", buffering=buffer_size or -1)
    except FileNotFoundError:
        raise NotFoundError(f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise FailedPreconditionError(f"{path}; Is a directory") from None
    if compression == "GZIP":
        return io.BufferedReader(gzip.GzipFile(fileobj=raw, mode="rb"), 1 << 16)
    if compression == "ZLIB":
        return io.BufferedReader(_ZlibStream(raw), 1 << 16)
    return raw


class _ZlibStream(io.RawIOBase):
    """A zlib stream (TF's ZLIB compression) decompressed as it is read."""

    def __init__(self, raw):
        self._raw, self._decompressor, self._pending = raw, zlib.decompressobj(), b""

    def readable(self):
        return True

    def readinto(self, buffer):
        while not self._pending:
            chunk = self._raw.read(1 << 16)
            if not chunk:
                self._pending = self._decompressor.flush()
                if not self._pending:
                    return 0
                break
            self._pending = self._decompressor.decompress(chunk)
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n

    def close(self):
        self._raw.close()
        super().close()
