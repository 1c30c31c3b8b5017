"""keras.applications.vgg19: VGG19, its preprocess_input ("caffe" mode) and decode_predictions."""

from .vgg import VGG19, decode_predictions, preprocess_input

__all__ = ["VGG19", "decode_predictions", "preprocess_input"]
