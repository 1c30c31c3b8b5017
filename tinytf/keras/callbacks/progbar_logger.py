"""ProgbarLogger: prints `Epoch 1/3` and drives the progress bar for fit, evaluate and predict."""

from __future__ import annotations

from ..config_logging import print_msg
from .callback import Callback
from .progbar import Progbar


class ProgbarLogger(Callback):
    """The progress output of fit (verbose=1: bar; verbose=2: one line per epoch)."""

    def __init__(self, count_mode: str = "steps"):
        super().__init__()
        self.verbose, self.epochs, self.target = 1, 1, None
        self.progbar = None
        self._seen = 0  # steps run in this epoch or evaluation: the target when the data's length is unknown

    def set_params(self, params: dict) -> None:
        super().set_params(params)
        self.verbose = params.get("verbose", 1)
        self.epochs = params.get("epochs", 1)
        self.target = params.get("steps")

    def _start(self, target=None):
        self._seen = 0
        self.progbar = Progbar(target if target is not None else self.target, verbose=self.verbose)

    def on_epoch_begin(self, epoch, logs=None):
        if self.verbose and self.epochs > 1:  # Keras 3 leaves the line out of a one-epoch fit
            print_msg(f"Epoch {epoch + 1}/{self.epochs}")
        self._start()

    def on_train_batch_end(self, batch, logs=None):
        self._seen = batch + 1
        if self.verbose == 1 and self.progbar is not None:
            seen = batch + 1 if self.progbar.target is None else min(batch + 1, self.progbar.target)
            self.progbar.update(seen, list((logs or {}).items()), finalize=False)  # a short last execution

    def on_epoch_end(self, epoch, logs=None):
        if self.verbose and self.progbar is not None:
            if self.progbar.target is None:  # data of unknown length (a generator): the steps it gave,
                self.target = self.progbar.target = self._seen or 1  # and the next epochs' bars know them
            self.progbar.update(self.progbar.target, list((logs or {}).items()), finalize=True)

    def on_test_begin(self, logs=None):
        if self.params.get("is_evaluate"):
            self._start(self.params.get("steps"))

    def on_test_batch_end(self, batch, logs=None):
        if not self.params.get("is_evaluate"):
            return  # fit's validation: the bar and its step count are the training epoch's
        self._seen = batch + 1
        if self.verbose == 1:
            seen = batch + 1 if self.progbar.target is None else min(batch + 1, self.progbar.target)
            self.progbar.update(seen, list((logs or {}).items()), finalize=False)  # a short last execution

    def on_test_end(self, logs=None):
        if self.params.get("is_evaluate") and self.verbose:
            self.progbar.update(self.progbar.target or self._seen or 1, list((logs or {}).items()), finalize=True)

    def on_predict_begin(self, logs=None):
        self._start(self.params.get("steps"))

    def on_predict_batch_end(self, batch, logs=None):
        self._seen = batch + 1
        if self.verbose == 1:
            self.progbar.update(batch + 1, finalize=False)

    def on_predict_end(self, logs=None):
        if self.verbose:
            self.progbar.update(self.progbar.target or self._seen or 1, finalize=True)
