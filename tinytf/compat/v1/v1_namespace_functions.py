"""Functions of tf.compat.v1's namespaces whose TF1 form differs from TF2's (helper v1alias): strings.length
and strings.split with TF1's arguments and SparseTensor result, random.stateless_multinomial (TF1's name of
stateless_categorical), TF1's he/lecun variance-scaling initializers and the identity initializer (dtype
fixed at construction, `partition_info` accepted), and test.get_temp_dir."""

from __future__ import annotations

import tempfile

from tinytf.runtime import dtypes

from .deprecated_args import one_of
from .initializers import _V1Initializer, variance_scaling_initializer


def _tf():
    import tinytf

    return tinytf


# --- tf.compat.v1.strings --------------------------------------------------------------------------------------
def length(input, name=None, unit="BYTE"):  # noqa: A002 - TF's argument name
    """TF1's argument order of tf.strings.length (name before unit)."""
    return _tf().strings.length(input, unit=unit, name=name)


def split(input=None, sep=None, maxsplit=-1, result_type="SparseTensor", source=None, name=None):  # noqa: A002
    """TF1's strings.split: tf.strings.split's splitting (whitespace when sep is None), a scalar taken as one
    string of a batch, the result a SparseTensor (or a RaggedTensor with result_type="RaggedTensor")."""
    tf = _tf()
    input = one_of("input", input, "source", source)  # noqa: A001
    if result_type not in ("SparseTensor", "RaggedTensor"):
        raise ValueError("result_type must be 'RaggedTensor' or 'SparseTensor'.")
    if not isinstance(input, tf.RaggedTensor):
        input = tf.convert_to_tensor(input, tf.string)  # noqa: A001
        if input.shape.rank == 0:
            input = tf.expand_dims(input, 0)  # noqa: A001
    with tf.name_scope(name or "StringSplit"):
        ragged = tf.strings.split(input, sep=sep, maxsplit=maxsplit)
    return ragged.to_sparse() if result_type == "SparseTensor" else ragged


# --- tf.compat.v1.random ---------------------------------------------------------------------------------------
def stateless_multinomial(logits, num_samples, seed, output_dtype=dtypes.int64, name=None):
    """TF1's name (and `output_dtype`) of tf.random.stateless_categorical: the same draws."""
    return _tf().random.stateless_categorical(logits, num_samples, seed, dtype=output_dtype, name=name)


# --- tf.compat.v1.initializers ---------------------------------------------------------------------------------
def he_normal(seed=None):
    """TF1's: truncated normal with variance 2 / fan_in."""
    return variance_scaling_initializer(2.0, "fan_in", "truncated_normal", seed)


def he_uniform(seed=None):
    """TF1's: uniform in +-sqrt(6 / fan_in)."""
    return variance_scaling_initializer(2.0, "fan_in", "uniform", seed)


def lecun_normal(seed=None):
    """TF1's: truncated normal with variance 1 / fan_in."""
    return variance_scaling_initializer(1.0, "fan_in", "truncated_normal", seed)


def lecun_uniform(seed=None):
    """TF1's: uniform in +-sqrt(3 / fan_in)."""
    return variance_scaling_initializer(1.0, "fan_in", "uniform", seed)


class _Identity(_V1Initializer):
    """gain times the identity matrix: 2-D shapes only (of a partitioned variable, this part's rows/columns)."""

    def __call__(self, shape, dtype=None, partition_info=None):
        tf = _tf()
        dtype = dtypes.as_dtype(dtype) if dtype is not None else (self.dtype or dtypes.float32)
        full_shape = list(shape) if partition_info is None else list(partition_info.full_shape)
        if len(full_shape) != 2:
            raise ValueError("The tensor to initialize, specified by argument `shape` must be at least "
                             f"two-dimensional. Received shape={list(shape)}")  # (TF's words: 2-D only)
        matrix = tf.eye(*full_shape, dtype=dtype)
        if partition_info is not None:
            matrix = tf.slice(matrix, list(partition_info.var_offset), list(shape))
        return self._config["gain"] * matrix


def identity(gain=1.0, dtype=dtypes.float32):
    """TF1's identity initializer (init_ops.Identity)."""
    return _Identity(dtype, gain=gain)


# --- tf.compat.v1.test -----------------------------------------------------------------------------------------
_TEMP_DIR = []


def get_temp_dir() -> str:
    """A directory made once per process, as TF1's tf.test.get_temp_dir outside a TestCase."""
    if not _TEMP_DIR:
        _TEMP_DIR.append(tempfile.mkdtemp(prefix="tinytf_test_"))
    return _TEMP_DIR[0]


NAMESPACES = {"strings": ["length", "split"], "random": ["stateless_multinomial"],
              "initializers": ["he_normal", "he_uniform", "lecun_normal", "lecun_uniform", "identity"],
              "test": ["get_temp_dir"]}
