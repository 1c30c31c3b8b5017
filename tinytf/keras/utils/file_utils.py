"""keras.utils.get_file: fetch a file from a URL into Keras' cache (~/.keras/datasets, or $KERAS_HOME), check
its hash (sha256 or md5), reuse the cached copy while its hash holds, and unpack tar/zip archives without
letting a member escape the target folder. The download is urllib's urlretrieve, as in Keras; a failed or
interrupted download leaves no partial file behind."""

from __future__ import annotations

import hashlib
import os
import shutil
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import warnings
import zipfile


def keras_home() -> str:
    """$KERAS_HOME, else ~/.keras (/tmp/.keras when the home folder is not writable)."""
    if "KERAS_HOME" in os.environ:
        return os.environ["KERAS_HOME"]
    base = os.path.expanduser("~")
    if not os.access(base, os.W_OK):
        base = "/tmp"
    return os.path.join(base, ".keras")


def _hasher(algorithm: str, file_hash=None):
    if algorithm == "sha256" or (algorithm == "auto" and file_hash is not None and len(file_hash) == 64):
        return hashlib.sha256()
    return hashlib.md5()


def hash_file(fpath, algorithm="sha256", chunk_size=65535) -> str:
    """The hex digest of a file (sha256 or md5, or a hashlib object)."""
    hasher = _hasher(algorithm) if isinstance(algorithm, str) else algorithm
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(chunk_size), b""):
            hasher.update(chunk)
    return hasher.hexdigest()


def validate_file(fpath, file_hash, algorithm="auto", chunk_size=65535) -> bool:
    """Whether the file's digest equals `file_hash` ("auto": sha256 for 64 hex digits, else md5)."""
    return str(hash_file(fpath, _hasher(algorithm, file_hash), chunk_size)) == str(file_hash)


def _inside(base: str, target: str) -> bool:
    base = os.path.realpath(base)
    return os.path.commonpath([base, os.path.realpath(os.path.join(base, target))]) == base


def _safe_members(archive, base: str) -> list:
    """The members that stay inside `base` (no absolute paths, no `..`, no links pointing out)."""
    if isinstance(archive, zipfile.ZipFile):
        return [m for m in archive.infolist() if _inside(base, m.filename)]
    safe = []
    for member in archive.getmembers():
        if not _inside(base, member.name):
            warnings.warn(f"Skipping archive member {member.name!r}: it would be written outside {base}",
                          stacklevel=4)
            continue
        if (member.issym() or member.islnk()) and not _inside(
                base, os.path.join(os.path.dirname(member.name), member.linkname)):
            warnings.warn(f"Skipping archive link {member.name!r}: it points outside {base}", stacklevel=4)
            continue
        safe.append(member)
    return safe


def extract_archive(file_path, path=".", archive_format="auto") -> bool:
    """Unpack a tar (also .tar.gz/.bz2) or zip archive into `path`; False if it is neither."""
    if archive_format is None:
        return False
    formats = ["tar", "zip"] if archive_format == "auto" else (
        [archive_format] if isinstance(archive_format, str) else list(archive_format))
    file_path, path = os.fspath(file_path), os.fspath(path)
    for kind in formats:
        if kind == "tar":
            opener, matches = tarfile.open, tarfile.is_tarfile
        elif kind == "zip":
            opener, matches = zipfile.ZipFile, zipfile.is_zipfile
        else:
            raise NotImplementedError(kind)
        if not matches(file_path):
            continue
        with opener(file_path) as archive:
            try:
                archive.extractall(path, members=_safe_members(archive, path))
            except (tarfile.TarError, RuntimeError, KeyboardInterrupt):
                if os.path.isfile(path):
                    os.remove(path)
                elif os.path.exists(path):
                    shutil.rmtree(path)
                raise
        return True
    return False


class _DownloadProgress:
    """urlretrieve's report hook, drawing Keras' progress bar of bytes."""

    def __init__(self):
        self.progbar, self.finished = None, False

    def __call__(self, block_num, block_size, total_size):
        from ..callbacks.progbar import Progbar

        total = None if total_size == -1 else total_size
        if self.progbar is None:
            self.progbar = Progbar(total)
        current = block_num * block_size
        if total is None or current < total:
            self.progbar.update(current)
        elif not self.finished:
            self.progbar.update(self.progbar.target)
            self.finished = True


def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None, cache_subdir="datasets",
             hash_algorithm="auto", extract=False, archive_format="auto", cache_dir=None, force_download=False):
    """The local path of `origin`, downloaded into cache_dir/cache_subdir unless a copy with the right hash is
    there already; with extract=True, the folder it was unpacked into."""
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    base = os.path.expanduser(cache_dir if cache_dir is not None else keras_home())
    if not os.access(base, os.W_OK) and os.path.exists(base):
        base = os.path.join("/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir(), ".keras")
    datadir = os.path.join(base, cache_subdir)
    os.makedirs(datadir, exist_ok=True)
    given = fname
    fname = os.fspath(fname) if fname is not None else None
    if not fname:
        fname = os.path.basename(urllib.parse.urlsplit(origin).path)
        if not fname:
            raise ValueError(f"Can't parse the file name from the origin provided: '{origin}'.Please specify the "
                             f"`fname` argument.")
    elif os.sep in fname:
        raise ValueError(f"Paths are no longer accepted as the `fname` argument. To specify the file's parent "
                         f"directory, use the `cache_dir` argument. Received: fname={fname}")
    if extract or untar:
        if given and "." in fname:
            target = os.path.join(datadir, fname)
            extraction_dir = os.path.join(datadir, f"{fname[:fname.find('.')]}_extracted")
        else:
            extraction_dir = os.path.join(datadir, fname)
            target = os.path.join(datadir, f"{fname}_archive")
    else:
        target = os.path.join(datadir, fname)

    download = force_download or not os.path.exists(target)
    if not download and file_hash is not None and not validate_file(target, file_hash, hash_algorithm):
        print(f"A local file was found, but it seems to be incomplete or outdated because the {hash_algorithm} file "
              f"hash does not match the original value of {file_hash} so we will re-download the data.")
        download = True
    if download:
        print(f"Downloading data from {origin}")
        try:
            try:
                urllib.request.urlretrieve(origin, target, _DownloadProgress())
            except urllib.error.HTTPError as e:
                raise Exception(f"URL fetch failure on {origin}: {e.code} -- {e.msg}") from None
            except urllib.error.URLError as e:
                raise Exception(f"URL fetch failure on {origin}: {e.errno} -- {e.reason}") from None
        except (Exception, KeyboardInterrupt):
            if os.path.exists(target):
                os.remove(target)
            raise
        if file_hash is not None and not validate_file(target, file_hash, hash_algorithm):
            # Keras 3 keeps the file it downloaded (it can be inspected); the next call finds its hash wrong
            # and downloads again
            raise ValueError(f"Incomplete or corrupted file detected. The {hash_algorithm} file hash does not match "
                             f"the provided value of {file_hash}.")
    if extract or untar:
        if not extract_archive(target, extraction_dir, "tar" if untar else archive_format):
            warnings.warn("Could not extract archive.", stacklevel=2)
        return extraction_dir
    return target
