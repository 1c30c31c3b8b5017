"""keras.applications.vgg16: VGG16, its preprocess_input ("caffe" mode) and decode_predictions."""

from .vgg import VGG16, decode_predictions, preprocess_input

__all__ = ["VGG16", "decode_predictions", "preprocess_input"]
