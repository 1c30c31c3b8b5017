"""keras.ops.rearrange: einops' notation for reshapes and transposes ("b h w c -> b (h w) c"): the input's
grouped axes are split (their sizes from the tensor and the keyword lengths), the named axes permuted into the
output's order, and the output's groups merged, with one reshape, one transpose and one reshape."""

from __future__ import annotations

import math
import re

import tinytf as tf

from .core import convert_to_tensor, shape
from .symbolic import export_all

_TERM = re.compile(r"\w+|\([\w\s]*\)")


def _groups(side: str) -> list:
    """'b (h w) c' -> [['b'], ['h', 'w'], ['c']]."""
    terms = _TERM.findall(side)
    if " ".join(terms).replace(" ", "") != re.sub(r"\s", "", side):
        raise ValueError(f"rearrange: cannot parse {side!r} (only names and parenthesized groups are supported)")
    return [term[1:-1].split() if term.startswith("(") else [term] for term in terms]


def rearrange(tensor, pattern, **axes_lengths):
    """The tensor with its axes reordered, split and merged as `pattern` says (einops.rearrange)."""
    tensor = convert_to_tensor(tensor)
    if "->" not in pattern:
        raise ValueError(f"rearrange: the pattern needs '->'. Received: pattern={pattern!r}")
    left, right = (_groups(side) for side in re.split(r"\s*->\s*", pattern.strip()))
    if len(left) != len(tensor.shape):
        raise ValueError(f"rearrange: the pattern's input {pattern.split('->')[0].strip()!r} names {len(left)} "
                         f"axes, the tensor has {len(tensor.shape)} (shape {tuple(tensor.shape)})")
    names_in = [name for group in left for name in group]
    names_out = [name for group in right for name in group]
    if sorted(names_in) != sorted(names_out) or len(set(names_in)) != len(names_in):
        raise ValueError(f"rearrange: the two sides must name the same axes once each. Received: {pattern!r}")
    dims = shape(tensor)
    sizes = {}
    for group, dim in zip(left, dims):
        if len(group) == 1:
            sizes[group[0]] = dim
            continue
        unknown = [name for name in group if name not in axes_lengths]
        if len(unknown) > 1:
            raise ValueError(f"rearrange: cannot infer the sizes of {unknown} in ({' '.join(group)}); pass all but "
                             "one of them as keyword arguments")
        known = math.prod(axes_lengths[name] for name in group if name in axes_lengths)
        for name in group:
            sizes[name] = axes_lengths[name] if name in axes_lengths else dim // known
    split = [sizes[name] for name in names_in]
    if any(len(group) > 1 for group in left):
        tensor = tf.reshape(tensor, tf.stack(split) if any(tf.is_tensor(d) for d in split) else split)
    tensor = tf.transpose(tensor, [names_in.index(name) for name in names_out])
    merged = [math.prod(sizes[name] for name in group) if all(isinstance(sizes[n], int) for n in group) else
              tf.reduce_prod(tf.stack([sizes[n] for n in group])) for group in right]
    if any(len(group) != 1 for group in right):
        tensor = tf.reshape(tensor, tf.stack(merged) if any(tf.is_tensor(d) for d in merged) else merged)
    return tensor


__all__ = ["rearrange"]
export_all(globals(), __all__)
