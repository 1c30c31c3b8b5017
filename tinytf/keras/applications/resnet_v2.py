"""keras.applications.resnet_v2: the pre-activation ResNets, whose inputs are scaled to -1..1 ("tf" mode)."""

from . import imagenet_utils
from .resnet import ResNet50V2, ResNet101V2, ResNet152V2, decode_predictions


def preprocess_input(x, data_format=None):
    """ResNetV2 inputs: "tf" mode (pixels scaled to -1..1)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


__all__ = ["ResNet101V2", "ResNet152V2", "ResNet50V2", "decode_predictions", "preprocess_input"]
