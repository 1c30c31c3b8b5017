"""tf.autograph.set_verbosity and tf.autograph.trace: AutoGraph's own log, as TF keeps it.

The level starts from the AUTOGRAPH_VERBOSITY environment variable (read when AutoGraph first logs, until
set_verbosity is called, which wins from then on). At level 1 AutoGraph logs each function it converts, at level
2 and above also the converted source. Messages go to the "tensorflow" logger at INFO, and to stdout too with
`alsologtostdout=True`, as in TF.
"""

from __future__ import annotations

import logging
import os
import sys

_state = {"level": None, "echo": False}


def set_verbosity(level: int, alsologtostdout: bool = False) -> None:
    """Set AutoGraph's verbosity (0: silent; larger: more detail) and whether its log is echoed to stdout."""
    _state["level"] = int(level)
    _state["echo"] = bool(alsologtostdout)


def get_verbosity() -> int:
    if _state["level"] is not None:
        return _state["level"]
    return int(os.environ.get("AUTOGRAPH_VERBOSITY", "0") or 0)


def has_verbosity(level: int) -> bool:
    return get_verbosity() >= level


def log(level: int, message: str, *args) -> None:
    """Log `message % args` when the verbosity is at least `level`."""
    if not has_verbosity(level):
        return
    text = message % args if args else message
    logging.getLogger("tensorflow").info(text)
    if _state["echo"]:
        print(text, file=sys.stdout)


def trace(*args) -> None:
    """Print the arguments when called: inside a tf.function, that is at trace time (a symbolic tensor prints as
    one), which is what makes it a tracing aid."""
    print(*args)
