"""tf.conv: TF's generic N-D convolution op (`Conv`), written with tinytf's conv2d / conv3d, so it runs eagerly
and in graphs alike. As TF's CPU kernel, it takes 2 or 3 spatial dimensions, channels last, no groups;
`batch_dims` leading dimensions are the batch. (TF 2.21 registers no gradient for Conv, where tinytf's composed
ops have one; its tf.conv2d_backprop_filter_v2 / input_v2 have no CPU kernel at all, so tinytf leaves them out.)"""

from __future__ import annotations

from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.errors import InvalidArgumentError, UnimplementedError
from tinytf.runtime.ops.array import concat, pad, reshape, shape
from tinytf.runtime.ops.conv import conv2d
from tinytf.runtime.ops.conv3d import conv3d


def _explicit_pairs(explicit_paddings, rank, what):
    values = [int(v) for v in explicit_paddings]
    if len(values) != 2 * rank:
        raise InvalidArgumentError(f"{what}: explicit_paddings must hold {2 * rank} values (a pair per dimension), "
                                   f"got {len(values)}")
    return [values[i:i + 2] for i in range(0, len(values), 2)]


def conv(input, filter, strides, padding, explicit_paddings=(), data_format="CHANNELS_LAST",  # noqa: A002
         dilations=(), batch_dims=1, groups=1, name=None):
    """Convolve `input` (batch_dims batch dimensions, 2 or 3 spatial ones, channels last) with `filter` (spatial
    dims, in channels, out channels); strides and dilations list one batch dimension, the spatial ones and the
    channels; padding is 'SAME', 'VALID' or 'EXPLICIT' (then explicit_paddings gives a (before, after) pair for
    each of those dimensions)."""
    x, w = convert_to_tensor(input), convert_to_tensor(filter)
    if data_format != "CHANNELS_LAST":
        raise UnimplementedError(f"The Conv2D op currently only supports the NHWC tensor format on the CPU. The op "
                                 f"was given the format: {'NCHW' if data_format == 'CHANNELS_FIRST' else data_format}")
    if groups != 1:
        raise UnimplementedError("Grouped/Depthwise Convolutions are not supported yet.")
    if x._shape is None or w._shape is None:
        raise ValueError("tf.conv needs inputs of known rank")
    spatial = len(w._shape) - 2
    rank = batch_dims + spatial + 1
    if spatial not in (2, 3):
        raise InvalidArgumentError(f"The input must have 2 or 3 spatial dimensions but got {spatial}")
    if len(x._shape) != rank:
        raise InvalidArgumentError(f"input must be {rank}-dimensional (batch_dims={batch_dims}, {spatial} spatial "
                                   f"dimensions, channels): {list(x._shape)}")
    strides = [int(s) for s in strides]
    dilations = [int(d) for d in dilations] or [1] * (spatial + 2)
    # strides, dilations and explicit paddings list the dimensions of one batch dimension, spatial ones, channels
    for what, values in (("Sliding window strides", strides), ("Sliding window dilations", dilations)):
        if len(values) != spatial + 2:
            raise InvalidArgumentError(f"{what} field must specify {spatial + 2} dimensions")
    if strides[0] != 1 or strides[-1] != 1:
        raise UnimplementedError("Strides in the batch and depth dimensions are not supported")
    batch_shape = shape(x)[:batch_dims]
    if batch_dims != 1:
        x = reshape(x, [-1] + list(x._shape[batch_dims:]))
    if padding == "EXPLICIT":
        x = pad(x, _explicit_pairs(explicit_paddings, spatial + 2, "tf.conv"))
        padding = "VALID"
    elif explicit_paddings:
        raise InvalidArgumentError("explicit_paddings are only for padding='EXPLICIT'")
    op = conv2d if spatial == 2 else conv3d
    y = op(x, w, [1] + strides[1:-1] + [1], padding, dilations=[1] + dilations[1:-1] + [1], name=name)
    if batch_dims != 1:
        y = reshape(y, concat([batch_shape, shape(y)[1:]], 0))
    return y
