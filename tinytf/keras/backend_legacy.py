"""The Keras 2 backend functions tf.keras.backend keeps in TF 2.21 (keras.src.legacy.backend) that call TF's
convolution, pooling, resizing and padding ops directly: conv1d/2d/3d, conv2d_transpose, depthwise and separable
conv2d, pool2d/3d, resize_images/volumes, spatial_3d_padding, batch_dot, the focal crossentropies and the random
variables. Like Keras 2's, they follow TF's dtype rules and data formats ("channels_first" runs as TF's NCHW)."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from .config import epsilon, floatx, image_data_format


def _data_format(data_format):
    data_format = image_data_format() if data_format is None else data_format
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Unknown data_format: {data_format}")
    return data_format


def _padding(padding):
    if padding == "same":
        return "SAME"
    if padding == "valid":
        return "VALID"
    raise ValueError(f"Invalid padding: {padding}")


def _conv2d_input(x, data_format, force_transpose=False):
    if data_format == "channels_first":
        if force_transpose:
            return tf.transpose(x, (0, 2, 3, 1)), "NHWC"
        return x, "NCHW"
    return x, "NHWC"


def batch_dot(x, y, axes=None):
    """The dot product of x and y sample by sample (axis 0 is the batch), over `axes`."""
    x_shape, y_shape = x.shape, y.shape
    x_ndim, y_ndim = len(x_shape), len(y_shape)
    if x_ndim < 2 or y_ndim < 2:
        raise ValueError(f"Cannot do batch_dot on inputs with rank < 2. Received inputs with tf.shapes {x_shape} and "
                         f"{y_shape}.")
    if x_shape[0] is not None and y_shape[0] is not None and x_shape[0] != y_shape[0]:
        raise ValueError(f"Cannot do batch_dot on inputs with different batch sizes. Received inputs with tf.shapes "
                         f"{x_shape} and {y_shape}.")
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:
        axes = [x_ndim - 1, y_ndim - 1] if y_ndim == 2 else [x_ndim - 1, y_ndim - 2]
    if any(isinstance(a, (list, tuple)) for a in axes):
        raise ValueError(f"Multiple target dimensions are not supported. Expected: None, int, (int, int), "
                         f"Provided: {axes}")
    axes = list(axes)
    axes[0] += x_ndim if axes[0] < 0 else 0
    axes[1] += y_ndim if axes[1] < 0 else 0
    if 0 in axes:
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not batched, add a dummy batch "
                         "dimension to your inputs using K.expand_dims(x, 0)")
    a0, a1 = axes
    d1, d2 = x_shape[a0], y_shape[a1]
    if d1 is not None and d2 is not None and d1 != d2:
        raise ValueError(f"Cannot do batch_dot on inputs with tf.shapes {x_shape} and {y_shape} with axes={axes}. "
                         f"x.shape[{a0}] != y.shape[{a1}] ({d1} != {d2}).")
    orig_x_ndim, orig_y_ndim = x_ndim, y_ndim
    if x_ndim == 2:
        x, a0, x_ndim = tf.expand_dims(x, 1), a0 + 1, x_ndim + 1
    if y_ndim == 2:
        y, y_ndim = tf.expand_dims(y, 2), y_ndim + 1
    if a0 != x_ndim - 1:  # the contracted axis of x last
        pattern = list(range(x_ndim))
        for i in range(a0, x_ndim - 1):
            pattern[i] = pattern[i + 1]
        pattern[-1] = a0
        x = tf.transpose(x, pattern)
    if a1 != 1:  # the contracted axis of y second
        pattern = list(range(y_ndim))
        for i in range(a1, 1, -1):
            pattern[i] = pattern[i - 1]
        pattern[1] = a1
        y = tf.transpose(y, pattern)
    x_mid = y_trail = None
    if x_ndim > 3:
        shape = tf.shape(x)
        x_mid = shape[1:-1]
        x = tf.reshape(x, tf.stack([shape[0], -1, shape[-1]]))
    if y_ndim > 3:
        shape = tf.shape(y)
        y_trail = shape[2:]
        y = tf.reshape(y, tf.stack([shape[0], shape[1], -1]))
    result = tf.matmul(x, y)
    output_shape = tf.shape(result)
    if x_mid is not None:
        output_shape = tf.concat([output_shape[:1], x_mid, output_shape[-1:]], 0)
    if y_trail is not None:
        output_shape = tf.concat([output_shape[:-1], y_trail], 0)
    if x_mid is not None or y_trail is not None:
        result = tf.reshape(result, output_shape)
    if orig_x_ndim == 2:
        return tf.squeeze(result, 1)
    if orig_y_ndim == 2:
        return tf.squeeze(result, -1)
    return result


def binary_focal_crossentropy(target, output, apply_class_balancing=False, alpha=0.25, gamma=2.0,
                              from_logits=False):
    """Binary crossentropy scaled by (1 - p_t) ** gamma (and by alpha with class balancing), elementwise."""
    from .backend import binary_crossentropy

    sigmoidal = tf.sigmoid(output) if from_logits else output
    p_t = target * sigmoidal + (1 - target) * (1 - sigmoidal)
    focal = tf.pow(1.0 - p_t, gamma) * binary_crossentropy(target=target, output=output, from_logits=from_logits)
    if apply_class_balancing:
        focal = (target * alpha + (1 - target) * (1 - alpha)) * focal
    return focal


def categorical_focal_crossentropy(target, output, alpha=0.25, gamma=2.0, from_logits=False, axis=-1):
    """Categorical crossentropy with each class's term scaled by alpha * (1 - p) ** gamma."""
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    if not target.shape.is_compatible_with(output.shape):
        raise ValueError(f"Shapes {target.shape} and {output.shape} are incompatible")
    if from_logits:
        output = tf.nn.softmax(output, axis=axis)
    output = output / tf.reduce_sum(output, axis=axis, keepdims=True)
    eps = tf.convert_to_tensor(epsilon(), output.dtype)
    output = tf.clip_by_value(output, eps, 1.0 - eps)
    focal = tf.multiply(tf.multiply(tf.pow(1.0 - output, gamma), alpha), -target * tf.math.log(output))
    return tf.reduce_sum(focal, axis=axis)


def conv1d(x, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """1D convolution; padding "causal" pads the start of the sequence only."""
    from .backend import temporal_padding

    data_format = _data_format(data_format)
    if padding == "causal":
        x = temporal_padding(x, (dilation_rate * (kernel.shape.as_list()[0] - 1), 0))
        padding = "valid"
    return tf.compat.v1.nn.convolution(input=x, filter=kernel, dilation_rate=dilation_rate, strides=strides,
                                       padding=_padding(padding),
                                       data_format="NCW" if data_format == "channels_first" else "NWC")


def conv2d(x, kernel, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1)):
    data_format = _data_format(data_format)
    x, tf_format = _conv2d_input(x, data_format)
    return tf.compat.v1.nn.convolution(input=x, filter=kernel, dilation_rate=dilation_rate, strides=strides,
                                       padding=_padding(padding), data_format=tf_format)


def conv2d_transpose(x, kernel, output_shape, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """The transpose of conv2d (its gradient), to `output_shape`; a dilation rate runs as atrous_conv2d_transpose."""
    data_format = _data_format(data_format)
    force_transpose = data_format == "channels_first" and dilation_rate != (1, 1)
    x, tf_format = _conv2d_input(x, data_format, force_transpose)
    if data_format == "channels_first" and tf_format == "NHWC":
        output_shape = (output_shape[0], output_shape[2], output_shape[3], output_shape[1])
    if output_shape[0] is None:
        output_shape = (tf.shape(x)[0],) + tuple(output_shape[1:])
    if isinstance(output_shape, (tuple, list)):
        output_shape = tf.stack(list(output_shape))
    padding = _padding(padding)
    strides = (1,) + tuple(strides) + (1,) if tf_format == "NHWC" else (1, 1) + tuple(strides)
    if dilation_rate == (1, 1):
        x = tf.compat.v1.nn.conv2d_transpose(x, kernel, output_shape, strides, padding=padding, data_format=tf_format)
    else:
        if dilation_rate[0] != dilation_rate[1]:
            raise ValueError(f"Expected the 2 dimensions of the `dilation_rate` argument to be equal to each other. "
                             f"Received: dilation_rate={dilation_rate}")
        x = tf.nn.atrous_conv2d_transpose(x, kernel, output_shape, rate=dilation_rate[0], padding=padding)
    if data_format == "channels_first" and tf_format == "NHWC":
        x = tf.transpose(x, (0, 3, 1, 2))
    return x


def conv3d(x, kernel, strides=(1, 1, 1), padding="valid", data_format=None, dilation_rate=(1, 1, 1)):
    data_format = _data_format(data_format)
    return tf.compat.v1.nn.convolution(input=x, filter=kernel, dilation_rate=dilation_rate, strides=strides,
                                       padding=_padding(padding),
                                       data_format="NCDHW" if data_format == "channels_first" else "NDHWC")


def depthwise_conv2d(x, depthwise_kernel, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1)):
    data_format = _data_format(data_format)
    x, tf_format = _conv2d_input(x, data_format)
    strides = (1,) + tuple(strides) + (1,) if tf_format == "NHWC" else (1, 1) + tuple(strides)
    return tf.nn.depthwise_conv2d(x, depthwise_kernel, strides=strides, padding=_padding(padding),
                                  dilations=dilation_rate, data_format=tf_format)


def separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    data_format = _data_format(data_format)
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    x, tf_format = _conv2d_input(x, data_format)
    strides = (1,) + tuple(strides) + (1,) if tf_format == "NHWC" else (1, 1) + tuple(strides)
    return tf.nn.separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=strides, padding=_padding(padding),
                                  dilations=dilation_rate, data_format=tf_format)


def pool2d(x, pool_size, strides=(1, 1), padding="valid", data_format=None, pool_mode="max"):
    """Max or average pooling over 2D windows."""
    data_format = _data_format(data_format)
    if len(pool_size) != 2:
        raise ValueError("`pool_size` must be a tuple of 2 integers.")
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    x, tf_format = _conv2d_input(x, data_format)
    padding = _padding(padding)
    if tf_format == "NHWC":
        strides, pool_size = (1,) + tuple(strides) + (1,), (1,) + tuple(pool_size) + (1,)
    else:
        strides, pool_size = (1, 1) + tuple(strides), (1, 1) + tuple(pool_size)
    if pool_mode == "max":
        return tf.compat.v1.nn.max_pool(x, pool_size, strides, padding=padding, data_format=tf_format)
    if pool_mode == "avg":
        return tf.compat.v1.nn.avg_pool(x, pool_size, strides, padding=padding, data_format=tf_format)
    raise ValueError(f"Invalid pooling mode: {pool_mode}")


def pool3d(x, pool_size, strides=(1, 1, 1), padding="valid", data_format=None, pool_mode="max"):
    """Max or average pooling over 3D windows."""
    data_format = _data_format(data_format)
    tf_format = "NCDHW" if data_format == "channels_first" else "NDHWC"
    padding = _padding(padding)
    if tf_format == "NDHWC":
        strides, pool_size = (1,) + tuple(strides) + (1,), (1,) + tuple(pool_size) + (1,)
    else:
        strides, pool_size = (1, 1) + tuple(strides), (1, 1) + tuple(pool_size)
    if pool_mode == "max":
        return tf.nn.max_pool3d(x, pool_size, strides, padding=padding, data_format=tf_format)
    if pool_mode == "avg":
        return tf.nn.avg_pool3d(x, pool_size, strides, padding=padding, data_format=tf_format)
    raise ValueError(f"Invalid pooling mode: {pool_mode}")


_INTERPOLATIONS = {"area": "area", "bicubic": "bicubic", "bilinear": "bilinear", "gaussian": "gaussian",
                   "lanczos3": "lanczos3", "lanczos5": "lanczos5", "mitchellcubic": "mitchellcubic",
                   "nearest": "nearest"}


def resize_images(x, height_factor, width_factor, data_format, interpolation="nearest"):
    """x's rows and columns scaled by integer factors (tf.image.resize with `interpolation`)."""
    from .backend import permute_dimensions

    if data_format == "channels_first":
        rows, cols = 2, 3
    elif data_format == "channels_last":
        rows, cols = 1, 2
    else:
        raise ValueError(f"Invalid `data_format` argument: {data_format}")
    static = x.shape.as_list()[rows:cols + 1]
    new_shape = tf.constant(static, "int32") if None not in static else tf.shape(x)[rows:cols + 1]
    new_shape *= tf.constant(np.array([height_factor, width_factor], dtype="int32"))
    if interpolation not in _INTERPOLATIONS:
        listed = '"' + '", "'.join(_INTERPOLATIONS) + '"'
        raise ValueError(f'`interpolation` argument should be one of: {listed}. Received: "{interpolation}".')
    if data_format == "channels_first":
        x = permute_dimensions(x, [0, 2, 3, 1])
    x = tf.image.resize(x, new_shape, method=_INTERPOLATIONS[interpolation])
    return permute_dimensions(x, [0, 3, 1, 2]) if data_format == "channels_first" else x


def resize_volumes(x, depth_factor, height_factor, width_factor, data_format):
    """x's three spatial axes scaled by integer factors (each element repeated)."""
    from .backend import repeat_elements

    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Invalid data_format: {data_format}")
    first = 2 if data_format == "channels_first" else 1
    for axis, factor in zip(range(first, first + 3), (depth_factor, height_factor, width_factor)):
        x = repeat_elements(x, factor, axis=axis)
    return x


def spatial_3d_padding(x, padding=((1, 1), (1, 1), (1, 1)), data_format=None):
    """Zeros around the three spatial axes of a 5D tensor."""
    if len(padding) != 3 or any(len(p) != 2 for p in padding):
        raise ValueError(f"Expected `padding` to be a tuple of 3 tuples of 2 integers. Received: padding={padding}")
    data_format = _data_format(data_format)
    spatial = [[p[0], p[1]] for p in padding]
    pattern = [[0, 0], [0, 0]] + spatial if data_format == "channels_first" else [[0, 0]] + spatial + [[0, 0]]
    return tf.compat.v1.pad(x, pattern)


def random_normal_variable(shape, mean, scale, dtype=None, name=None, seed=None):
    """A variable of normal samples (tf.compat.v1.random_normal_initializer with `seed`)."""
    from .backend import variable

    dtype = floatx() if dtype is None else dtype
    seed = np.random.randint(10e8) if seed is None else seed
    value = tf.compat.v1.random_normal_initializer(mean, scale, dtype=tf.as_dtype(dtype), seed=seed)(shape)
    return variable(value, dtype=dtype, name=name)


def random_uniform_variable(shape, low, high, dtype=None, name=None, seed=None):
    """A variable of uniform samples in [low, high) (tf.compat.v1.random_uniform_initializer with `seed`)."""
    from .backend import variable

    dtype = floatx() if dtype is None else dtype
    seed = np.random.randint(10e8) if seed is None else seed
    value = tf.compat.v1.random_uniform_initializer(low, high, dtype=tf.as_dtype(dtype), seed=seed)(shape)
    return variable(value, dtype=dtype, name=name)


__all__ = ["batch_dot", "binary_focal_crossentropy", "categorical_focal_crossentropy", "conv1d", "conv2d",
           "conv2d_transpose", "conv3d", "depthwise_conv2d", "pool2d", "pool3d", "random_normal_variable",
           "random_uniform_variable", "resize_images", "resize_volumes", "separable_conv2d", "spatial_3d_padding"]
