"""Random ops (tf.random): uniform, normal, truncated_normal, shuffle, set_seed, with TensorFlow's numbers.

The values are TensorFlow's (CPU) for the same seeds: each op's kernel draws from a Philox4x32-10 generator
seeded by its (seed, seed2) pair, as TF's kernels do (see philox.py). The pair comes from TF's get_seed:
  - with a global seed (tf.random.set_seed) an op without its own seed takes the next value of a sequence:
    eagerly, Python's random.Random(global seed).randint(0, 2**31 - 1), as TF's eager context; in a graph
    (a traced function, or a branch or loop body inside one) 0, 1, 2, ... counted per graph, whose seed is
    the global seed when it was traced (set_seed while tracing sets the seed of that graph only);
  - an op seed without a global seed pairs with 87654321; neither means "not seeded" (random seeds);
  - both are reduced modulo 2**31 - 1, and (0, 0) becomes (0, 2**31 - 1).
A kernel keeps its generator between runs, so repeated runs continue its sequence: eagerly TF caches one
kernel per (op, dtype, shape dtype, seeds), which ops with an explicit seed (or none) share, and an op with a
derived seed is a new kernel each time; in a graph every random node owns its generator, so each call of a
traced function draws anew. set_seed clears the eager kernels and restarts the graphs' generators, as TF's
context does when it clears its caches. The functions of a tf.data pipeline are instantiated anew for each
iterator TF makes, so their random nodes' generators belong to the iterator pulling (IteratorKernels): every
`iter(dataset)` starts their sequences over, while a repeat's later passes, within one iterator, continue them.
"""

from __future__ import annotations

import random as _python_random
import threading
import weakref

import numpy as np

from .. import dtypes, naming, shapes
from ..context import state
from ..dispatch import apply, convert_to_tensor
from ..registry import OpDef, register
from ..shapes import TensorShape
from ..tensor import Tensor
from . import philox
from .common import require
from .math import add, multiply, subtract
from .shape_args import static_shape_value as known

DEFAULT_GLOBAL_SEED = 87654321  # TF's global seed for ops that have an op seed but no global seed
_MAXINT32 = 2**31 - 1


class _Seeds:
    """What TF keeps for seeding: the eager context's op-seed sequence, its cache of random kernels, and the
    number of set_seed calls (graph generators made before the latest one start over)."""

    def __init__(self):
        self.eager_op_seeds = _python_random.Random()
        self.eager_kernels: dict = {}
        self.epoch = 0
        self.graphs = weakref.WeakKeyDictionary()  # graph -> _GraphSeed


class _GraphSeed:
    __slots__ = ("seed", "next_op_seed")

    def __init__(self, seed):
        self.seed = seed
        self.next_op_seed = 0


_seeds = _Seeds()


def _graph_seed(graph) -> _GraphSeed:
    """A graph's seed record: its seed is the global seed (or its parent graph's seed, for a branch or a loop
    body) and its op seeds count from 0, as TF's FuncGraph and get_seed."""
    record = _seeds.graphs.get(graph)
    if record is None:
        parent = getattr(graph, "parent", None)
        if parent is not None:
            seed = _graph_seed(parent).seed
        else:  # a TF1 graph starts unseeded, as TF's tf.Graph (its seed is set_random_seed's, inside it)
            seed = state.seed if getattr(graph, "inherits_global_seed", True) else None
        record = _seeds.graphs[graph] = _GraphSeed(seed)
    return record


def seed_of(graph):
    """A graph's seed: TF's `graph.seed` (the global seed it took, or set_seed's inside it; None: unseeded)."""
    return _graph_seed(graph).seed


def set_seed(seed) -> None:
    """`tf.random.set_seed`: fix the global seed, restart the op-seed sequence and every kernel's generator.
    While a function is traced it sets the seed of the graph being built only, as TF does."""
    seed = None if seed is None else int(seed)
    if state.graph is not None:
        _graph_seed(state.graph).seed = seed
        return
    state.seed = seed
    _seeds.eager_op_seeds = _python_random.Random(seed)
    _seeds.eager_kernels.clear()
    _seeds.epoch += 1


def get_seed(op_seed):
    """TF's seed derivation: the (seed, seed2) pair of a random op, or None when it is not seeded."""
    graph = state.graph
    record = None if graph is None else _graph_seed(graph)
    global_seed = state.seed if record is None else record.seed
    if global_seed is not None:
        if op_seed is None:
            if record is None:
                op_seed = _seeds.eager_op_seeds.randint(0, _MAXINT32)
            else:
                op_seed = record.next_op_seed
                record.next_op_seed += 1
        seeds = (global_seed % _MAXINT32, int(op_seed) % _MAXINT32)
    elif op_seed is not None:
        seeds = (DEFAULT_GLOBAL_SEED, int(op_seed) % _MAXINT32)
    else:
        return None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds  # (0, 0) would mean "not seeded" to the kernel


_PULLING = threading.local()  # .kernels: the random kernels of the tf.data iterator pulling in this thread


class IteratorKernels:
    """`with IteratorKernels(kernels):` around a tf.data iterator's pull: the random nodes that run meanwhile
    keep their generators in `kernels` (a WeakKeyDictionary the iterator owns), as TF instantiates a
    pipeline's functions, and their random kernels, once per iterator."""

    __slots__ = ("kernels", "outer")

    def __init__(self, kernels):
        self.kernels = kernels

    def __enter__(self):
        self.outer = getattr(_PULLING, "kernels", None)
        _PULLING.kernels = self.kernels

    def __exit__(self, *exc):
        _PULLING.kernels = self.outer


def iterator_kernels() -> weakref.WeakKeyDictionary:
    """A new, empty home for one iterator's random kernels."""
    return weakref.WeakKeyDictionary()


class RandomStream:
    """The seeds of one random op and where its kernel's Philox generator lives: in the eager kernel cache
    (`shared`), with the op itself (a graph node, or an eager op with a derived seed), or, while a tf.data
    iterator pulls, with that iterator (IteratorKernels)."""

    __slots__ = ("seed", "shared", "_own", "_epoch", "__weakref__")

    def __init__(self, seed, shared: bool):
        self.seed = seed
        self.shared = shared
        self._own: dict = {}
        self._epoch = _seeds.epoch

    @property
    def generator(self):
        """What the samplers take (nn.dropout passes it on): the stream, which picks the kernel's generator."""
        return self

    def generator_for(self, kernel: str, dtype, shape_dtype="int32") -> philox.PhiloxGenerator:
        """The generator of this op's kernel (`kernel` and the dtypes name it, as TF's kernel cache)."""
        cache, key = self._cache((kernel, np.dtype(dtype), np.dtype(shape_dtype)))
        generator = cache.get(key)
        if generator is None:
            generator = cache[key] = philox.PhiloxGenerator(*(self.seed or (0, 0)))
        return generator

    def kernel_state(self, kernel: str, make):
        """What a kernel keeps between runs besides its generator (the learned unigram sampler's counts), kept
        where its generator is, so it lives, is shared and starts over exactly as the generator does."""
        cache, key = self._cache(("state", kernel))
        value = cache.get(key)
        if value is None:
            value = cache[key] = make()
        return value

    def _cache(self, key):
        if self.shared:
            return _seeds.eager_kernels, (*key, self.seed)
        kernels = getattr(_PULLING, "kernels", None)
        if kernels is not None:
            own = kernels.get(self)
            if own is None:
                own = kernels[self] = {}
            return own, key
        if self._epoch != _seeds.epoch:  # set_seed since: TF's kernels start over too
            self._own.clear()
            self._epoch = _seeds.epoch
        return self._own, key

    def fresh(self) -> RandomStream:
        """The same seeds with generators of its own: what a random node copied into another graph (a nested
        tf.function's call site) needs, since TF runs each call site as a separate kernel."""
        return RandomStream(self.seed, self.shared)

    def __repr__(self):
        return f"RandomStream(seed={self.seed})"


def stream_for(op_seed) -> RandomStream:
    """The stream of a new random op (see the module docstring)."""
    seed = get_seed(op_seed)
    eager = state.graph is None
    derived = op_seed is None and seed is not None
    return RandomStream(seed, shared=eager and not derived)


# --- the `shape` input ---------------------------------------------------------------------------------
def shape_tensor(shape, name=None) -> Tensor:
    """The `shape` argument of a random op as a 1-D integer tensor (an op input: it may be symbolic)."""
    if isinstance(shape, TensorShape):
        if not shape.is_fully_defined():
            raise ValueError(f"a random op needs a fully defined shape, got {shape}")
        shape = shape.as_list()
    if isinstance(shape, (list, tuple)) and not any(isinstance(d, Tensor) for d in shape):
        if any(d is None for d in shape):
            raise ValueError(f"a random op needs a fully defined shape, got {list(shape)}")
        return convert_to_tensor(np.asarray(shape, dtype=np.int64).astype(np.int32), name=name)
    return convert_to_tensor(shape, name=name)


def static_shape_value(t):
    """What shape inference can know of the value of a 1-D shape tensor (see shape_args.static_shape_value)."""

    return known(t)


def infer_shape_input(shape):
    """Check a shape input (1-D int32/int64) and return the output shape it determines."""
    if shape.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"shape must be an int32 or int64 tensor, got {shape.dtype.name}")
    if shape._shape is not None and len(shape._shape) != 1:
        raise ValueError(f"shape must be a 1-D tensor, got a tensor of shape {shapes.fmt(shape._shape)}")
    value = static_shape_value(shape)
    if value is not None and any(d is not None and d < 0 for d in value):
        raise ValueError(f"shape must not have negative dimensions, got {list(value)}")
    return value


def _size(shape):
    return tuple(shape.tolist())


def _scalar_if_0d(array):
    return array[()] if array.ndim == 0 else array


# --- samplers (numpy in, numpy out; shared with nn.dropout) ---------------------------------------------
def _count(size) -> int:
    return int(np.prod(size, dtype=np.int64))


def sample_uniform(generator, size, dtype, shape_dtype="int32"):
    """One run of TF's RandomUniform kernel: floats of `dtype` in [0, 1). `generator` is a RandomStream."""
    dtype = dtypes.as_dtype(dtype)
    gen = generator.generator_for("random_uniform", dtype.np, shape_dtype)
    return philox.uniform(gen, _count(size), dtype.np).reshape(size)


def _sample(kernel, sampler, shape, dtype, stream):
    gen = stream.generator_for(kernel, dtype.np, shape.dtype)
    size = _size(shape)
    return _scalar_if_0d(sampler(gen, _count(size), dtype.np).reshape(size))


# --- ops ---------------------------------------------------------------------------------------------------
def _infer_float_sample(shape, *, dtype, stream):
    require(dtype, "float", "this random op")
    return dtype, infer_shape_input(shape)


def _uniform_kernel(shape, *, dtype, stream):
    return _scalar_if_0d(sample_uniform(stream, _size(shape), dtype, shape.dtype))


def _normal_kernel(shape, *, dtype, stream):
    return _sample("random_standard_normal", philox.normal, shape, dtype, stream)


def _truncated_normal_kernel(shape, *, dtype, stream):
    """Standard normal values; those beyond two standard deviations are dropped and drawn again."""
    return _sample("truncated_normal", philox.truncated_normal, shape, dtype, stream)


def _infer_uniform_int(shape, minval, maxval, *, stream):
    if minval.dtype is not maxval.dtype:
        raise TypeError(f"minval and maxval must have the same dtype, got {minval.dtype.name} and "
                        f"{maxval.dtype.name}")
    if minval.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"integer uniform sampling supports int32 and int64, got {minval.dtype.name}")
    for what, t in (("minval", minval), ("maxval", maxval)):
        if t._shape is not None and t._shape != ():
            raise ValueError(f"{what} must be a scalar for integer dtypes, got shape {shapes.fmt(t._shape)}")
    return minval.dtype, infer_shape_input(shape)


def _uniform_int_kernel(shape, minval, maxval, *, stream):
    size = _size(shape)
    count = _count(size)
    if count and minval >= maxval:  # TF's kernel returns an empty result before it checks the range
        raise ValueError(f"Need minval < maxval, got {minval} >= {maxval}")
    gen = stream.generator_for("random_uniform_int", minval.dtype, shape.dtype)
    values = philox.uniform_int(gen, count, int(minval), int(maxval), minval.dtype)
    return _scalar_if_0d(values.reshape(size))


def _shuffle_kernel(value, *, stream):
    """Rows of `value` in TF's order; at most one element or one row is returned as it is, drawing nothing."""
    if np.ndim(value) == 0 or np.size(value) <= 1 or len(value) <= 1:
        return value
    order = philox.shuffle_permutation(stream.generator_for("random_shuffle", value.dtype), len(value))
    return value[order]


def _infer_shuffle(value, *, stream):
    return value.dtype, value._shape


def _random_op(name, kernel, infer, doc):
    return register(OpDef(name, kernel, infer, stateful=True, differentiable=False, doc=doc))


random_uniform_op = _random_op("random_uniform", _uniform_kernel, _infer_float_sample,
                               "floats drawn uniformly from [0, 1)")
random_standard_normal_op = _random_op("random_standard_normal", _normal_kernel, _infer_float_sample,
                                       "floats drawn from the standard normal distribution")
truncated_normal_op = _random_op("truncated_normal", _truncated_normal_kernel, _infer_float_sample,
                                 "standard normal floats, redrawn when beyond two standard deviations")
random_uniform_int_op = _random_op("random_uniform_int", _uniform_int_kernel, _infer_uniform_int,
                                   "integers drawn uniformly from [minval, maxval)")
random_shuffle_op = _random_op("random_shuffle", _shuffle_kernel, _infer_shuffle,
                               "a random permutation along the first dimension")


# --- Python-facing wrappers --------------------------------------------------------------------------------
def _is_python(value, number) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == number


def _float_dtype(dtype, what):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"{what}: dtype must be a floating point type, got {dtype.name}")
    return dtype


def _scale_and_shift(sample, scale, shift, dtype):
    """sample * scale + shift, as TF builds it; skipped for the default 1 and 0, which change nothing."""
    if not _is_python(scale, 1):
        sample = multiply(sample, convert_to_tensor(scale, dtype))
    if not _is_python(shift, 0):
        sample = add(sample, convert_to_tensor(shift, dtype))
    return sample


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """`tf.random.uniform`: values in [minval, maxval); maxval defaults to 1 for floats and is required for ints.
    In a graph its nodes are TF's, under its name scope (`random_uniform/RandomUniform`, `random_uniform`)."""
    dtype = dtypes.as_dtype(dtype)
    if state.graph is None:
        return _uniform(shape, minval, maxval, dtype, seed, None)
    with naming.op_scope(state.graph, name, "random_uniform") as scope:
        return _uniform(shape, minval, maxval, dtype, seed, scope)


def _uniform(shape, minval, maxval, dtype, seed, scope):
    shape = shape_tensor(shape, "shape" if scope else None)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(f"tf.random.uniform: maxval must be given for the integer dtype {dtype.name}")
        minval, maxval = convert_to_tensor(minval, dtype, "min"), convert_to_tensor(maxval, dtype, "max")
        return apply(random_uniform_int_op, (shape, minval, maxval), {"stream": stream_for(seed)}, name=scope)
    dtype = _float_dtype(dtype, "tf.random.uniform")
    maxval = 1 if maxval is None else maxval
    # As TF: only the Python ints 0 and 1 skip the arithmetic (the values are the same either way).
    minval_is_zero = isinstance(minval, int) and minval == 0
    maxval_is_one = isinstance(maxval, int) and maxval == 1
    if not (minval_is_zero and maxval_is_one):  # TF converts both bounds before the sample
        minval, maxval = convert_to_tensor(minval, dtype, "min"), convert_to_tensor(maxval, dtype, "max")
    sample = apply(random_uniform_op, (shape,), {"dtype": dtype, "stream": stream_for(seed)},
                   name=scope and "RandomUniform")
    if minval_is_zero:
        return sample if maxval_is_one else multiply(sample, maxval)
    return add(multiply(sample, subtract(maxval, minval, name=scope and "sub"), name=scope and "mul"), minval,
               name=scope)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """`tf.random.normal`: standard normal samples scaled by stddev and shifted by mean."""
    dtype = _float_dtype(dtype, "tf.random.normal")
    if state.graph is None:
        sample = apply(random_standard_normal_op, (shape_tensor(shape),), {"dtype": dtype, "stream": stream_for(seed)})
        return _scale_and_shift(sample, stddev, mean, dtype)
    with naming.op_scope(state.graph, name, "random_normal") as scope:
        return _sampled_in_graph(random_standard_normal_op, "RandomStandardNormal", shape, mean, stddev, dtype, seed,
                                 scope)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """`tf.random.truncated_normal`: normal samples more than two stddevs from the mean are drawn again."""
    dtype = _float_dtype(dtype, "tf.random.truncated_normal")
    if state.graph is None:
        sample = apply(truncated_normal_op, (shape_tensor(shape),), {"dtype": dtype, "stream": stream_for(seed)})
        return _scale_and_shift(sample, stddev, mean, dtype)
    with naming.op_scope(state.graph, name, "truncated_normal") as scope:
        return _sampled_in_graph(truncated_normal_op, "TruncatedNormal", shape, mean, stddev, dtype, seed, scope)


def _sampled_in_graph(op, op_name, shape, mean, stddev, dtype, seed, scope):
    """A normal sample in a graph as TF builds it, under the wrapper's scope: shape, mean and stddev constants,
    the sampling op, `mul` by stddev and the add of the mean named as the scope (both always, as in TF)."""
    shape = shape_tensor(shape, "shape")
    mean, stddev = convert_to_tensor(mean, dtype, "mean"), convert_to_tensor(stddev, dtype, "stddev")
    sample = apply(op, (shape,), {"dtype": dtype, "stream": stream_for(seed)}, name=op_name)
    return add(multiply(sample, stddev, name="mul"), mean, name=scope)


def shuffle(value, seed=None, name=None):
    """`tf.random.shuffle`: the rows of `value` (its first dimension) in a random order."""
    return apply(random_shuffle_op, (convert_to_tensor(value),), {"stream": stream_for(seed)}, name=name)


__all__ = ["uniform", "normal", "truncated_normal", "shuffle", "set_seed"]
