"""keras.applications.imagenet_utils: the input preprocessing modes of the ImageNet models ("caffe", "tf",
"torch"), decode_predictions, and the helpers every builder shares to check its input shape (Keras 3's)."""

from __future__ import annotations

import json
import warnings

import numpy as np

from .. import activations
from .. import ops as _ops
from ..config import floatx, image_data_format
from ..utils.file_utils import get_file

CLASS_INDEX = None
CLASS_INDEX_PATH = "https://storage.googleapis.com/download.tensorflow.org/data/imagenet_class_index.json"
_CAFFE_MEAN = [103.939, 116.779, 123.68]
_TORCH_MEAN, _TORCH_STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]


def preprocess_input(x, data_format=None, mode="caffe"):
    """Scale a batch of images (values 0..255) as the ImageNet models were trained: "caffe" (RGB->BGR, minus
    the ImageNet channel means), "tf" (to -1..1), "torch" (to 0..1, then per-channel mean and std). A numpy
    float array is changed in place, as Keras does."""
    if mode not in {"caffe", "tf", "torch"}:
        raise ValueError(f"Expected mode to be one of `caffe`, `tf` or `torch`. Received: mode={mode}")
    if data_format is None:
        data_format = image_data_format()
    elif data_format not in {"channels_first", "channels_last"}:
        raise ValueError("Expected data_format to be one of `channels_first` or "
                         f"`channels_last`. Received: data_format={data_format}")
    if isinstance(x, np.ndarray):
        return _preprocess_numpy_input(x, data_format, mode)
    return _preprocess_tensor_input(x, data_format, mode)


def _preprocess_numpy_input(x, data_format, mode):
    if not issubclass(x.dtype.type, np.floating):
        x = x.astype(floatx(), copy=False)
    if mode == "tf":
        x /= 127.5
        x -= 1.0
        return x
    if mode == "torch":
        x /= 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        channels_axis = 0 if len(x.shape) == 3 else 1
        x = np.flip(x, channels_axis) if data_format == "channels_first" else x[..., ::-1]
        mean, std = _CAFFE_MEAN, None
    for channel in range(3):
        index = _channel_index(x.ndim, data_format, channel)
        x[index] -= mean[channel]
        if std is not None:
            x[index] /= std[channel]
    return x


def _channel_index(ndim, data_format, channel):
    if data_format == "channels_first":
        return (channel,) if ndim == 3 else (slice(None), channel)
    return (Ellipsis, channel)


def _preprocess_tensor_input(x, data_format, mode):
    ndim = len(x.shape)
    if mode == "tf":
        x /= 127.5
        x -= 1.0
        return x
    if mode == "torch":
        x /= 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        if data_format == "channels_first":
            if ndim == 3:
                x = _ops.stack([x[i, ...] for i in (2, 1, 0)], axis=0)
            else:
                x = _ops.stack([x[:, i, :] for i in (2, 1, 0)], axis=1)
        else:
            x = _ops.stack([x[..., i] for i in (2, 1, 0)], axis=-1)
        mean, std = _CAFFE_MEAN, None
    mean_tensor = _ops.convert_to_tensor(-np.array(mean), dtype=x.dtype)
    if data_format == "channels_first":
        mean_shape = (3, 1, 1) if ndim == 3 else (1, 3) + (1,) * (ndim - 2)
    else:
        mean_shape = (1,) * (ndim - 1) + (3,)
    x += _ops.reshape(mean_tensor, mean_shape)
    if std is not None:
        std_tensor = _ops.convert_to_tensor(np.array(std), dtype=x.dtype)
        if data_format == "channels_first":
            std_tensor = _ops.reshape(std_tensor, (-1, 1, 1))
        x = _ops.divide(x, std_tensor)
    return x


def decode_predictions(preds, top=5):
    """The `top` (class id, class name, score) tuples of each row of a (samples, 1000) ImageNet prediction,
    best first; the class index comes from Keras' imagenet_class_index.json (cached under ~/.keras/models)."""
    global CLASS_INDEX
    if len(preds.shape) != 2 or preds.shape[1] != 1000:
        raise ValueError("`decode_predictions` expects a batch of predictions (i.e. a 2D array of shape "
                         f"(samples, 1000)). Received array with shape: {preds.shape}")
    if CLASS_INDEX is None:
        fpath = get_file("imagenet_class_index.json", CLASS_INDEX_PATH, cache_subdir="models",
                         file_hash="c2c37ea517e94d9795004a39431a14cb")
        with open(fpath) as f:
            CLASS_INDEX = json.load(f)
    results = []
    for pred in np.asarray(preds):
        top_indices = pred.argsort()[-top:][::-1]
        result = [tuple(CLASS_INDEX[str(i)]) + (pred[i],) for i in top_indices]
        result.sort(key=lambda entry: entry[2], reverse=True)
        results.append(result)
    return results


def obtain_input_shape(input_shape, default_size, min_size, data_format, require_flatten, weights=None):
    """The model's input shape: the user's, checked (3 dims, at least min_size, 3 channels for imagenet
    weights, exactly the default with include_top and imagenet weights), or the default one."""
    channels_first = data_format == "channels_first"
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        channels = input_shape[0] if channels_first else input_shape[-1]
        if channels not in {1, 3}:
            warnings.warn("This model usually expects 1 or 3 input channels. However, it was passed an "
                          f"input_shape with {channels} input channels.", stacklevel=3)
        default_shape = ((channels, default_size, default_size) if channels_first
                         else (default_size, default_size, channels))
    else:
        default_shape = (3, default_size, default_size) if channels_first else (default_size, default_size, 3)
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and input_shape != default_shape:
            raise ValueError("When setting `include_top=True` and loading `imagenet` weights, `input_shape` "
                             f"should be {default_shape}.  Received: input_shape={input_shape}")
        return default_shape
    if input_shape:
        if len(input_shape) != 3:
            raise ValueError("`input_shape` must be a tuple of three integers.")
        channels, rows, cols = ((input_shape[0], input_shape[1], input_shape[2]) if channels_first
                                else (input_shape[-1], input_shape[0], input_shape[1]))
        if channels != 3 and weights == "imagenet":
            raise ValueError(f"The input must have 3 channels; Received `input_shape={input_shape}`")
        if (rows is not None and rows < min_size) or (cols is not None and cols < min_size):
            raise ValueError(f"Input size must be at least {min_size}x{min_size}; Received: "
                             f"input_shape={input_shape}")
    elif require_flatten:
        input_shape = default_shape
    else:
        input_shape = (3, None, None) if channels_first else (None, None, 3)
    if require_flatten and None in input_shape:
        raise ValueError("If `include_top` is True, you should specify a static `input_shape`. "
                         f"Received: input_shape={input_shape}")
    return input_shape


def correct_pad(inputs, kernel_size):
    """The ((top, bottom), (left, right)) zero padding before a strided 'valid' convolution that makes it
    match TF's 'same' placement on even sizes (Keras' helper)."""
    img_dim = 2 if image_data_format() == "channels_first" else 1
    input_size = inputs.shape[img_dim:img_dim + 2]
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    adjust = (1, 1) if input_size[0] is None else (1 - input_size[0] % 2, 1 - input_size[1] % 2)
    correct = (kernel_size[0] // 2, kernel_size[1] // 2)
    return ((correct[0] - adjust[0], correct[0]), (correct[1] - adjust[1], correct[1]))


def validate_activation(classifier_activation, weights):
    """With pretrained weights the top layer's activation must be None or softmax."""
    if weights is None:
        return
    classifier_activation = activations.get(classifier_activation)
    if classifier_activation not in {activations.get("softmax"), activations.get(None)}:
        raise ValueError("Only `None` and `softmax` activations are allowed for the `classifier_activation` "
                         "argument when using pretrained weights, with `include_top=True`; Received: "
                         f"classifier_activation={classifier_activation}")
