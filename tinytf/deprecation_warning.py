"""TF's deprecation notice for a deprecated function: logged once per function on the "tensorflow" logger, with
the caller's file and line and TF's "Instructions for updating" text."""

from __future__ import annotations

import logging
import sys

_warned: set = set()


def warn_once(name: str, module: str, instructions: str, depth: int = 2) -> None:
    """Log that `name` (from `module`) is deprecated, the first time only; `depth` frames up is the caller."""
    if name in _warned:
        return
    _warned.add(name)
    caller = sys._getframe(depth)
    logging.getLogger("tensorflow").warning(
        "From %s:%d: %s (from %s) is deprecated and will be removed in a future version.\n"
        "Instructions for updating:\n%s", caller.f_code.co_filename, caller.f_lineno, name, module, instructions)
