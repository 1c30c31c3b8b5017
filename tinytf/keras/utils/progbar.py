"""keras.utils.Progbar: the progress bar fit draws, for the user's own loops. Values given to update() are
averaged over the steps seen (weighted by how many steps each call covers), except `stateful_metrics`, which
are shown as given, as Keras 3 does."""

from __future__ import annotations

from ..callbacks.progbar import Progbar as _BarDrawing


class Progbar(_BarDrawing):
    def __init__(self, target, width=20, verbose=1, interval=0.05, stateful_metrics=None, stateless_metrics=None,
                 unit_name="step"):
        super().__init__(target, width=width, verbose=verbose, interval=interval, unit_name=unit_name)
        self.stateful_metrics = set(stateful_metrics or [])
        self._sums: dict = {}  # name -> [weighted sum, weight], in first-seen order
        self._seen_so_far = 0

    def update(self, current, values=None, finalize=None):
        for name, value in values or []:
            value = float(value)
            if name in self.stateful_metrics:
                self._sums[name] = [value, 1]
            else:
                base = max(current - self._seen_so_far, 1)
                total = self._sums.setdefault(name, [0.0, 0])
                total[0] += value * base
                total[1] += base
        self._seen_so_far = current
        self._values = {name: s / max(1, n) for name, (s, n) in self._sums.items()}
        super().update(current, None, finalize)

    def add(self, n, values=None):
        """Advance by n steps."""
        self.update(self._seen_so_far + n, values)
