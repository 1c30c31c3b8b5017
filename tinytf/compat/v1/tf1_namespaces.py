"""TF1's utility namespaces (helper tf1rest): tf.compat.v1.logging (TF1's tf.logging on the "tensorflow"
logger), gfile (TF1's CamelCase file functions over tf.io.gfile), python_io (TFRecord writer, options and
tf_record_iterator), app (run) with flags (absl's), and resource_loader (files next to the caller's module)."""

from __future__ import annotations

import inspect
import logging as _pylogging
import os
import sys
import types

from ...io import gfile as _gfile
from ...io import tfrecord as _tfrecord


def _namespace(name, doc, **members):
    module = types.ModuleType(f"tinytf.compat.v1.{name}", doc)
    for key, value in members.items():
        setattr(module, key, value)
    return module


# --- logging -------------------------------------------------------------------------------------------------------
DEBUG, INFO, WARN, ERROR, FATAL = _pylogging.DEBUG, _pylogging.INFO, _pylogging.WARN, _pylogging.ERROR, \
    _pylogging.FATAL


def _logger():
    """The 'tensorflow' logger with TF's handler (TF's get_logger adds one printing `INFO:tensorflow:msg` to
    stderr when the logger has none), so TF1's tf.logging.info prints as in TF."""
    from ...core_api import get_logger

    logger = get_logger()
    if not logger.handlers:
        handler = _pylogging.StreamHandler(sys.stderr)
        handler.setFormatter(_pylogging.Formatter(_pylogging.BASIC_FORMAT, None))
        logger.addHandler(handler)
    return logger


def _log(level, msg, *args, **kwargs):
    _logger().log(level, msg, *args, **kwargs)


def _log_counts():
    return _log_counts.__dict__.setdefault("by_site", {})


def _call_site() -> tuple:
    frame = sys._getframe(2)
    return frame.f_code.co_filename, frame.f_lineno


def log_every_n(level, msg, n, *args):
    """Log on the 1st, (n+1)th, ... call from the same line, as TF1's."""
    counts = _log_counts()
    site = _call_site()
    count = counts.get(site, 0)
    counts[site] = count + 1
    if count % max(int(n), 1) == 0:
        _log(level, msg, *args)


def log_first_n(level, msg, n, *args):
    """Log only the first n calls from the same line."""
    counts = _log_counts()
    site = _call_site()
    count = counts.get(site, 0)
    counts[site] = count + 1
    if count < n:
        _log(level, msg, *args)


def log_if(level, msg, condition, *args):
    if condition:
        _log(level, msg, *args)


def vlog(level, msg, *args, **kwargs):
    _log(level, msg, *args, **kwargs)


def set_verbosity(v):
    _logger().setLevel(v)


def get_verbosity():
    return _logger().getEffectiveLevel()


def flush():
    for handler in _logger().handlers:
        handler.flush()


def TaskLevelStatusMessage(msg):  # noqa: N802 - TF's name
    error(msg)


def debug(msg, *args, **kwargs):
    _logger().debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    _logger().info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    _logger().warning(msg, *args, **kwargs)


def error(msg, *args, **kwargs):
    _logger().error(msg, *args, **kwargs)


def fatal(msg, *args, **kwargs):
    _logger().fatal(msg, *args, **kwargs)


logging = _namespace(
    "logging", "TF1's tf.logging: the 'tensorflow' logger (tf.get_logger()).",
    DEBUG=DEBUG, INFO=INFO, WARN=WARN, ERROR=ERROR, FATAL=FATAL, TaskLevelStatusMessage=TaskLevelStatusMessage,
    debug=debug, error=error, fatal=fatal, flush=flush, get_verbosity=get_verbosity, info=info, log=_log,
    log_every_n=log_every_n, log_first_n=log_first_n, log_if=log_if, set_verbosity=set_verbosity, vlog=vlog,
    warn=warning, warning=warning)


# --- gfile ---------------------------------------------------------------------------------------------------------
class FastGFile(_gfile.GFile):
    """TF1's FastGFile(name, mode="r"): the same file object as GFile."""

    def __init__(self, name, mode="r"):
        super().__init__(name, mode)


def _delete_recursively(dirname):
    _gfile.rmtree(dirname)


def _rename(oldname, newname, overwrite=False):
    _gfile.rename(oldname, newname, overwrite)


def _copy(oldpath, newpath, overwrite=False):
    _gfile.copy(oldpath, newpath, overwrite)


gfile = _namespace(
    "gfile", "TF1's tf.gfile: CamelCase names of tf.io.gfile's functions.",
    Copy=_copy, DeleteRecursively=_delete_recursively, Exists=_gfile.exists, FastGFile=FastGFile,
    GFile=_gfile.GFile, Glob=_gfile.glob, IsDirectory=_gfile.isdir, ListDirectory=_gfile.listdir,
    MakeDirs=_gfile.makedirs, MkDir=_gfile.mkdir, Open=_gfile.GFile, Remove=_gfile.remove, Rename=_rename,
    Stat=_gfile.stat, Walk=_gfile.walk)


# --- python_io -----------------------------------------------------------------------------------------------------
class TFRecordCompressionType:
    """TF1's compression enum for TFRecordOptions (NONE, ZLIB, GZIP)."""

    NONE = 0
    ZLIB = 1
    GZIP = 2


_COMPRESSION_NAMES = {0: "", 1: "ZLIB", 2: "GZIP"}


def _compression(options):
    if isinstance(options, _tfrecord.TFRecordOptions):
        return options.compression_type
    if isinstance(options, int) and not isinstance(options, bool):
        return _COMPRESSION_NAMES[options]
    return options


def tf_record_iterator(path, options=None):
    """Yield each record (bytes) of the TFRecord file at `path` (DataLossError for a damaged one)."""
    return _tfrecord.read_records(path, compression_type=_compression(options))


python_io = _namespace(
    "python_io", "TF1's tf.python_io: TFRecord files from Python.",
    TFRecordCompressionType=TFRecordCompressionType, TFRecordOptions=_tfrecord.TFRecordOptions,
    TFRecordWriter=_tfrecord.TFRecordWriter, tf_record_iterator=tf_record_iterator)


# --- app, flags ----------------------------------------------------------------------------------------------------
def _flags():
    from absl import flags as absl_flags

    return absl_flags


def run(main=None, argv=None):
    """TF1's tf.app.run: parse the flags from argv (sys.argv), then sys.exit(main(remaining argv)) (absl's)."""
    from absl import app as absl_app

    main = main or sys.modules["__main__"].main
    absl_app.run(main=main, argv=argv)


class _LazyFlags(types.ModuleType):
    """tf.compat.v1.flags: absl's flags module (loaded on first use)."""

    def __getattr__(self, name):
        return getattr(_flags(), name)


flags = _LazyFlags("tinytf.compat.v1.flags")
app = _namespace("app", "TF1's tf.app: run(main, argv) and flags (absl's).", run=run, flags=flags)


# --- resource_loader -------------------------------------------------------------------------------------------------
def get_data_files_path():
    """The directory of the module that calls it."""
    return os.path.dirname(inspect.getfile(sys._getframe(1)))


def get_root_dir_with_all_resources():
    return get_data_files_path()


def get_path_to_datafile(path):
    """`path` relative to the directory of the calling module."""
    return os.path.join(os.path.dirname(inspect.getfile(sys._getframe(1))), path)


def load_resource(path):
    """The bytes of the file at `path`, relative to the calling module's directory."""
    with open(os.path.join(os.path.dirname(inspect.getfile(sys._getframe(1))), path), "rb") as f:
        return f.read()


def readahead_file_path(path, readahead="128M"):
    return path


resource_loader = _namespace(
    "resource_loader", "TF1's resource_loader: data files next to the caller's module.",
    get_data_files_path=get_data_files_path, get_path_to_datafile=get_path_to_datafile,
    get_root_dir_with_all_resources=get_root_dir_with_all_resources, load_resource=load_resource,
    readahead_file_path=readahead_file_path)

__all__ = ["logging", "gfile", "python_io", "app", "flags", "resource_loader"]
