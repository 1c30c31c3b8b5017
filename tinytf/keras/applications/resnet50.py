"""keras.applications.resnet50: ResNet50, its preprocess_input ("caffe" mode) and decode_predictions."""

from .resnet import ResNet50, decode_predictions, preprocess_input

__all__ = ["ResNet50", "decode_predictions", "preprocess_input"]
