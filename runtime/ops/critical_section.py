"""tf.CriticalSection's lock and unlock ops. A section is a `Resource` (tinytf/critical_section.py) that a graph
captures like a queue; its kernels get the object, which provides:

    section._lock()      # blocks until this thread holds the section
    section._unlock()

Both are stateful, so a traced execute() keeps program order: the lock, then the stateful ops of the body (the
variable reads and writes the section serializes), then the unlock. The unlock takes the body's outputs as
inputs, so their values are computed while the section is held. Neither has a gradient: the body's outputs pass
through the unlock as identities, with their gradients (TF's execute is an identity of the body's outputs too)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..registry import OpDef, gradient, register


def _lock_kernel(section):
    section._lock()
    return np.int32(0)


critical_section_lock_op = register(OpDef(
    "critical_section_lock", _lock_kernel, lambda section: (dtypes.int32, ()), stateful=True, differentiable=False,
    foldable=False, doc="wait until this thread holds a CriticalSection (a token out, TF's MutexLock)"))


def _unlock_kernel(section, token, *values):
    section._unlock()
    return values[0] if len(values) == 1 else (None if not values else tuple(values))


def _infer_unlock(section, token, *values):
    specs = [(v.dtype, v._shape) for v in values]
    return specs[0] if len(specs) == 1 else specs


critical_section_unlock_op = register(OpDef(
    "critical_section_unlock", _unlock_kernel, _infer_unlock, stateful=True, foldable=False,
    doc="release a CriticalSection once the body's outputs (passed through unchanged) are computed"))


@gradient(critical_section_unlock_op)
def _unlock_grad(record, *grads):
    return (None, None, *grads)
