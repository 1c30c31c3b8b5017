"""Threads or processes for MirroredStrategy's replicas: the tinytf-specific setting (TF's MirroredStrategy
places replicas on devices and has no such argument) and, for "auto", the measurement that picks one per model.
Both run the same steps to the same numbers (docs/distributed.md, "Threads or processes")."""

from __future__ import annotations

import os

import numpy as np

BACKENDS = ("auto", "threads", "processes")


def backend_from_environment() -> str:
    """TINYTF_MIRRORED_REPLICAS=auto|threads|processes (tinytf-specific; TF's MirroredStrategy has no such
    argument): how replicas run. The default, auto, measures both on each model's first steps."""
    backend = os.environ.get("TINYTF_MIRRORED_REPLICAS", "auto").strip().lower() or "auto"
    if backend not in BACKENDS:
        raise ValueError(f"TINYTF_MIRRORED_REPLICAS must be one of {BACKENDS}, got {backend!r}")
    return backend


class Calibration:
    """replica_backend "auto": the first training steps of a model (or of a strategy.run step function) run
    as threads, then as processes, and the faster (median wall time per step) runs the rest. Both give the same
    numbers, so measuring costs only the slower backend's few steps. The first steps of each are not timed
    (tracing; the fork)."""

    WARMUP, TIMED = 2, 3

    def __init__(self):
        self.times = {"threads": [], "processes": []}
        self.seen = {"threads": 0, "processes": 0}
        self.choice = None

    @property
    def decided(self) -> bool:
        return self.choice is not None

    def next_backend(self, calibrates: bool) -> str:
        if self.choice is not None:
            return self.choice
        if not calibrates:  # evaluate / predict before training decided: threads (no fork for a few batches)
            return "threads"
        for backend in ("threads", "processes"):
            if len(self.times[backend]) < self.TIMED:
                return backend
        return "threads"  # pragma: no cover - decided in record

    def record(self, backend: str, seconds: float) -> None:
        if self.choice is not None:
            return
        self.seen[backend] += 1
        if self.seen[backend] > self.WARMUP:
            self.times[backend].append(seconds)
        if all(len(t) >= self.TIMED for t in self.times.values()):
            medians = {b: float(np.median(t)) for b, t in self.times.items()}
            self.choice = min(medians, key=medians.get)
            self.medians = medians
