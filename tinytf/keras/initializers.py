"""keras.initializers: the starting values of weights. Keras 3 semantics: an initializer is called with
(shape, dtype) and returns a tensor; a random initializer fixes its seed when it is made (from `seed`, or
else Keras' default seed from Python's `random`, which keras.utils.set_random_seed fixes) and therefore gives
the same values on every call, as Keras 3 documents."""

from __future__ import annotations

import math

import numpy as np

import tinytf as _tf
from tinytf.scopes import init_scope

from ..weight_fans import compute_fans
from . import serialization
from .random_seeds import make_default_seed


class Initializer:
    """Base class: `__call__(shape, dtype=None)` returns a tensor of that shape."""

    def __call__(self, shape, dtype=None):
        raise NotImplementedError(f"{type(self).__name__} must implement __call__(shape, dtype)")

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict):
        return cls(**config)


def _dtype(dtype):
    return _tf.as_dtype(dtype or "float32")


def _shape(shape) -> tuple:
    return tuple(int(d) for d in shape)


def _constant(array, dtype):
    with init_scope():
        return _tf.constant(np.asarray(array).astype(_dtype(dtype).as_numpy_dtype), _dtype(dtype))


class Zeros(Initializer):
    def __call__(self, shape, dtype=None):
        return _constant(np.zeros(_shape(shape)), dtype)


class Ones(Initializer):
    def __call__(self, shape, dtype=None):
        return _constant(np.ones(_shape(shape)), dtype)


class Constant(Initializer):
    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        return _constant(np.broadcast_to(np.asarray(self.value), _shape(shape)), dtype)

    def get_config(self) -> dict:
        return {"value": self.value}


class Identity(Initializer):
    """The identity matrix (2-D shapes only), times `gain`."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        shape = _shape(shape)
        if len(shape) != 2:
            raise ValueError(f"Identity matrix initializer can only be used for 2D matrices. Received: "
                             f"shape={shape} of rank {len(shape)}.")
        return _constant(self.gain * np.eye(*shape), dtype)

    def get_config(self) -> dict:
        return {"gain": self.gain} if self.gain != 1.0 else {}


class RandomInitializer(Initializer):
    """A random initializer: its seed is fixed when it is made, so each call gives the same values. Values are
    drawn as Keras 3 draws them on TensorFlow, with the stateless random ops and the seed pair (seed, 0), so an
    initializer given a seed gives TensorFlow's numbers."""

    def __init__(self, seed=None):
        self.seed = seed
        self._seed_used = seed if seed is not None else make_default_seed()

    def _seed_pair(self) -> list:
        # Keras' _cast_seed: the int64 seed is folded into int32 range
        return [self._seed_used % (2**31 - 2) if self._seed_used >= 2**31 - 2 else self._seed_used, 0]

    def _draw(self, kind: str, shape, dtype, **kwargs):
        with init_scope():
            draw = {"uniform": _tf.random.stateless_uniform, "normal": _tf.random.stateless_normal,
                    "truncated_normal": _tf.random.stateless_truncated_normal}[kind]
            return draw(list(_shape(shape)), seed=self._seed_pair(), dtype=_dtype(dtype), **kwargs)

    def get_config(self) -> dict:
        return {"seed": self.seed}


class RandomNormal(RandomInitializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None):
        return self._draw("normal", shape, dtype, mean=self.mean, stddev=self.stddev)

    def get_config(self) -> dict:
        return {"seed": self.seed, "mean": self.mean, "stddev": self.stddev}


class TruncatedNormal(RandomInitializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None):
        return self._draw("truncated_normal", shape, dtype, mean=self.mean, stddev=self.stddev)

    def get_config(self) -> dict:
        return {"seed": self.seed, "mean": self.mean, "stddev": self.stddev}


class RandomUniform(RandomInitializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape, dtype=None):
        return self._draw("uniform", shape, dtype, minval=self.minval, maxval=self.maxval)

    def get_config(self) -> dict:
        return {"seed": self.seed, "minval": self.minval, "maxval": self.maxval}


class VarianceScaling(RandomInitializer):
    """Samples with variance scale / fan (fan_in, fan_out or their average)."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None, input_axes=None,
                 output_axes=None):
        super().__init__(seed)
        self.input_axes, self.output_axes = input_axes, output_axes
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"Invalid `mode` argument: expected one of fan_in, fan_out, fan_avg. Received: {mode}")
        if distribution not in ("truncated_normal", "untruncated_normal", "uniform"):
            raise ValueError(f"Invalid `distribution` argument: {distribution}")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def __call__(self, shape, dtype=None):
        fan_in, fan_out = compute_fans(shape, self.input_axes, self.output_axes)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        variance = self.scale / max(1.0, fan)
        if self.distribution == "truncated_normal":
            # 0.879... is the stddev of a unit normal truncated to [-2, 2]
            return self._draw("truncated_normal", shape, dtype, stddev=math.sqrt(variance) / 0.87962566103423978)
        if self.distribution == "untruncated_normal":
            return self._draw("normal", shape, dtype, stddev=math.sqrt(variance))
        limit = math.sqrt(3.0 * variance)
        return self._draw("uniform", shape, dtype, minval=-limit, maxval=limit)

    def get_config(self) -> dict:
        return {"seed": self.seed, "scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "input_axes": self.input_axes, "output_axes": self.output_axes}


def _fixed_variance_scaling(name, scale, mode, distribution, doc):
    class Fixed(VarianceScaling):
        def __init__(self, seed=None, input_axes=None, output_axes=None):
            super().__init__(scale=scale, mode=mode, distribution=distribution, seed=seed, input_axes=input_axes,
                             output_axes=output_axes)

        def get_config(self) -> dict:
            return {"seed": self.seed, "input_axes": self.input_axes, "output_axes": self.output_axes}

    Fixed.__name__ = Fixed.__qualname__ = name
    Fixed.__doc__ = doc
    return Fixed


GlorotUniform = _fixed_variance_scaling("GlorotUniform", 1.0, "fan_avg", "uniform",
                                        "Uniform in ±sqrt(6 / (fan_in + fan_out)): Dense's default kernel.")
GlorotNormal = _fixed_variance_scaling("GlorotNormal", 1.0, "fan_avg", "truncated_normal",
                                       "Truncated normal with stddev sqrt(2 / (fan_in + fan_out)).")
HeNormal = _fixed_variance_scaling("HeNormal", 2.0, "fan_in", "truncated_normal",
                                   "Truncated normal with stddev sqrt(2 / fan_in).")
HeUniform = _fixed_variance_scaling("HeUniform", 2.0, "fan_in", "uniform", "Uniform in ±sqrt(6 / fan_in).")
LecunNormal = _fixed_variance_scaling("LecunNormal", 1.0, "fan_in", "truncated_normal",
                                      "Truncated normal with stddev sqrt(1 / fan_in).")
LecunUniform = _fixed_variance_scaling("LecunUniform", 1.0, "fan_in", "uniform", "Uniform in ±sqrt(3 / fan_in).")


class Orthogonal(RandomInitializer):
    """An orthogonal matrix (from the QR decomposition of a normal sample), the rows flattened to 2-D."""

    def __init__(self, gain=1.0, seed=None):
        super().__init__(seed)
        self.gain = gain

    def __call__(self, shape, dtype=None):
        shape = _shape(shape)
        if len(shape) < 2:
            raise ValueError(f"The tensor to initialize must be at least two-dimensional. Received: "
                             f"shape={shape} of rank {len(shape)}.")
        rows, cols = math.prod(shape[:-1]), shape[-1]
        flat = self._draw("normal", (max(rows, cols), min(rows, cols)), dtype).numpy().astype(np.float64)
        q, r = np.linalg.qr(flat)
        q = q * np.sign(np.diag(r))  # makes the decomposition unique, so the distribution is uniform
        if rows < cols:
            q = q.T
        return _constant(self.gain * q.reshape(shape), dtype)

    def get_config(self) -> dict:
        return {"seed": self.seed, "gain": self.gain}


_CLASSES = {c.__name__: c for c in [Zeros, Ones, Constant, Identity, RandomNormal, RandomUniform, TruncatedNormal,
                                    VarianceScaling, GlorotUniform, GlorotNormal, HeNormal, HeUniform, LecunNormal,
                                    LecunUniform, Orthogonal]}
_ALIASES = {"zeros": Zeros, "ones": Ones, "constant": Constant, "identity": Identity, "random_normal": RandomNormal,
            "random_uniform": RandomUniform, "truncated_normal": TruncatedNormal, "variance_scaling": VarianceScaling,
            "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal, "he_normal": HeNormal,
            "he_uniform": HeUniform, "lecun_normal": LecunNormal, "lecun_uniform": LecunUniform,
            "orthogonal": Orthogonal, "uniform": RandomUniform, "normal": RandomNormal}

# Keras' lower-case function-style names
zeros, ones, constant, identity = Zeros, Ones, Constant, Identity
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
glorot_uniform, glorot_normal, he_normal, he_uniform = GlorotUniform, GlorotNormal, HeNormal, HeUniform
lecun_normal, lecun_uniform, orthogonal, variance_scaling = LecunNormal, LecunUniform, Orthogonal, VarianceScaling
# Keras 3 keeps the Keras 2 names of these two as aliases ("for compatibility")
IdentityInitializer, OrthogonalInitializer = Identity, Orthogonal
_ALIASES.update({"IdentityInitializer": Identity, "OrthogonalInitializer": Orthogonal})


def get(identifier):
    """An initializer from a name ("glorot_uniform"), a Keras config dict, a class, an instance or a callable."""
    return serialization.get_object(identifier, "initializer", _CLASSES, _ALIASES, Initializer)


def serialize(initializer):
    return serialization.serialize(initializer, "keras.initializers")


def deserialize(config, custom_objects=None):
    return serialization.deserialize(config, _CLASSES, "initializer", custom_objects)


__all__ = list(_CLASSES) + ["Initializer", "RandomInitializer", "IdentityInitializer", "OrthogonalInitializer", "get",
                             "serialize", "deserialize"]

# keras.initializers.STFT (stft_initializer.py builds on Initializer above)
from .stft_initializer import STFT  # noqa: E402

STFTInitializer = stft = STFT
_CLASSES["STFT"] = STFT
_ALIASES.update({"stft": STFT, "STFTInitializer": STFT})
__all__ += ["STFT", "STFTInitializer", "stft"]
