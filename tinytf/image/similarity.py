"""tf.image.ssim and ssim_multiscale with TF's definitions, written with registered ops (so they run in graphs
and have gradients): an 11x11 Gaussian window (TF's _fspecial_gauss: a softmax of -(x^2 + y^2) / (2 sigma^2))
applied as a VALID depthwise convolution, here as its two 1-D factors (the softmax of a sum is the outer
product of the softmaxes; an 11-tap pass each way costs a fifth of the 121-tap window); luminance
(2 mu_x mu_y + C1) / (mu_x^2 + mu_y^2 + C1) times contrast-structure (2 cov_xy + C2) / (var_x + var_y + C2)
with C = (K max_val)^2; averaged over the window positions and the channels. MS-SSIM repeats it on 2x2
average-pooled images (symmetric padding to even sizes) and takes the weighted geometric mean of the
contrast-structures of the finer scales and the SSIM of the coarsest."""

from __future__ import annotations

import tinytf as _tf

from .color import convert_image_dtype

MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def _compatible(img1, img2):
    """TF's _verify_compatible_image_shapes: rank >= 3, the same last three dimensions, broadcastable batch."""
    shape1, shape2 = img1.shape, img2.shape
    for shape in (shape1, shape2):
        if shape.rank is not None and shape.rank < 3:
            raise ValueError(f"Shape must be at least rank 3 but is rank {shape.rank}")
    if shape1.rank is not None and shape2.rank is not None:
        if not shape1[-3:].is_compatible_with(shape2[-3:]):
            raise ValueError(f"Shapes {shape1[-3:]} and {shape2[-3:]} are incompatible")
        for d1, d2 in zip(reversed(shape1[:-3].as_list()), reversed(shape2[:-3].as_list())):
            if not (d1 == 1 or d2 == 1 or d1 is None or d2 is None or d1 == d2):
                raise ValueError(f"Two images are not compatible: {shape1} and {shape2}")
    dynamic1, dynamic2 = _tf.shape(img1), _tf.shape(img2)
    _tf.debugging.Assert(_tf.reduce_all(_tf.equal(dynamic1[-3:], dynamic2[-3:])), [dynamic1, dynamic2], summarize=10)


def _gaussian_taps(size, sigma, dtype):
    """One factor of TF's _fspecial_gauss window: softmax(-x^2 / (2 sigma^2)) over x centred on the window."""
    coords = _tf.cast(_tf.range(size), dtype) - _tf.cast(size - 1, dtype) / 2.0
    return _tf.nn.softmax(_tf.square(coords) * (-0.5 / _tf.square(_tf.cast(sigma, dtype))))


def _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2, return_index_map=False):
    """(SSIM, contrast-structure) per channel: averaged over the window positions unless return_index_map."""
    shape1, shape2 = _tf.shape(img1), _tf.shape(img2)
    for shape in (shape1, shape2):
        _tf.debugging.Assert(_tf.reduce_all(_tf.greater_equal(shape[-3:-1], filter_size)), [shape, filter_size],
                             summarize=8)
    taps = _tf.tile(_tf.reshape(_gaussian_taps(filter_size, filter_sigma, img1.dtype), [-1, 1, 1, 1]),
                    [1, 1, shape1[-1], 1])
    down, across = taps, _tf.reshape(taps, [1, filter_size, -1, 1])

    def reducer(x):
        shape = _tf.shape(x)
        flat = _tf.reshape(x, _tf.concat([[-1], shape[-3:]], 0))
        y = _tf.nn.depthwise_conv2d(flat, down, strides=[1, 1, 1, 1], padding="VALID")
        y = _tf.nn.depthwise_conv2d(y, across, strides=[1, 1, 1, 1], padding="VALID")
        return _tf.reshape(y, _tf.concat([shape[:-3], _tf.shape(y)[1:]], 0))

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mean1, mean2 = reducer(img1), reducer(img2)
    num0 = mean1 * mean2 * 2.0
    den0 = _tf.square(mean1) + _tf.square(mean2)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = reducer(img1 * img2) * 2.0
    den1 = reducer(_tf.square(img1) + _tf.square(img2))
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)  # TF's compensation factor is 1.0, as MATLAB's MS-SSIM
    if return_index_map:
        return luminance * cs, cs
    return _tf.reduce_mean(luminance * cs, [-3, -2]), _tf.reduce_mean(cs, [-3, -2])


def _as_float(img1, img2, max_val):
    img1, img2 = _tf.convert_to_tensor(img1), _tf.convert_to_tensor(img2)
    _compatible(img1, img2)
    max_val = convert_image_dtype(_tf.cast(max_val, img1.dtype), _tf.float32)
    return convert_image_dtype(img1, _tf.float32), convert_image_dtype(img2, _tf.float32), max_val


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, return_index_map=False):
    """`tf.image.ssim`: the structural similarity of each image pair ([..., height, width, channels] images,
    integer ones scaled to [0, 1] with max_val), averaged over the channels."""
    img1, img2, max_val = _as_float(img1, img2, max_val)
    per_channel, _ = _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2, return_index_map)
    return _tf.reduce_mean(per_channel, [-1])


def _halve(images, tails):
    """2x2 average pooling of [N, h, w, c] images, symmetric-padded by one row/column where h or w is odd."""
    remainder = tails % _tf.constant([2, 2, 1])
    padding = _tf.pad(_tf.expand_dims(remainder, -1), [[1, 0], [1, 0]])

    def padded():
        return [_tf.pad(x, padding, mode="SYMMETRIC") for x in images]

    odd = _tf.reduce_any(_tf.not_equal(remainder, 0))
    static = _tf.get_static_value(odd)
    if static is not None:
        images = padded() if static else images
    else:
        images = _tf.cond(odd, padded, lambda: list(images))
    return [_tf.nn.avg_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID") for x in images]


def ssim_multiscale(img1, img2, max_val, power_factors=MSSSIM_WEIGHTS, filter_size=11, filter_sigma=1.5, k1=0.01,
                    k2=0.03):
    """`tf.image.ssim_multiscale`: MS-SSIM over len(power_factors) scales, each half the size of the last."""
    img1, img2, max_val = _as_float(img1, img2, max_val)
    images = [img1, img2]
    heads = [_tf.shape(x)[:-3] for x in images]
    tails = [_tf.shape(x)[-3:] for x in images]
    contrasts = []
    for scale in range(len(power_factors)):
        if scale > 0:
            flat = [_tf.reshape(x, _tf.concat([[-1], t], 0)) for x, t in zip(images, tails)]
            down = _halve(flat, tails[0])
            tails = [_tf.shape(x)[1:] for x in down]
            images = [_tf.reshape(x, _tf.concat([h, t], 0)) for x, h, t in zip(down, heads, tails)]
        per_channel, cs = _ssim_per_channel(*images, max_val, filter_size, filter_sigma, k1, k2)
        contrasts.append(_tf.nn.relu(cs))
    stacked = _tf.stack(contrasts[:-1] + [_tf.nn.relu(per_channel)], axis=-1)
    ms_ssim = _tf.reduce_prod(_tf.pow(stacked, _tf.constant(power_factors, stacked.dtype)), [-1])
    return _tf.reduce_mean(ms_ssim, [-1])
