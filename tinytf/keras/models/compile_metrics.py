"""The metrics given to `compile`: each made concrete on the first batch (when the shapes are known), and all
of them held by one metric named "compile_metrics", as Keras 3's `model.metrics` lists it after the loss
tracker. A custom train_step that loops over `self.metrics` updates them with `update_state(y, y_pred)`."""

from __future__ import annotations

import threading

from tinytf.runtime import nest

from .. import metrics as metrics_module

_build_lock = threading.Lock()


def _accuracy_for(y_true, y_pred):
    """Keras' reading of metrics=["accuracy"]: binary, sparse categorical or categorical, from the shapes."""
    true_rank, pred_rank = len(y_true.shape), len(y_pred.shape)
    true_last = y_true.shape[-1] if true_rank else None
    pred_last = y_pred.shape[-1] if pred_rank else None
    if pred_last == 1:
        return metrics_module.BinaryAccuracy
    if true_rank < pred_rank or (true_last == 1 and (pred_last or 0) > 1):
        return metrics_module.SparseCategoricalAccuracy
    return metrics_module.CategoricalAccuracy


class CompiledMetric:
    """A compile-time metric identifier, made concrete on the first batch (when the shapes are known)."""

    def __init__(self, identifier):
        self.identifier = identifier
        self.metric = None

    @property
    def name(self) -> str:
        if self.metric is not None:
            return self.metric.name
        if isinstance(self.identifier, str):
            return self.identifier
        return getattr(self.identifier, "name", getattr(self.identifier, "__name__", "metric"))

    def build(self, y_true, y_pred) -> None:
        if self.metric is not None:
            return
        # MirroredStrategy's replica threads reach the first batch together: one metric must be made, or the
        # replicas whose metric is replaced lose their first updates
        with _build_lock:
            if self.metric is not None:
                return
            if self.identifier in ("accuracy", "acc"):
                metric = _accuracy_for(y_true, y_pred)(name=self.identifier)
            else:
                metric = metrics_module.get(self.identifier)
                if isinstance(self.identifier, str):
                    metric.name = self.identifier  # Keras reports a metric given by name under that name
            self.metric = metric


class CompileMetrics(metrics_module.Metric):
    """compile's `metrics` and `weighted_metrics` as one metric: result() is a dict of their results."""

    def __init__(self, compiled: list, weighted: list):
        super().__init__(name="compile_metrics")
        self.compiled, self.weighted = compiled, weighted

    @property
    def built_metrics(self) -> list:
        """The concrete metrics (none before the first batch)."""
        return [m.metric for m in self.compiled + self.weighted if m.metric is not None]

    @property
    def variables(self) -> list:
        return [variable for metric in self.built_metrics for variable in metric.variables]

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        for entry, weighted in [(m, False) for m in self.compiled] + [(m, True) for m in self.weighted]:
            for t, p in zip(nest.flatten(y_true), nest.flatten(y_pred)):
                entry.build(t, p)
                entry.metric.update_state(t, p, sample_weight=sample_weight if weighted else None)

    def result(self) -> dict:
        return {metric.name: metric.result() for metric in self.built_metrics}

    def reset_state(self) -> None:
        for metric in self.built_metrics:
            metric.reset_state()
