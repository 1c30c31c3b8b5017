"""keras.applications.DenseNet121/169/201 (Huang et al. 2016) as Keras 3 builds them: dense blocks whose
layers concatenate 32 new channels each, halving transitions; inputs in "torch" mode."""

from __future__ import annotations

import os

from .. import layers
from ..config import image_data_format
from . import builder, imagenet_utils

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/densenet/"
# blocks per stage -> (weights name, hash with top, hash without)
_WEIGHTS = {(6, 12, 24, 16): ("densenet121", "9d60b8095a5708f2dcce2bca79d332c7", "30ee3e1110167f948a6b9946edeeb738"),
            (6, 12, 32, 32): ("densenet169", "d699b8f76981ab1b30698df4c175e90b", "b8c4d4c20dd625c148057b9ff1c1176b"),
            (6, 12, 48, 32): ("densenet201", "1ceb130c1ea1b78c3bf6114dbdfd8807", "c13680b51ded0fb44dff2d8f86ac8bb1")}


def _bn_axis():
    return 3 if image_data_format() == "channels_last" else 1


def dense_block(x, blocks, name):
    """`blocks` conv blocks, each adding 32 channels."""
    for i in range(blocks):
        x = conv_block(x, 32, name=f"{name}_block{i + 1}")
    return x


def transition_block(x, reduction, name):
    """Batch norm, relu, a 1x1 convolution to `reduction` of the channels, 2x2 average pooling."""
    bn_axis = _bn_axis()
    x = layers.BatchNormalization(axis=bn_axis, epsilon=1.001e-5, name=f"{name}_bn")(x)
    x = layers.Activation("relu", name=f"{name}_relu")(x)
    x = layers.Conv2D(int(x.shape[bn_axis] * reduction), 1, use_bias=False, name=f"{name}_conv")(x)
    return layers.AveragePooling2D(2, strides=2, name=f"{name}_pool")(x)


def conv_block(x, growth_rate, name):
    """BN-relu-1x1 conv (4*growth) then BN-relu-3x3 conv (growth), concatenated to the input."""
    bn_axis = _bn_axis()
    x1 = layers.BatchNormalization(axis=bn_axis, epsilon=1.001e-5, name=f"{name}_0_bn")(x)
    x1 = layers.Activation("relu", name=f"{name}_0_relu")(x1)
    x1 = layers.Conv2D(4 * growth_rate, 1, use_bias=False, name=f"{name}_1_conv")(x1)
    x1 = layers.BatchNormalization(axis=bn_axis, epsilon=1.001e-5, name=f"{name}_1_bn")(x1)
    x1 = layers.Activation("relu", name=f"{name}_1_relu")(x1)
    x1 = layers.Conv2D(growth_rate, 3, padding="same", use_bias=False, name=f"{name}_2_conv")(x1)
    return layers.Concatenate(axis=bn_axis, name=f"{name}_concat")([x, x1])


def DenseNet(blocks, include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
             classes=1000, classifier_activation="softmax", name="densenet"):
    """A DenseNet with `blocks` conv blocks in each of its four dense blocks."""
    if image_data_format() == "channels_first":
        raise ValueError("DenseNet does not support the `channels_first` image data format. Switch to "
                         "`channels_last` by editing your local config file at ~/.keras/keras.json")
    if not (weights in {"imagenet", None} or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random initialization), `imagenet` "
                         "(pre-training on ImageNet), or the path to the weights file to be loaded.")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError('If using `weights` as `"imagenet"` with `include_top` as true, `classes` should be 1000')
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=224, min_size=32,
                                                    data_format=image_data_format(), require_flatten=include_top,
                                                    weights=weights)
    img_input = builder.image_input(input_tensor, input_shape)
    bn_axis = _bn_axis()
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)))(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=False, name="conv1_conv")(x)
    x = layers.BatchNormalization(axis=bn_axis, epsilon=1.001e-5, name="conv1_bn")(x)
    x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1")(x)
    for stage in range(3):
        x = dense_block(x, blocks[stage], name=f"conv{stage + 2}")
        x = transition_block(x, 0.5, name=f"pool{stage + 2}")
    x = dense_block(x, blocks[3], name="conv5")
    x = layers.BatchNormalization(axis=bn_axis, epsilon=1.001e-5, name="bn")(x)
    x = layers.Activation("relu", name="relu")(x)
    x = builder.classifier_or_pooled(x, include_top, classes, classifier_activation, weights, pooling, pool_names=True)
    model = builder.functional_model(input_tensor, img_input, x, name)
    if weights == "imagenet":
        if tuple(blocks) not in _WEIGHTS:
            raise ValueError("weights_path undefined")
        family, top_hash, notop_hash = _WEIGHTS[tuple(blocks)]
        file_name = f"{family}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
        return builder.load_weights(model, weights, file_name, BASE_WEIGHTS_PATH + file_name,
                                    top_hash if include_top else notop_hash)
    return builder.load_weights(model, weights)


def DenseNet121(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="densenet121"):
    """DenseNet121 (6, 12, 24, 16 conv blocks)."""
    return DenseNet([6, 12, 24, 16], include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name=name)


def DenseNet169(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="densenet169"):
    """DenseNet169 (6, 12, 32, 32 conv blocks)."""
    return DenseNet([6, 12, 32, 32], include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name=name)


def DenseNet201(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="densenet201"):
    """DenseNet201 (6, 12, 48, 32 conv blocks)."""
    return DenseNet([6, 12, 48, 32], include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name=name)


def preprocess_input(x, data_format=None):
    """DenseNet inputs: "torch" mode (0..1, then ImageNet's channel mean and std)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="torch")


def decode_predictions(preds, top=5):
    """The top ImageNet classes of each prediction row."""
    return imagenet_utils.decode_predictions(preds, top=top)
