"""Where Keras' messages go: stdout while interactive logging is on (the default), absl's logging.info when
it is off (keras.config.disable_interactive_logging), which is what a training job on a server wants."""

from __future__ import annotations

import sys

_state = {"interactive_logging": True}


def enable_interactive_logging() -> None:
    """Keras' progress bars and messages go to stdout (the default)."""
    _state["interactive_logging"] = True


def disable_interactive_logging() -> None:
    """Keras' progress bars and messages go to absl logging (INFO) instead of stdout."""
    _state["interactive_logging"] = False


def is_interactive_logging_enabled() -> bool:
    return _state["interactive_logging"]


def _absl_info(message: str) -> None:
    try:  # absl comes with tensorboard, a tinytf dependency; the standard logging module stands in otherwise
        from absl import logging
    except ImportError:  # pragma: no cover - absl is installed with tensorboard
        import logging
    logging.info(message)


def print_msg(message, line_break: bool = True, stream=None) -> None:
    """Keras' io_utils.print_msg: the message to `stream` (stdout) or, logging off, to absl logging.info."""
    message = str(message)
    if not is_interactive_logging_enabled():
        _absl_info(message)
        return
    stream = stream or sys.stdout
    stream.write(f"{message}\n" if line_break else message)
    stream.flush()
