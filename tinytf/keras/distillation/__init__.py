"""keras.distillation (Keras 3.12+, in TF 2.21's tf.keras): Distiller and its distillation losses."""

from .distillation_loss import DistillationLoss, FeatureDistillation, LogitsDistillation
from .distiller import Distiller

__all__ = ["DistillationLoss", "Distiller", "FeatureDistillation", "LogitsDistillation"]
