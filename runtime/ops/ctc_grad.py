"""The gradient rule of the CTC loss op (ops/ctc.py): TF's rule for CTCLoss."""

from __future__ import annotations

from ..registry import gradient
from .array import reshape
from .ctc import ctc_loss_op


@gradient(ctc_loss_op)
def _ctc_loss_grad(record, g_loss, g_grad=None):
    # TF's rule: the stored gradient scaled by the loss's incoming gradient, per batch entry; the gradient output
    # itself is not differentiated (TF prevents second derivatives of its fused op)
    return reshape(g_loss, [1, -1, 1]) * record.outputs[1], None, None, None
