"""tf.io.gfile on the local file system: GFile, exists, glob, listdir, makedirs, mkdir, remove, rename, copy,
rmtree, isdir, stat, walk, join. Missing paths raise NotFoundError, as TF; refusing to overwrite raises an
OpError."""

from __future__ import annotations

import glob as _glob
import os
import shutil

from tinytf.runtime.errors import FailedPreconditionError, NotFoundError, OpError


def _text(path) -> str:
    if hasattr(path, "numpy"):
        path = path.numpy()
    return path.decode("utf-8") if isinstance(path, bytes) else os.fspath(path)


def _path(path) -> str:
    """A local file name: TF's `file://` scheme names the local file system too."""
    path = _text(path)
    return path[len("file://"):] if path.startswith("file://") else path


def _missing(path) -> NotFoundError:
    return NotFoundError(f"{path}; No such file or directory")


def exists(path) -> bool:
    return os.path.exists(_path(path))


def isdir(path) -> bool:
    return os.path.isdir(_path(path))


def glob(pattern) -> list:
    """Paths matching a pattern (or a list of patterns), as TF gives them: sorted, files and folders."""
    patterns = [pattern] if isinstance(pattern, (str, bytes, os.PathLike)) or hasattr(pattern, "numpy") \
        else list(pattern)
    found = set()
    for p in patterns:
        scheme = "file://" if _text(p).startswith("file://") else ""  # TF keeps the scheme in the matches
        found.update(scheme + match for match in _glob.glob(_path(p)))
    return sorted(found)


def listdir(path) -> list:
    path = _path(path)
    if not os.path.isdir(path):
        raise _missing(path)
    return os.listdir(path)  # the directory's own order, as TF's (unsorted)


def makedirs(path) -> None:
    os.makedirs(_path(path), exist_ok=True)


def mkdir(path) -> None:
    path = _path(path)
    if not os.path.isdir(os.path.dirname(path) or "."):
        raise _missing(path)
    if os.path.exists(path):
        raise OpError(f"{path}; File exists")
    os.mkdir(path)


def remove(path) -> None:
    path = _path(path)
    if not os.path.exists(path):
        raise _missing(path)
    os.remove(path)


def rmtree(path) -> None:
    path = _path(path)
    if not os.path.exists(path):
        raise _missing(path)
    shutil.rmtree(path)


def rename(src, dst, overwrite: bool = False) -> None:
    src, dst = _path(src), _path(dst)
    if not os.path.exists(src):
        raise _missing(src)
    if os.path.exists(dst) and not overwrite:
        raise OpError(f"file already exists: {dst}")
    os.replace(src, dst)


def copy(src, dst, overwrite: bool = False) -> None:
    src, dst = _path(src), _path(dst)
    if not os.path.exists(src):
        raise _missing(src)
    if os.path.exists(dst) and not overwrite:
        raise OpError(f"file already exists: {dst}")
    shutil.copyfile(src, dst)


class _Stat:
    def __init__(self, st):
        self.length, self.mtime_nsec, self.is_directory = st.st_size, st.st_mtime_ns, None


def stat(path):
    path = _path(path)
    if not os.path.exists(path):
        raise _missing(path)
    out = _Stat(os.stat(path))
    out.is_directory = os.path.isdir(path)
    return out


def walk(top, topdown: bool = True, onerror=None):
    yield from os.walk(_path(top), topdown=topdown, onerror=onerror)


def join(path, *paths) -> str:
    return os.path.join(_text(path), *[_text(p) for p in paths])


class GFile:
    """`tf.io.gfile.GFile(name, mode="r")`: a file object; text modes give str, "b" modes bytes, as TF."""

    def __init__(self, name, mode: str = "r"):
        self.name, self.mode = _path(name), mode
        self._file = None

    def _open(self):
        if self._file is None:
            if "r" in self.mode and not os.path.exists(self.name):
                raise _missing(self.name)
            if "r" in self.mode and os.path.isdir(self.name):
                raise FailedPreconditionError(f"{self.name}; Is a directory")
            # text is read as stored (no newline translation), as TF's GFile does
            self._file = open(self.name, self.mode, newline=None if "b" in self.mode else "")
        return self._file

    def read(self, n: int = -1):
        return self._open().read(n)

    def readline(self):
        return self._open().readline()

    def readlines(self):
        return self._open().readlines()

    def write(self, data) -> None:
        f = self._open()
        if "b" in self.mode and isinstance(data, str):
            data = data.encode()
        elif "b" not in self.mode and isinstance(data, bytes):
            data = data.decode()
        f.write(data)

    def seek(self, offset: int, whence: int = 0) -> None:  # TF's returns nothing
        self._open().seek(offset, whence)

    def tell(self) -> int:
        return self._open().tell()

    def size(self) -> int:
        return os.path.getsize(self.name)

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __iter__(self):
        return iter(self._open())

    def __next__(self):
        return next(self._open())

    def __enter__(self):
        self._open()
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def get_registered_schemes() -> list:
    """The URI schemes gfile reads: the local file system, plain and as file:// (TF 2.21 also lists ram and gs,
    which tinytf's gfile does not implement)."""
    return ["file", ""]
