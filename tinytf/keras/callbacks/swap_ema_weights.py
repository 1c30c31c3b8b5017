"""keras.callbacks.SwapEMAWeights: with an optimizer made with `use_ema=True`, evaluation (fit's validation,
evaluate, predict) runs on the moving averages of the weights: they are swapped into the model when testing
begins and swapped back when it ends; with swap_on_epoch=True the model also holds the averages between
epochs (so a ModelCheckpoint after it saves them). The swap is written as TF's Keras writes it, by additions
(a = a + b; b = a - b; a = a - b, no new variable), so the numbers round as TF's do."""

from __future__ import annotations

from ..optimizers import optimizer_ema
from .callback import Callback


class SwapEMAWeights(Callback):
    def __init__(self, swap_on_epoch=False):
        super().__init__()
        self.swap_on_epoch = swap_on_epoch
        self._ema_weights_in_model = False

    def _optimizers(self):
        optimizer = self.model.optimizer
        optimizer = getattr(optimizer, "inner_optimizer", optimizer)  # LossScaleOptimizer
        if hasattr(optimizer, "optimizers"):  # several optimizers: those with use_ema
            if not any(getattr(o, "use_ema", False) for o in optimizer.optimizers):
                raise ValueError("SwapEMAWeights must be used when at least one inner optimizer has `use_ema=True` "
                                 "set. Received a MultiOptimizer with all inner optimizers having `use_ema=False`.")
            return [o for o in optimizer.optimizers if getattr(o, "use_ema", False)]
        if not getattr(optimizer, "use_ema", False):
            raise ValueError("SwapEMAWeights must be used when `use_ema=True` is set on the optimizer. Received: "
                             f"use_ema={getattr(optimizer, 'use_ema', False)}")
        return [optimizer]

    def _swap_variables(self):
        for optimizer in self._optimizers():
            for variable, average in optimizer_ema.pairs(optimizer):
                variable.assign_add(average)
                average.assign(variable - average)
                variable.assign(variable - average)

    def _finalize_ema_values(self):
        # the averages take the (swapped-in) averages back, so fit's finalize_variable_values keeps them
        for optimizer in self._optimizers():
            for variable, average in optimizer_ema.pairs(optimizer):
                average.assign(variable)

    def on_epoch_begin(self, epoch, logs=None):
        if self.swap_on_epoch and self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = False

    def on_epoch_end(self, epoch, logs=None):
        if self.swap_on_epoch and not self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = True
            if epoch == self.params["epochs"] - 1:
                self._finalize_ema_values()

    def on_test_begin(self, logs=None):
        if not self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = True

    def on_test_end(self, logs=None):
        if self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = False

    def on_predict_begin(self, logs=None):
        if not self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = True

    def on_predict_end(self, logs=None):
        # Keras 3.15 tests `not self._ema_weights_in_model` here, which is False after on_predict_begin: the
        # averages stay in the model after predict, as TF 2.21 leaves them
        if not self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = False
