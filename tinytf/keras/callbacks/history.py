"""keras.callbacks.History, the object fit returns (in a module of that name, as Keras 3: its repr reads
`<...callbacks.history.History object at ...>`, which TF's tutorials print)."""

from __future__ import annotations

from .callback import Callback


class History(Callback):
    """Records the epoch logs: `history.history["loss"]` is the list of epoch losses."""

    def __init__(self):
        super().__init__()
        self.history: dict = {}
        self.epoch: list = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        if self.model is not None:
            self.model.history = self
