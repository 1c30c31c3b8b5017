"""The base class of tf.compat.v1.distributions (TF1's deprecated probability API): the public methods
(`log_prob`, `cdf`, `sample`, ...) wrap a subclass's `_log_prob`, `_cdf`, `_sample_n`, falling back from one
form to its twin (log_prob <-> prob, cdf <-> log_cdf, variance <-> stddev) as TF 2.21's distribution.py does.
Everything is built of tinytf ops, so a distribution works eagerly, in tf.function and in TF1 graphs."""

from __future__ import annotations

import contextlib

import numpy as np

import tinytf as tf  # the package object; its attributes are read at call time, after tinytf is loaded


class ReparameterizationType:
    """How a distribution's samples depend on its parameters: FULLY_REPARAMETERIZED samples are differentiable
    functions of them (Normal: loc + scale * eps), NOT_REPARAMETERIZED ones are not (Bernoulli)."""

    def __init__(self, rep_type: str):
        self._rep_type = rep_type

    def __repr__(self) -> str:
        return f"<Reparameterization Type: {self._rep_type}>"

    def __eq__(self, other) -> bool:  # TF compares by identity: only the two module-level instances exist
        return self is other

    __hash__ = object.__hash__


FULLY_REPARAMETERIZED = ReparameterizationType("FULLY_REPARAMETERIZED")
NOT_REPARAMETERIZED = ReparameterizationType("NOT_REPARAMETERIZED")


def building_graph() -> bool:
    return not tf.executing_eagerly()


@contextlib.contextmanager
def scope(name):
    """TF's `ops.name_scope(name) as name`: the unique scope name ("Normal/", "Normal_1/") while a graph is
    built, None when executing eagerly (TF 2.21's eager distributions are named None)."""
    if not building_graph() or name is None:
        yield None
        return
    with tf.compat.v1.name_scope(name) as full:
        yield full


def convert(value, dtype=None, dtype_hint=None, name=None):
    return tf.convert_to_tensor(value, dtype=dtype, dtype_hint=dtype_hint, name=name)


def same_float_dtype(*tensors):
    """TF's check_ops.assert_same_float_dtype: ValueError unless every tensor has one floating dtype."""
    return tf.debugging.assert_same_float_dtype(list(tensors))


def static_value(x):
    """A Python/numpy value of `x` when it is known now (eager tensors, Python values), else None."""
    if isinstance(x, (int, float, list, tuple, np.ndarray, np.generic)):
        return np.asarray(x)
    if hasattr(x, "numpy") and tf.executing_eagerly():
        return x.numpy()
    return tf.get_static_value(x) if hasattr(tf, "get_static_value") else None


class Distribution:
    """A batch of probability distributions (TF1's tf.distributions.Distribution)."""

    def __init__(self, dtype, reparameterization_type, validate_args, allow_nan_stats, parameters=None,
                 graph_parents=None, name=None):
        graph_parents = [] if graph_parents is None else graph_parents
        for i, t in enumerate(graph_parents):
            if t is None or not tf.is_tensor(t):
                raise ValueError(f"Graph parent item {i} is not a Tensor; {t}.")
        if not name or name[-1] != "/":  # not yet a name scope: make one (a subclass usually already has)
            with scope(name or type(self).__name__) as name:
                pass
        self._dtype = dtype
        self._reparameterization_type = reparameterization_type
        self._allow_nan_stats = allow_nan_stats
        self._validate_args = validate_args
        self._parameters = dict(parameters or {})
        self._parameters.pop("self", None)
        self._parameters.pop("__class__", None)
        self._graph_parents = graph_parents
        self._name = name

    # --- static facts ---------------------------------------------------------------------------------------
    @classmethod
    def param_shapes(cls, sample_shape, name="DistributionParamShapes"):
        """The shapes of the parameters that give samples of shape `sample_shape` (as int32 tensors)."""
        return cls._param_shapes(sample_shape)

    @classmethod
    def param_static_shapes(cls, sample_shape):
        if isinstance(sample_shape, tf.TensorShape):
            if not sample_shape.is_fully_defined():
                raise ValueError("TensorShape sample_shape must be fully defined")
            sample_shape = sample_shape.as_list()
        out = {}
        for key, shape in cls.param_shapes(sample_shape).items():
            value = static_value(shape)
            if value is None:
                raise ValueError("sample_shape must be a fully-defined TensorShape or list/tuple")
            out[key] = tf.TensorShape([int(v) for v in np.reshape(value, [-1])])
        return out

    @staticmethod
    def _param_shapes(sample_shape):
        raise NotImplementedError("_param_shapes not implemented")

    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def parameters(self) -> dict:
        """The constructor's arguments, as given (TF's `parameters`)."""
        return {k: v for k, v in self._parameters.items() if not k.startswith("__") and k != "self"}

    @property
    def reparameterization_type(self):
        return self._reparameterization_type

    @property
    def allow_nan_stats(self) -> bool:
        return self._allow_nan_stats

    @property
    def validate_args(self) -> bool:
        return self._validate_args

    def copy(self, **override_parameters_kwargs):
        """A new distribution of this type with these constructor arguments replaced."""
        return type(self)(**dict(self.parameters, **override_parameters_kwargs))

    # --- shapes ------------------------------------------------------------------------------------------------
    def _batch_shape_tensor(self):
        raise NotImplementedError(f"batch_shape_tensor is not implemented: {type(self).__name__}")

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        with self._name_scope(name):
            if self.batch_shape.is_fully_defined():
                return tf.constant(self.batch_shape.as_list(), dtype=tf.int32)
            return self._batch_shape_tensor()

    def _batch_shape(self):
        return tf.TensorShape(None)

    @property
    def batch_shape(self):
        return tf.TensorShape(self._batch_shape())

    def _event_shape_tensor(self):
        raise NotImplementedError(f"event_shape_tensor is not implemented: {type(self).__name__}")

    def event_shape_tensor(self, name="event_shape_tensor"):
        with self._name_scope(name):
            if self.event_shape.is_fully_defined():
                return tf.constant(self.event_shape.as_list(), dtype=tf.int32)
            return self._event_shape_tensor()

    def _event_shape(self):
        return tf.TensorShape(None)

    @property
    def event_shape(self):
        return tf.TensorShape(self._event_shape())

    def is_scalar_event(self, name="is_scalar_event"):
        with self._name_scope(name):
            return tf.convert_to_tensor(self._is_scalar_helper(self.event_shape, self.event_shape_tensor))

    def is_scalar_batch(self, name="is_scalar_batch"):
        with self._name_scope(name):
            return tf.convert_to_tensor(self._is_scalar_helper(self.batch_shape, self.batch_shape_tensor))

    @staticmethod
    def _is_scalar_helper(static_shape, dynamic_shape_fn):
        if static_shape.rank is not None:
            return static_shape.rank == 0
        return tf.equal(tf.size(dynamic_shape_fn()), 0)

    # --- sampling -------------------------------------------------------------------------------------------
    def _sample_n(self, n, seed=None):
        raise NotImplementedError(f"sample_n is not implemented: {type(self).__name__}")

    def sample(self, sample_shape=(), seed=None, name="sample"):
        """Samples of shape sample_shape + batch_shape + event_shape: `_sample_n` draws n = prod(sample_shape)
        at once (TF's order, so seeded samples equal TF's) and the leading dimension is then split."""
        with self._name_scope(name):
            static = static_value(sample_shape)
            if static is not None:
                static = np.asarray(static, np.int64)
                if static.ndim > 1:
                    raise ValueError("Input is neither scalar nor vector.")
                dims = [int(d) for d in np.reshape(static, [-1])]
                samples = self._sample_n(int(np.prod(dims, dtype=np.int64)), seed)
                rest = samples.shape.as_list()[1:] if samples.shape.rank is not None else None
                if rest is not None and None not in rest:
                    return tf.reshape(samples, dims + rest)
                return tf.reshape(samples, tf.concat([tf.constant(dims, tf.int32), tf.shape(samples)[1:]], 0))
            shape = tf.reshape(tf.cast(sample_shape, tf.int32), [-1])
            samples = self._sample_n(tf.reduce_prod(shape), seed)
            return tf.reshape(samples, tf.concat([shape, tf.shape(samples)[1:]], 0))

    # --- densities and distribution functions ------------------------------------------------------------------
    def _value(self, value):
        """An argument of log_prob, cdf, ... as a tensor, preferring the distribution's dtype as TF 2.21's
        distribution._convert_to_tensor does: numpy arrays are cast to a float dtype (a float32 Normal's
        log_prob of a float64 array is float32), float values stay float for an integer-valued distribution."""
        if tf.is_tensor(value):
            return value
        hint = self.dtype
        if hint.is_integer or hint.is_bool:
            plain = tf.convert_to_tensor(value, name="value")
            if plain.dtype.is_floating:
                return plain
        if hint.is_floating and isinstance(value, (np.ndarray, np.generic)) and np.asarray(value).dtype.kind in "fiu":
            return tf.convert_to_tensor(np.asarray(value).astype(hint.as_numpy_dtype), name="value")
        return tf.convert_to_tensor(value, dtype_hint=hint, name="value")

    def _call_with_fallback(self, name, value, primary, secondary, transform):
        """`primary(value)`, or `transform(secondary(value))` when the subclass has no `primary`."""
        with self._name_scope(name):
            value = self._value(value)
            try:
                return getattr(self, primary)(value)
            except NotImplementedError as original:
                try:
                    return transform(getattr(self, secondary)(value))
                except NotImplementedError:
                    raise original from None

    def _log_prob(self, value):
        raise NotImplementedError(f"log_prob is not implemented: {type(self).__name__}")

    def log_prob(self, value, name="log_prob"):
        return self._call_with_fallback(name, value, "_log_prob", "_prob", tf.math.log)

    def _prob(self, value):
        raise NotImplementedError(f"prob is not implemented: {type(self).__name__}")

    def prob(self, value, name="prob"):
        return self._call_with_fallback(name, value, "_prob", "_log_prob", tf.math.exp)

    def _log_cdf(self, value):
        raise NotImplementedError(f"log_cdf is not implemented: {type(self).__name__}")

    def log_cdf(self, value, name="log_cdf"):
        return self._call_with_fallback(name, value, "_log_cdf", "_cdf", tf.math.log)

    def _cdf(self, value):
        raise NotImplementedError(f"cdf is not implemented: {type(self).__name__}")

    def cdf(self, value, name="cdf"):
        return self._call_with_fallback(name, value, "_cdf", "_log_cdf", tf.math.exp)

    def _log_survival_function(self, value):
        raise NotImplementedError(f"log_survival_function is not implemented: {type(self).__name__}")

    def log_survival_function(self, value, name="log_survival_function"):
        return self._call_with_fallback(name, value, "_log_survival_function", "_cdf",
                                        lambda c: tf.math.log1p(-c))

    def _survival_function(self, value):
        raise NotImplementedError(f"survival_function is not implemented: {type(self).__name__}")

    def survival_function(self, value, name="survival_function"):
        return self._call_with_fallback(name, value, "_survival_function", "_cdf", lambda c: 1.0 - c)

    def _quantile(self, value):
        raise NotImplementedError(f"quantile is not implemented: {type(self).__name__}")

    def quantile(self, value, name="quantile"):
        with self._name_scope(name):
            return self._quantile(self._value(value))

    # --- statistics --------------------------------------------------------------------------------------------
    def _entropy(self):
        raise NotImplementedError(f"entropy is not implemented: {type(self).__name__}")

    def entropy(self, name="entropy"):
        with self._name_scope(name):
            return self._entropy()

    def _mean(self):
        raise NotImplementedError(f"mean is not implemented: {type(self).__name__}")

    def mean(self, name="mean"):
        with self._name_scope(name):
            return self._mean()

    def _variance(self):
        raise NotImplementedError(f"variance is not implemented: {type(self).__name__}")

    def variance(self, name="variance"):
        with self._name_scope(name):
            try:
                return self._variance()
            except NotImplementedError as original:
                try:
                    return tf.math.square(self._stddev())
                except NotImplementedError:
                    raise original from None

    def _stddev(self):
        raise NotImplementedError(f"stddev is not implemented: {type(self).__name__}")

    def stddev(self, name="stddev"):
        with self._name_scope(name):
            try:
                return self._stddev()
            except NotImplementedError as original:
                try:
                    return tf.math.sqrt(self._variance())
                except NotImplementedError:
                    raise original from None

    def _covariance(self):
        raise NotImplementedError(f"covariance is not implemented: {type(self).__name__}")

    def covariance(self, name="covariance"):
        with self._name_scope(name):
            return self._covariance()

    def _mode(self):
        raise NotImplementedError(f"mode is not implemented: {type(self).__name__}")

    def mode(self, name="mode"):
        with self._name_scope(name):
            return self._mode()

    def _cross_entropy(self, other):
        from .kullback_leibler import cross_entropy

        return cross_entropy(self, other, allow_nan_stats=self.allow_nan_stats)

    def cross_entropy(self, other, name="cross_entropy"):
        """H[self, other] = entropy(self) + KL(self || other)."""
        with self._name_scope(name):
            return self._cross_entropy(other)

    def _kl_divergence(self, other):
        from .kullback_leibler import kl_divergence

        return kl_divergence(self, other, allow_nan_stats=self.allow_nan_stats)

    def kl_divergence(self, other, name="kl_divergence"):
        with self._name_scope(name):
            return self._kl_divergence(other)

    # --- printing and scoping --------------------------------------------------------------------------------
    def __str__(self) -> str:
        batch = f", batch_shape={self.batch_shape}" if self.batch_shape.rank is not None else ""
        event = f", event_shape={self.event_shape}" if self.event_shape.rank is not None else ""
        return f'tfp.distributions.{type(self).__name__}("{self.name}"{batch}{event}, dtype={self.dtype.name})'

    def __repr__(self) -> str:
        return (f"<tfp.distributions.{type(self).__name__} '{self.name}' batch_shape={self.batch_shape} "
                f"event_shape={self.event_shape} dtype={self.dtype.name}>")

    @contextlib.contextmanager
    def _name_scope(self, name=None):
        """Ops of a method go under "<distribution scope>/<method>/" in a graph, as TF names them."""
        if not building_graph() or self.name is None:
            yield None
            return
        with tf.compat.v1.name_scope(self.name), tf.compat.v1.name_scope(name) as full:
            yield full
