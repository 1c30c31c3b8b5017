"""tf.load_library, tf.load_op_library, tf.experimental.register_filesystem_plugin: TF loads compiled
shared objects that register C++ kernels, filesystems or ops. tinytf's ops are Python, so no shared object can
add to them: the functions check what TF checks first (that the file exists) and raise TF's error class, and a
real library is refused with NotImplementedError saying why."""

from __future__ import annotations

import os

from tinytf.runtime.errors import NotFoundError


def _refuse(what: str, path: str):
    raise NotImplementedError(
        f"{what}: {path!r} is a compiled TensorFlow plugin; tinytf runs ops written in Python and cannot load "
        "C++ kernels (register Python ops instead, or use tf.py_function / tf.numpy_function)")


def load_op_library(library_filename):
    """TF: dlopen the file and return a module of its ops. A missing file is TF's NotFoundError."""
    if not os.path.exists(library_filename):
        raise NotFoundError(f"{library_filename}: cannot open shared object file: No such file or directory")
    _refuse("load_op_library", library_filename)


def load_library(library_location):
    """TF: load a kernel library file, or every .so in a folder (a folder without one loads nothing)."""
    if not os.path.exists(library_location):
        raise FileNotFoundError(2, "The file or folder to load kernel libraries from does not exist.",
                                library_location)
    if os.path.isdir(library_location):
        libraries = [os.path.join(library_location, f) for f in sorted(os.listdir(library_location))
                     if f.endswith(".so")]
    else:
        libraries = [library_location]
    for library in libraries:
        _refuse("load_library", library)


def register_filesystem_plugin(plugin_location):
    """TF: load a modular filesystem plugin (.so). A missing file is TF's FileNotFoundError."""
    if not os.path.exists(plugin_location):
        raise FileNotFoundError(2, "The file to load file system plugin from does not exist.", plugin_location)
    _refuse("register_filesystem_plugin", plugin_location)
