"""tf.compat.v1.saved_model.builder: the SavedModelBuilder (saved_model_v1.Builder) under its TF1 module name."""

from .saved_model_v1 import Builder as SavedModelBuilder

__all__ = ["SavedModelBuilder"]
