"""tf.config.experimental_run_functions_eagerly / experimental_functions_run_eagerly: TF 2.21 keeps them as
deprecated aliases of run_functions_eagerly / functions_run_eagerly, and logs TF's deprecation warning (once per
function, on the "tensorflow" logger, naming the caller's line) the first time each is called."""

from __future__ import annotations

from . import config
from .deprecation_warning import warn_once


def _warn_once(name: str, instructions: str) -> None:
    warn_once(name, "tinytf.config", instructions, depth=3)


def experimental_run_functions_eagerly(run_eagerly: bool) -> None:
    """Deprecated alias of tf.config.run_functions_eagerly."""
    _warn_once("experimental_run_functions_eagerly",
               "Use `tf.config.run_functions_eagerly` instead of the experimental version.")
    config.run_functions_eagerly(run_eagerly)


def experimental_functions_run_eagerly() -> bool:
    """Deprecated alias of tf.config.functions_run_eagerly."""
    _warn_once("experimental_functions_run_eagerly",
               "Use tf.config.functions_run_eagerly instead of the experimental version.")
    return config.functions_run_eagerly()
