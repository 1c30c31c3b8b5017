"""Not a module of tinytf: this file lets the clone's own folder stand in for the package `tinytf`.

A clone in a folder named `tinytf`, installed with `pip install -e .`, is found by `import tinytf` before the
installed package whenever Python runs from the folder that holds the clone (the current directory comes first
on sys.path). Without this file, Python would import the clone's folder as an empty namespace package (no
`tf.constant`); with it, the import hands over to the real package in tinytf/tinytf."""

import importlib.util
import os
import sys

if __name__ == "tinytf":
    _package = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tinytf")
    _spec = importlib.util.spec_from_file_location(__name__, os.path.join(_package, "__init__.py"),
                                                   submodule_search_locations=[_package])
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[__name__] = _module  # an import statement returns what sys.modules holds when the import ends
    _spec.loader.exec_module(_module)
