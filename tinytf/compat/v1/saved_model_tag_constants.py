"""tf.compat.v1.saved_model.tag_constants: the standard MetaGraphDef tags (TF 2.21's values)."""

from ...saved_model.constants import GPU, SERVING, TPU, TRAINING

__all__ = ["SERVING", "TRAINING", "GPU", "TPU"]
