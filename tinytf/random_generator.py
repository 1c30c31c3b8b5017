"""tf.random.Generator: a random number generator whose state is a tf.Variable (int64[3] for Philox: the
128-bit counter, then the 64-bit key), so it can be checkpointed, read inside tf.function and split into
independent streams. Every draw gives TF 2.21's numbers for the same state and moves the counter as TF does
(runtime/ops/generator_random.py). Only the Philox algorithm is built ("auto_select" is Philox on a CPU, as
in TF); ThreeFry is refused with NotImplementedError."""

from __future__ import annotations

import enum
import secrets
import threading

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.context import executing_eagerly
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.ops.array import concat, stack, zeros_like
from tinytf.runtime.ops.generator_random import (
    generator_advance_op,
    generator_random_float_op,
    generator_random_full_int_op,
    generator_random_int_op,
)
from tinytf.runtime.ops.math import add, cast, multiply, subtract
from tinytf.runtime.ops.random import shape_tensor

from .variables import Variable


class Algorithm(enum.Enum):
    """tf.random.Algorithm."""

    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


PHILOX, THREEFRY, AUTO_SELECT = 1, 2, 3
_ALGORITHMS = {"philox": PHILOX, "threefry": THREEFRY, "auto_select": AUTO_SELECT}
_STATE_SIZE = 3
_MASK64 = (1 << 64) - 1


def _algorithm(alg) -> int:
    """TF's algorithm number for `alg` (a name, a tf.random.Algorithm or its number); None is Philox."""
    if alg is None:
        return PHILOX
    alg = getattr(alg, "value", alg)
    number = _ALGORITHMS.get(alg.lower()) if isinstance(alg, str) else alg
    if number not in (PHILOX, THREEFRY, AUTO_SELECT):
        raise ValueError(f"Unsupported algorithm id: {alg}")
    if number == THREEFRY:
        raise NotImplementedError("tf.random.Generator: only the Philox algorithm is implemented in tinytf "
                                  "(alg='philox' or 'auto_select')")
    return number  # auto_select draws as Philox on the CPU, and keeps its number as in TF


def _signed(word: int) -> int:
    word &= _MASK64
    return word - (1 << 64) if word >> 63 else word


def _state_from_seed(seed) -> np.ndarray:
    """TF's create_rng_state: a Python int is cut into 64-bit words, low first; a shorter sequence of
    integers is padded with zeros on the left (so a small seed lands in the key, not the counter)."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        seed, words = int(seed), []
        for _ in range(_STATE_SIZE):
            words.append(_signed(seed))
            seed >>= 64
        return np.array(words, np.int64)
    words = [_signed(int(w)) for w in np.asarray(seed.numpy() if hasattr(seed, "numpy") else seed).reshape(-1)]
    words = words[:_STATE_SIZE]
    return np.array([0] * (_STATE_SIZE - len(words)) + words, np.int64)


class Generator:
    """`tf.random.Generator(copy_from=None, state=None, alg=None)`; usually made by `from_seed`,
    `from_state`, `from_key_counter` or `from_non_deterministic_state`."""

    def __init__(self, copy_from=None, state=None, alg=None):
        self._lock = threading.Lock()  # eager draws read and move the state as one step
        from .distribute.strategy import get_strategy, has_strategy

        # made under a strategy's scope: each replica of a strategy.run draws its own stream (see _replica_key)
        self._distribution_strategy = get_strategy() if has_strategy() else None
        if copy_from is not None:
            if state is not None or alg is not None:
                raise ValueError("When `copy_from` is not None, neither `state` nor `alg` can be given")
            self._alg = copy_from._alg
            state = copy_from.state.numpy()
        else:
            if state is None:
                raise ValueError("tf.random.Generator needs `copy_from` or `state` (or use one of its from_* "
                                 "constructors)")
            self._alg = _algorithm(alg)
            state = np.array([_signed(int(w)) for w in np.asarray(
                state.numpy() if hasattr(state, "numpy") else state, dtype=object).reshape(-1)], np.int64)
        if state.shape != (_STATE_SIZE,):
            raise ValueError(f"tf.random.Generator: a Philox state has {_STATE_SIZE} int64 words; shapes "
                             f"{state.shape} and [{_STATE_SIZE}] are incompatible")
        self._state_var = Variable(state, dtype=dtypes.int64, trainable=False, name="StateVar")

    # --- construction ---------------------------------------------------------------------------------------
    @classmethod
    def from_state(cls, state, alg):
        return cls(state=state, alg=alg)

    @classmethod
    def from_seed(cls, seed, alg=None):
        return cls(state=_state_from_seed(seed), alg=_algorithm(alg))

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        return cls(state=np.array([_signed(secrets.randbits(64)) for _ in range(_STATE_SIZE)], np.int64),
                   alg=_algorithm(alg))

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        counter = [int(c) for c in np.asarray(counter).reshape(-1)]
        if len(counter) != _STATE_SIZE - 1:
            raise ValueError(f"counter must have {_STATE_SIZE - 1} elements for the Philox algorithm, got "
                             f"{len(counter)}")
        return cls(state=np.array([_signed(c) for c in counter] + [_signed(int(key))], np.int64), alg=alg)

    def reset(self, state):
        self._state_var.assign(convert_to_tensor(np.asarray(state, np.int64)))

    def reset_from_seed(self, seed):
        self.reset(_state_from_seed(seed))

    def reset_from_key_counter(self, key, counter):
        self.reset(Generator.from_key_counter(key, counter, self._alg).state.numpy())

    # --- what it is -----------------------------------------------------------------------------------------
    @property
    def state(self) -> Variable:
        return self._state_var

    @property
    def algorithm(self) -> int:
        return self._alg

    @property
    def key(self):
        return self._state_var[-1]

    def _checkpoint_children(self):
        return [("_state_var", self._state_var)]  # TF's checkpoint key: generator/_state_var

    # --- drawing --------------------------------------------------------------------------------------------
    def _draw(self, op, shape, extra=(), attrs=None):
        """The op's values at the current state, and the state moved past them (one step when eager)."""
        shape = shape_tensor(shape)
        if not executing_eagerly():
            return self._draw_unlocked(op, shape, extra, attrs)
        with self._lock:
            return self._draw_unlocked(op, shape, extra, attrs)

    def _draw_unlocked(self, op, shape, extra, attrs):
        # As TF: the state moves first (read-and-skip), then the kernel runs on the old state, so a draw
        # that fails (minval >= maxval) still uses up its counters.
        state = self._state_var.read_value()
        self._state_var.assign(apply(generator_advance_op, (state, shape), {}))
        return apply(op, (shape, self._replica_key(state), *extra), attrs or {})

    def _replica_key(self, state):
        """The state a draw uses: in a replica of the strategy this generator was made under, its key is
        hashed with the replica id (a uint64 drawn at counter [replica id, 0] under the key), as TF does, so
        replicas draw independent streams from their (equal) copies of the state."""
        if self._distribution_strategy is None:
            return state
        from .distribute.strategy import get_replica_context

        replica = get_replica_context()
        if replica is None or getattr(replica, "strategy", None) is not self._distribution_strategy:
            return state
        from .core_api import bitcast

        replica_id = cast(replica.replica_id_in_sync_group, dtypes.int64)
        keyed = stack([replica_id, zeros_like(replica_id), state[2]])
        hashed = apply(generator_random_full_int_op, (shape_tensor([1]), keyed), {"dtype": dtypes.uint64})
        return concat([state[:2], bitcast(hashed, dtypes.int64)], 0)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        return self._scaled("normal", shape, mean, stddev, dtype)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        return self._scaled("truncated_normal", shape, mean, stddev, dtype)

    def _scaled(self, kind, shape, mean, stddev, dtype):
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating:  # TF fails converting the mean: a TypeError, before any state moves
            raise TypeError(f"Generator.{kind}: dtype must be a float type, got {dtype.name}")
        sample = self._draw(generator_random_float_op, shape, attrs={"dtype": dtype, "kind": kind})
        return add(multiply(sample, convert_to_tensor(stddev, dtype)), convert_to_tensor(mean, dtype))

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Floats in [minval, maxval) (maxval defaults to 1); integers in [minval, maxval), or over the whole
        range of the dtype when both are None."""
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError(f"For integer dtype {dtype!r}, minval and maxval must be both `None` or both "
                                 f"non-`None`; got minval={minval} and maxval={maxval}")
            if minval is None:
                return self.uniform_full_int(shape, dtype)
            return self._draw(generator_random_int_op, shape,
                              (convert_to_tensor(minval, dtype), convert_to_tensor(maxval, dtype)))
        sample = self._draw(generator_random_float_op, shape, attrs={"dtype": dtype, "kind": "uniform"})
        minval = convert_to_tensor(0 if minval is None else minval, dtype)
        maxval = convert_to_tensor(1 if maxval is None else maxval, dtype)
        return add(multiply(sample, subtract(maxval, minval)), minval)

    def uniform_full_int(self, shape, dtype, name=None):
        return self._draw(generator_random_full_int_op, shape, attrs={"dtype": dtypes.as_dtype(dtype)})

    def skip(self, delta):
        """Move the state as if `delta` values had been drawn."""
        delta = int(delta)
        if not 0 <= delta <= np.iinfo(np.int64).max:
            raise ValueError(f"Generator.skip: delta must be a non-negative int64, got {delta}")
        with self._lock:
            self._state_var.assign(apply(generator_advance_op, (self._state_var.read_value(),
                                                                shape_tensor([delta])), {}))

    def make_seeds(self, count=1):
        """[2, count] int64 seeds for the stateless ops: fresh keys over a row of zeros, as TF makes them."""
        keys = self.uniform_full_int([count], dtypes.int64)
        return stack([keys, zeros_like(keys)])

    def split(self, count=1):
        """`count` new generators, each keyed by a fresh 64-bit key at counter zero."""
        keys = self.uniform_full_int([count], dtypes.int64).numpy()
        return [Generator(state=np.array([0, 0, key], np.int64), alg=self._alg) for key in keys]

    def __repr__(self):
        return f"<tinytf.random.Generator alg={self._alg} state={self._state_var.numpy().tolist()}>"


_global = None
_global_lock = threading.Lock()


def get_global_generator() -> Generator:
    """The process's generator, made from non-deterministic state on first use (as TF: tf.random.set_seed
    does not seed it)."""
    global _global
    with _global_lock:
        if _global is None:
            _global = Generator.from_non_deterministic_state()
        return _global


def set_global_generator(generator: Generator) -> None:
    global _global
    with _global_lock:
        _global = generator


__all__ = ["Algorithm", "Generator", "get_global_generator", "set_global_generator"]
