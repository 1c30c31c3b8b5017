"""`tf.dtypes`: the DType class, every dtype object, as_dtype, cast, saturate_cast and complex."""

from __future__ import annotations

from tinytf.runtime.dtypes import QUANTIZED as _quantized
from tinytf.runtime.dtypes import (  # noqa: F401
    DType,
    as_dtype,
    bfloat16,
    bool_,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    qint8,
    qint16,
    qint32,
    quint8,
    quint16,
    string,
    uint8,
    uint16,
    uint32,
    uint64,
)
from tinytf.runtime.ops.complex import complex  # noqa: F401
from tinytf.runtime.ops.math import cast  # noqa: F401
from tinytf.runtime.ops.saturate import saturate_cast  # noqa: F401

bool = bool_  # noqa: A001 - TF's name
half = float16
double = float64
# TF's quantized types (helper toplvl2); TF's set also holds their _ref twins, which TF2 programs never see
QUANTIZED_DTYPES = frozenset(_quantized)

# TF 2.21's narrow types and the opaque handle types (runtime/dtypes.py says what TF allows on them)
from tinytf.runtime.dtypes import NARROW as _narrow  # noqa: E402
from tinytf.runtime.dtypes import resource, variant  # noqa: F401,E402


class experimental:  # noqa: N801 - reached as tf.dtypes.experimental
    """`tf.dtypes.experimental`: float8/float4 and int4/int2 types (also under tf.experimental)."""


for _dtype in _narrow:
    setattr(experimental, _dtype.name, _dtype)
del _dtype
