"""tf.compat.v1.layers (TF1's tf.layers): layers that keep their weights as get_variables of their own
variable scope, named as TF1 checkpoints name them, in classes and one-call functions."""

from ....keras.layers import InputSpec  # noqa: E402,F401 - TF1's tf.layers.InputSpec is Keras' class
from ..legacy_layer import Layer  # noqa: F401
from .convolutional import *  # noqa: F401,F403
from .convolutional import (  # noqa: F401
    AveragePooling1D,
    AveragePooling2D,
    AveragePooling3D,
    AvgPool1D,
    AvgPool2D,
    AvgPool3D,
    Conv1D,
    Conv2D,
    Conv2DTranspose,
    Conv3D,
    Convolution1D,
    Convolution2D,
    Convolution2DTranspose,
    Convolution3D,
    MaxPool1D,
    MaxPool2D,
    MaxPool3D,
    MaxPooling1D,
    MaxPooling2D,
    MaxPooling3D,
)
from .core import Dense, Dropout, Flatten, dense, dropout, flatten  # noqa: F401
from .normalization import BatchNorm, BatchNormalization, batch_normalization  # noqa: F401

# separable convolutions and Conv3DTranspose (helper tf1more)
from .separable import (  # noqa: E402,F401
    Conv3DTranspose,
    Convolution3DTranspose,
    SeparableConv1D,
    SeparableConv2D,
    SeparableConvolution1D,
    SeparableConvolution2D,
    conv3d_transpose,
    separable_conv1d,
    separable_conv2d,
)
