"""Callbacks: objects whose hooks fit/evaluate/predict call at the start and end of training, epochs and
batches; CallbackList fans the calls out. History, LambdaCallback and TerminateOnNaN live here too."""

from __future__ import annotations

import math

import numpy as np

from ..config_logging import print_msg


class Callback:
    """Base class: override the hooks you need; `self.model` and `self.params` are set by fit."""

    def __init__(self):
        self.model = None
        self.params: dict = {}

    def set_model(self, model) -> None:
        self.model = model

    def set_params(self, params: dict) -> None:
        self.params = params

    def on_train_begin(self, logs=None): ...
    def on_train_end(self, logs=None): ...
    def on_epoch_begin(self, epoch, logs=None): ...
    def on_epoch_end(self, epoch, logs=None): ...
    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs)  # Keras 3: the old name is the alias a subclass may override

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs)

    def on_test_begin(self, logs=None): ...
    def on_test_end(self, logs=None): ...
    def on_test_batch_begin(self, batch, logs=None): ...
    def on_test_batch_end(self, batch, logs=None): ...
    def on_predict_begin(self, logs=None): ...
    def on_predict_end(self, logs=None): ...
    def on_predict_batch_begin(self, batch, logs=None): ...
    def on_predict_batch_end(self, batch, logs=None): ...
    def on_batch_begin(self, batch, logs=None): ...
    def on_batch_end(self, batch, logs=None): ...


_HOOKS = ["on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end", "on_train_batch_begin",
          "on_train_batch_end", "on_test_begin", "on_test_end", "on_test_batch_begin", "on_test_batch_end",
          "on_predict_begin", "on_predict_end", "on_predict_batch_begin", "on_predict_batch_end"]

# a callback that overrides the old name of a train-batch hook takes part in the new one (Callback's defaults
# call it)
_ALIASES = {"on_train_batch_begin": "on_batch_begin", "on_train_batch_end": "on_batch_end"}


def _overrides(callback, name: str) -> bool:
    """Whether `callback` does anything in hook `name`: a method of its own class, or a function set on the
    instance (LambdaCallback), for the hook or its old alias."""
    for attribute in (name, _ALIASES.get(name)):
        if attribute is None:
            continue
        if attribute in getattr(callback, "__dict__", {}):
            return True
        if getattr(type(callback), attribute, None) is not getattr(Callback, attribute):
            return True
    return False


def pythonify_logs(logs) -> dict:
    """Logs as callbacks see them (Keras 3's `pythonify_logs`): sorted, nested dicts flattened, tensors and
    numpy values as Python floats where they convert."""
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(pythonify_logs(value))
            continue
        if hasattr(value, "numpy"):
            value = value.numpy()
        if isinstance(value, np.ndarray) and value.size == 1:
            value = value.reshape(())  # float() of a 1-element array, without numpy's deprecation warning
        try:
            value = float(value)
        except (TypeError, ValueError):
            pass
        result[key] = value
    return result


def flatten_callbacks(callbacks) -> list:
    """Keras 3 takes one callback or any nesting of lists of them (its tree.flatten): the flat list."""
    if callbacks is None:
        return []
    if isinstance(callbacks, (list, tuple)):
        return [leaf for item in callbacks for leaf in flatten_callbacks(item)]
    return [callbacks]


class CallbackList(Callback):
    """Calls each hook on every callback in order. Only the callbacks that override a hook are called for it,
    and the logs are turned into Python numbers only when one of them will read them: a fit with no batch
    callbacks converts no metric per step (Keras 3 converts for the callbacks it dispatches to as well)."""

    def __init__(self, callbacks=None, model=None, **params):
        super().__init__()
        self.callbacks = flatten_callbacks(callbacks)
        self._readers: dict = {}
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def append(self, callback) -> None:
        self.callbacks.append(callback)
        self._readers = {}

    def set_model(self, model) -> None:
        super().set_model(model)
        for callback in self.callbacks:
            callback.set_model(model)

    def set_params(self, params: dict) -> None:
        super().set_params(params)
        for callback in self.callbacks:
            callback.set_params(params)

    def readers(self, name: str) -> list:
        """The callbacks that do something in hook `name`."""
        readers = self._readers.get(name)
        if readers is None:
            readers = self._readers[name] = [c for c in self.callbacks if _overrides(c, name)]
        return readers

    def on_batch_begin(self, batch, logs=None):
        self.on_train_batch_begin(batch, logs)

    def on_batch_end(self, batch, logs=None):
        self.on_train_batch_end(batch, logs)


def _fan_out(name):
    indexed = "batch" in name or "epoch" in name  # hooks that take an epoch or batch index before the logs

    def hook(self, *args, **kwargs):
        # Keras passes every hook its logs (a dict, {} when there are none), so plain functions set on a
        # LambdaCallback can take (batch, logs) or (logs) as Keras documents
        readers = self._readers.get(name)  # (readers() inline: fit calls two hooks per step)
        if readers is None:
            readers = self.readers(name)
        if not readers:
            return
        args = list(args)
        logs = kwargs.pop("logs", args.pop() if len(args) > int(indexed) else None)
        logs = pythonify_logs(logs)  # {} when there are none, as Keras 3 passes
        for callback in readers:
            getattr(callback, name)(*args, logs)

    hook.__name__ = name
    return hook


for _name in _HOOKS:
    setattr(CallbackList, _name, _fan_out(_name))


class LambdaCallback(Callback):
    """A callback from plain functions (on_epoch_end=lambda epoch, logs: ...)."""

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_train_begin=None, on_train_end=None,
                 on_train_batch_begin=None, on_train_batch_end=None, **kwargs):
        super().__init__()
        given = {"on_epoch_begin": on_epoch_begin, "on_epoch_end": on_epoch_end, "on_train_begin": on_train_begin,
                 "on_train_end": on_train_end, "on_train_batch_begin": on_train_batch_begin,
                 "on_train_batch_end": on_train_batch_end, **kwargs}
        for name, fn in given.items():
            if fn is not None:
                setattr(self, name, fn)


class TerminateOnNaN(Callback):
    """Stops training as soon as a batch loss is NaN or infinite."""

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (math.isnan(loss) or math.isinf(loss)):
            print_msg(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True

    on_train_batch_end = on_batch_end
