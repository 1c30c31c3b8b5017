"""tf.nn.experimental: dropout with an explicit seed pair (stateless_dropout, what Keras 3's Dropout layer
calls on TensorFlow) and with a caller's uniform sampler (general_dropout)."""

from __future__ import annotations

from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops.nn import dropout_apply, dropout_scaled, noise_shape_tensor
from tinytf.runtime.ops.stateless_random import stateless_uniform

__all__ = ["stateless_dropout", "general_dropout"]


def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    """tf.nn.dropout whose mask is `tf.random.stateless_uniform(noise_shape, seed) >= rate`: the same seed, the
    same mask, TensorFlow's own for the same seed and algorithm."""
    return general_dropout(x, rate, lambda shape, dtype: stateless_uniform(shape, seed, dtype=dtype,
                                                                           alg=rng_alg or "auto_select"),
                           noise_shape=noise_shape, op="tf.nn.experimental.stateless_dropout",
                           noise_like_x=noise_shape is None)


def general_dropout(x, rate, uniform_sampler, noise_shape=None, name=None, op="tf.nn.experimental.general_dropout",
                    noise_like_x=False):
    """Dropout drawing its uniform [0, 1) noise from `uniform_sampler(shape=..., dtype=...)`. `noise_like_x`:
    the sampler is known to return x's shape (stateless_dropout's without a noise_shape), so the mask and the
    scale are applied by one dropout_select (the bits of TF's where(keep, x * scale, zeros_like(x)), as
    tf.nn.dropout applies its own; a Keras Dropout layer's forward and gradient each saved a zeros array, a
    full-size product and np.where's passes)."""
    parts = dropout_scaled(x, rate, op)
    if parts is None:
        return convert_to_tensor(x)
    x, factor, rate = parts
    noise = uniform_sampler(shape=noise_shape_tensor(x, noise_shape), dtype=x.dtype)
    return dropout_apply(noise >= rate, x, factor, rate, noise_like_x)
