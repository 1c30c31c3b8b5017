"""keras.mixed_precision (Keras 3's legacy names): DTypePolicy/Policy, set_global_policy/global_policy (the
same as keras.config.set_dtype_policy/dtype_policy), and LossScaleOptimizer."""

from __future__ import annotations

from ..config import dtype_policy, set_dtype_policy
from ..dtype_policies.dtype_policy import DTypePolicy
from ..optimizers.loss_scale_optimizer import LossScaleOptimizer

Policy = DTypePolicy
global_policy = dtype_policy  # the same functions as keras.config's, as in Keras 3
set_global_policy = set_dtype_policy

__all__ = ["DTypePolicy", "LossScaleOptimizer", "Policy", "dtype_policy", "global_policy", "set_dtype_policy",
           "set_global_policy"]
