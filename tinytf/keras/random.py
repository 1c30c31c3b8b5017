"""keras.random: Keras 3's seeded random functions on TensorFlow's stateless ops. A seed is an int (the pair
(seed, 0)), a SeedGenerator (its state, then advanced, so each draw differs and a program repeats), or None (the
global generator, seeded from Keras' default seed). Same seeds, same numbers as TF 2.21."""

from __future__ import annotations

import tinytf as _tf
from tinytf.scopes import init_scope

from .random_seeds import make_default_seed

_INT32_FOLD = 2**31 - 2  # Keras' _cast_seed folds int64 seeds into int32 range


class SeedGenerator:
    """A random seed's state, a variable (so a traced step draws fresh seeds on every call)."""

    def __init__(self, seed=None, name=None, **kwargs):
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
        self._initial_seed = seed
        seed = make_default_seed() if seed is None else seed
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed}")
        self.name = name or "seed_generator"
        with init_scope():
            self.state = _tf.Variable(_tf.constant([seed, 0], _tf.int64), trainable=False,
                                      name="seed_generator_state")

    def next(self, ordered=True):
        """The current state; the state moves on (by one in its second entry, as Keras counts)."""
        value = self.state.read_value()
        if ordered:
            self.state.assign_add(_tf.constant([0, 1], _tf.int64))
        else:
            self.state.assign((value + 1) * 5387 % 933199)
        return value

    def get_config(self) -> dict:
        return {"seed": self._initial_seed}


_global_generator = None


def global_seed_generator() -> SeedGenerator:
    global _global_generator
    if _global_generator is None:
        _global_generator = SeedGenerator()
    return _global_generator


def _seed_pair(seed):
    if isinstance(seed, SeedGenerator):
        pair = seed.next()
    elif isinstance(seed, int) and not isinstance(seed, bool):
        pair = _tf.constant([seed, 0], _tf.int64)
    elif seed is None:
        pair = global_seed_generator().next(ordered=False)
    else:
        raise ValueError(f"Argument `seed` must be either an integer or an instance of `SeedGenerator`. Received: "
                         f"seed={seed} (of type {type(seed)})")
    return _tf.cast(_tf.math.floormod(pair, _INT32_FOLD), _tf.int32)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return _tf.random.stateless_normal(shape, seed=_seed_pair(seed), mean=mean, stddev=stddev,
                                       dtype=dtype or "float32")


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return _tf.random.stateless_truncated_normal(shape, seed=_seed_pair(seed), mean=mean, stddev=stddev,
                                                 dtype=dtype or "float32")


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    dtype = _tf.as_dtype(dtype or "float32")
    return _tf.random.stateless_uniform(shape, seed=_seed_pair(seed), minval=_tf.cast(minval, dtype),
                                        maxval=_tf.cast(maxval, dtype), dtype=dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    dtype = _tf.as_dtype(dtype)
    drawn = dtype if dtype in (_tf.int32, _tf.int64) else _tf.int64
    return _tf.cast(_tf.random.stateless_uniform(shape, seed=_seed_pair(seed), minval=minval, maxval=maxval,
                                                 dtype=drawn), dtype)


def shuffle(x, axis=0, seed=None):
    """x with its entries along `axis` in a random order: Keras' argsort of one stateless uniform draw per entry."""
    x = _tf.convert_to_tensor(x)
    order = _tf.argsort(_tf.random.stateless_uniform([_tf.shape(x)[axis]], seed=_seed_pair(seed)))
    return _tf.gather(x, order, axis=axis)


def dropout(inputs, rate, noise_shape=None, seed=None):
    """Zero each entry with probability `rate` and scale the rest by 1 / (1 - rate): Keras 3 on TF, which is
    tf.nn.experimental.stateless_dropout with the seed's next pair (TF's masks for the same seeds)."""
    inputs = _tf.convert_to_tensor(inputs)
    if rate == 1.0:
        return _tf.zeros_like(inputs)
    if rate == 0.0:
        return inputs
    if noise_shape is not None:  # Keras fills the unknown entries with the inputs' own dimensions
        dynamic = _tf.shape(inputs)
        noise_shape = _tf.stack([dynamic[i] if d is None else d for i, d in enumerate(noise_shape)])
    return _tf.nn.experimental.stateless_dropout(inputs, rate, seed=_seed_pair(seed), noise_shape=noise_shape)


def _intermediate(dtype):
    """The dtype Keras draws in: bfloat16 draws in float32 (TF's gamma and binomial kernels have none)."""
    from .config import floatx

    dtype = _tf.as_dtype(dtype or floatx())
    return dtype, (_tf.float32 if dtype == _tf.bfloat16 else dtype)


def categorical(logits, num_samples, dtype="int32", seed=None):
    """`num_samples` class indices per row of the 2-D `logits` (tf.random.stateless_categorical)."""
    logits = _tf.convert_to_tensor(logits)
    if len(logits.shape) != 2:
        raise ValueError("`logits` should be a 2-D tensor with shape [batch_size, num_classes]. "
                         f"Received: logits={logits}")
    drawn = _tf.random.stateless_categorical(logits, num_samples, seed=_seed_pair(seed))
    return _tf.cast(drawn, dtype)


def gamma(shape, alpha, dtype=None, seed=None):
    """Gamma(alpha, 1) samples of `shape` (tf.random.stateless_gamma)."""
    dtype, drawn = _intermediate(dtype)
    return _tf.cast(_tf.random.stateless_gamma(shape, alpha=alpha, dtype=drawn, seed=_seed_pair(seed)), dtype)


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Binomial(counts, probabilities) samples of `shape`, as floats (tf.random.stateless_binomial)."""
    dtype, drawn = _intermediate(dtype)
    return _tf.cast(_tf.random.stateless_binomial(shape=shape, seed=_seed_pair(seed), counts=counts,
                                                  probs=probabilities, output_dtype=drawn), dtype)


def beta(shape, alpha, beta, dtype=None, seed=None):
    """Beta(alpha, beta) samples of `shape`: Ga / (Ga + Gb) from two gamma draws, the second seeded with the
    first seed plus 12, as Keras does."""
    dtype, drawn = _intermediate(dtype)
    seed_1 = _seed_pair(seed)
    seed_2 = seed_1 + 12
    alpha = _tf.broadcast_to(_tf.convert_to_tensor(alpha, dtype=drawn), shape)
    beta = _tf.broadcast_to(_tf.convert_to_tensor(beta, dtype=drawn), shape)
    gamma_a = _tf.cast(_tf.random.stateless_gamma(shape=shape, seed=seed_1, alpha=alpha, dtype=drawn), dtype)
    gamma_b = _tf.cast(_tf.random.stateless_gamma(shape=shape, seed=seed_2, alpha=beta, dtype=drawn), dtype)
    return gamma_a / (gamma_a + gamma_b)


__all__ = ["SeedGenerator", "beta", "binomial", "categorical", "dropout", "gamma", "normal", "randint", "shuffle",
           "truncated_normal", "uniform"]
