"""Keras 3's progress bar: `938/938 ━━━━━━━━━━━━━━━━━━━━ 2s 2ms/step - accuracy: 0.9100 - loss: 0.3100`.
On a terminal it is redrawn in place (carriage return, colours); elsewhere only the finished line of each
run is printed, so logs read line by line."""

from __future__ import annotations

import sys
import time

from ..config_logging import is_interactive_logging_enabled, print_msg


def format_value(value: float) -> str:
    return f"{value:.4f}" if abs(value) > 1e-3 or value == 0 else f"{value:.4e}"


def format_time_per_unit(seconds: float, unit: str = "step") -> str:
    if seconds >= 1 or seconds == 0:
        return f"{seconds:.0f}s/{unit}"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.0f}ms/{unit}"
    return f"{seconds * 1e6:.0f}us/{unit}"


class Progbar:
    """A progress bar over `target` steps; verbose=1 draws the bar, verbose=2 prints one summary line."""

    def __init__(self, target, width: int = 20, verbose: int = 1, interval: float = 0.05, unit_name: str = "step",
                 stream=None):
        self.target, self.width, self.verbose, self.unit_name = target, width, verbose, unit_name
        self.interval = interval  # a terminal is redrawn at most this often (seconds), as Keras 3 does
        self._last_update = 0.0
        self.stream = stream or sys.stdout
        self.dynamic = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.start = time.time()
        self._last_length = 0
        self._values: dict = {}

    def _bar(self, current: int, colour: bool) -> str:
        target = self.target or current or 1
        filled = int(self.width * min(current, target) / target)
        done, rest = "━" * filled, "━" * (self.width - filled)
        if colour:
            return f"\x1b[32m{done}\x1b[0m\x1b[37m{rest}\x1b[0m"
        return done + rest

    def _line(self, current: int, finalize: bool, colour: bool) -> str:
        elapsed = time.time() - self.start
        per_unit = elapsed / current if current else 0.0
        values = "".join(f" - {k}: {format_value(v)}" for k, v in self._values.items())
        if self.verbose == 2:
            timing = f"{int(elapsed)}s - {format_time_per_unit(per_unit, self.unit_name)}"
            return f"{current}/{self.target} - {timing}" + values
        count = f"\x1b[1m{current}/{self.target}\x1b[0m" if colour else f"{current}/{self.target}"
        if finalize or not self.target:
            clock = f"{int(elapsed)}s"
        else:
            clock = f"{int(per_unit * (self.target - current))}s"
        return f"{count} {self._bar(current, colour)} {clock} {format_time_per_unit(per_unit, self.unit_name)}" + values

    def update(self, current: int, values=None, finalize: bool | None = None) -> None:
        """Record step `current` with the latest metric values; print as the mode asks."""
        if values and finalize:
            self._values = {k: float(v) for k, v in values}  # the final logs, in their order
        elif values:
            self._values.update({k: float(v) for k, v in values})
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        if not is_interactive_logging_enabled():  # a server job: the finished line goes to absl logging
            if finalize and self.verbose in (1, 2):
                if self.target is None:
                    self.target = current
                print_msg(self._line(current, True, colour=False))
            return
        if self.verbose == 1 and self.dynamic:
            now = time.time()
            if now - self._last_update < self.interval and not finalize:
                return
            self._last_update = now
            line = self._line(current, finalize, colour=True)
            self.stream.write("\r" + line + " " * max(0, self._last_length - len(line)))
            self._last_length = len(line)
            if finalize:
                self.stream.write("\n")
            self.stream.flush()
        elif finalize and self.verbose in (1, 2):
            if self.target is None:
                self.target = current
            self.stream.write(self._line(current, True, colour=False) + "\n")
            self.stream.flush()
