"""TensorFlow-style dtypes over numpy: one DType object per type, looked up by name or numpy dtype.

Strings are numpy object arrays of `bytes` (as TF's `.numpy()` gives them); bfloat16 is the `ml_dtypes`
numpy type that TF and JAX themselves use."""

from __future__ import annotations

import ml_dtypes
import numpy as np

# TF's DataType enum values (types.proto), which `as_datatype_enum` reports
_ENUM = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "string": 7, "complex64": 8,
         "int64": 9, "bool": 10, "bfloat16": 14, "uint16": 17, "complex128": 18, "float16": 19, "resource": 20,
         "variant": 21, "uint32": 22, "uint64": 23, "qint8": 11, "quint8": 12, "qint32": 13, "qint16": 15,
         "quint16": 16, "float8_e5m2": 24, "float8_e4m3fn": 25, "float8_e4m3fnuz": 26, "float8_e4m3b11fnuz": 27,
         "float8_e5m2fnuz": 28, "int4": 29, "uint4": 30, "int2": 31, "uint2": 32, "float4_e2m1fn": 33}
# TF 2.21's narrow types (tf.experimental.float8_e4m3fn, int4, ...; ml_dtypes' numpy types, as TF's): TF stores,
# reshapes, slices, concatenates and casts them but its arithmetic kernels refuse them, so they are no numeric
# type for tinytf's ops (DType.is_numeric False) while is_floating/is_integer report what TF reports.
_NARROW = ("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e4m3b11fnuz",
           "float4_e2m1fn", "int4", "uint4", "int2", "uint2")
_NARROW_INTEGERS = _NARROW[6:]
_FLOATING = ("float16", "bfloat16", "float32", "float64") + _NARROW[:6]
_COMPLEX_PARTS = {"complex64": "float32", "complex128": "float64"}


class DType:
    """A tensor element type. Compared by identity: there is one object per type."""

    __slots__ = ("name", "np", "is_floating", "is_integer", "is_bool", "is_unsigned", "is_complex", "is_string",
                 "is_numeric", "is_number", "is_inexact", "_limits")

    def __init__(self, name: str, np_type, quantized: bool = False):
        self.name = name
        self.np = np.dtype(np_type)
        kind = "Q" if quantized else self.np.kind  # a quantized type stores integers but is no integer type for TF
        if name in _NARROW_INTEGERS:  # ml_dtypes' int4/uint4/int2/uint2 are numpy 'V' (void) types
            kind = "u" if name.startswith("u") else "i"
        self.is_floating = name in _FLOATING
        self.is_integer = kind in "iu"
        self.is_unsigned = kind == "u"
        self.is_bool = kind == "b"
        self.is_complex = name in _COMPLEX_PARTS
        self.is_string = name == "string"
        # families the ops check (plain attributes: they are read on every op's inference)
        # real numbers: ordered, what max/min accept
        self.is_numeric = (self.is_floating or self.is_integer) and name not in _NARROW
        self.is_number = self.is_numeric or self.is_complex  # what arithmetic, matmul and sums accept
        self.is_inexact = self.is_numeric and self.is_floating or self.is_complex  # exp, log, sqrt, gradients
        if self.is_floating:
            info = ml_dtypes.finfo(self.np)
            self._limits = (float(info.min), float(info.max))
        elif self.is_integer:
            info = ml_dtypes.iinfo(self.np) if name in _NARROW else np.iinfo(self.np)
            self._limits = (int(info.min), int(info.max))
        else:
            self._limits = None
        if quantized:
            self._limits = "quantized"

    @property
    def is_quantized(self) -> bool:
        return isinstance(self._limits, str)

    @property
    def min(self):
        """The smallest finite value of a real numeric type (TF raises TypeError for the others)."""
        return self._limit(0, "minimum")

    @property
    def max(self):
        """The largest finite value of a real numeric type."""
        return self._limit(1, "maximum")

    def _limit(self, index, word):
        if self.is_quantized:
            raise TypeError(f"Cannot find {word} value of {self} with quantized type {self}.")
        if self._limits is None:
            raise TypeError(f"Cannot find {word} value of {self} with type {self}.")
        return self._limits[index]

    @property
    def as_numpy_dtype(self):
        if self.is_quantized:  # TF's numpy face of a quantized type: a one-field record, [('qint8', 'i1')]
            return np.dtype([(self.name, self.np)])
        return object if self.is_string else self.np.type

    @property
    def as_datatype_enum(self) -> int:
        return _ENUM[self.name]

    @property
    def is_numpy_compatible(self) -> bool:
        return self.name not in _OPAQUE

    @property
    def real_dtype(self) -> DType:
        """float32 for complex64, float64 for complex128, the type itself otherwise."""
        part = _COMPLEX_PARTS.get(self.name)
        return self if part is None else BY_NAME[part]

    @property
    def base_dtype(self) -> DType:
        return self

    @property
    def size(self) -> int:
        return 0 if self.is_string or self.name in _OPAQUE else self.np.itemsize

    def is_compatible_with(self, other) -> bool:
        return self == other

    def __eq__(self, other) -> bool:
        """As TF: a DType equals whatever names it (tf.float32 == "float32" == np.float32 == 1, the enum)."""
        if other is self:
            return True
        if other is None or isinstance(other, DType):
            return False
        try:
            return as_dtype(other) is self
        except TypeError:
            return False

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return _ENUM.get(self.name) or hash(self.name)

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"  # TF's str(); repr() is tf.float32

    def __reduce__(self):
        return as_dtype, (self.name,)


float16 = DType("float16", np.float16)
bfloat16 = DType("bfloat16", ml_dtypes.bfloat16)
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
uint8 = DType("uint8", np.uint8)
uint16 = DType("uint16", np.uint16)
uint32 = DType("uint32", np.uint32)
uint64 = DType("uint64", np.uint64)
bool_ = DType("bool", np.bool_)
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)
string = DType("string", object)
# TF's quantized types: their tensors hold the integers of the storage type (what .numpy() returns), and no
# arithmetic op accepts them (is_integer and is_number are False): only quantize/dequantize and data movement
qint8 = DType("qint8", np.int8, quantized=True)
quint8 = DType("quint8", np.uint8, quantized=True)
qint16 = DType("qint16", np.int16, quantized=True)
quint16 = DType("quint16", np.uint16, quantized=True)
qint32 = DType("qint32", np.int32, quantized=True)
QUANTIZED = (qint8, quint8, qint16, quint16, qint32)
float8_e4m3fn = DType("float8_e4m3fn", ml_dtypes.float8_e4m3fn)
float8_e5m2 = DType("float8_e5m2", ml_dtypes.float8_e5m2)
float8_e4m3fnuz = DType("float8_e4m3fnuz", ml_dtypes.float8_e4m3fnuz)
float8_e5m2fnuz = DType("float8_e5m2fnuz", ml_dtypes.float8_e5m2fnuz)
float8_e4m3b11fnuz = DType("float8_e4m3b11fnuz", ml_dtypes.float8_e4m3b11fnuz)
float4_e2m1fn = DType("float4_e2m1fn", ml_dtypes.float4_e2m1fn)
int4 = DType("int4", ml_dtypes.int4)
uint4 = DType("uint4", ml_dtypes.uint4)
int2 = DType("int2", ml_dtypes.int2)
uint2 = DType("uint2", ml_dtypes.uint2)
NARROW = (float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz, float8_e4m3b11fnuz, float4_e2m1fn, int4, uint4,
          int2, uint2)
# TF's Cast kernel for the narrow types (measured on TF 2.21's CPU kernels): float8_e4m3fn and float8_e5m2 from
# the float types and between each other, to any real, bool or complex type; int4/uint4 to and from the other
# integer types; the rest only to themselves.
_WIDE_FLOATS = ("float16", "bfloat16", "float32", "float64")
_WIDE_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
NARROW_CASTS = {
    "float8_e4m3fn": ("float8_e5m2",),
    "float8_e5m2": ("float8_e4m3fn",),
    "int4": ("uint4",),
    "uint4": ("int4",),
}
NARROW_CASTS.update({name: () for name in _NARROW if name not in NARROW_CASTS})


def narrow_cast_ok(source: DType, target: DType) -> bool:
    """Whether TF's Cast kernel converts `source` to `target` when either is a narrow type."""
    if source.name in NARROW_CASTS and target.name in NARROW_CASTS:
        return target.name in NARROW_CASTS[source.name]
    if source.name in ("float8_e4m3fn", "float8_e5m2"):
        return not target.is_string and target.name not in _OPAQUE
    if target.name in ("float8_e4m3fn", "float8_e5m2"):
        return source.name in _WIDE_FLOATS
    if "int4" in (source.name, target.name) or "uint4" in (source.name, target.name):
        other = target if source.name in NARROW_CASTS else source
        return other.name in _WIDE_INTS
    return False


# tf.resource and tf.variant: the dtypes of handles (variables, tables, iterators) and of opaque values (a
# dataset, a TensorList) in graphs; they hold no numbers, and numpy has no face for them
_OPAQUE = ("resource", "variant")
resource = DType("resource", object)
variant = DType("variant", object)

ALL = (float16, bfloat16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool_,
       complex64, complex128, string)
BY_NAME = {d.name: d for d in ALL + QUANTIZED + NARROW + (resource, variant)}
BY_NAME.update(half=float16, float=float32, double=float64)
# keyed by numpy dtype objects and by numpy scalar types, so both `arr.dtype` and `np.float32` resolve
BY_NP: dict = {d.np: d for d in ALL}
BY_NP.update({d.np.type: d for d in ALL})
BY_NP.update({d.as_numpy_dtype: d for d in QUANTIZED})  # the record types, never the storage integers
BY_NP.update({d.np: d for d in NARROW})
BY_NP.update({d.np.type: d for d in NARROW})
_BY_ENUM = {_ENUM[d.name]: d for d in ALL + QUANTIZED + NARROW + (resource, variant)}
# numpy's fixed-width text and bytes arrays (np.array(["a"])) hold strings too
_TEXT_KINDS = "SU"


def as_dtype(value) -> DType:
    """Return the DType for a DType, a name ('float32'), a numpy dtype or type, Python's bool or float, or TF's
    DataType enum value (2 is float64)."""
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        dtype = BY_NAME.get(value)
    elif value is float:
        dtype = float32
    elif value is bool:
        dtype = bool_
    elif any(value is t for t in (int, str, bytes, complex)):  # TF refuses these Python types (np.str_/np.bytes_
        # are strings); `is`, because np.dtype('int64') == int holds
        dtype = None
    elif isinstance(value, int) and not isinstance(value, bool):  # TF's DataType enum value: 2 is float64
        dtype = _BY_ENUM.get(value)
    else:
        try:
            numpy_dtype = np.dtype(value)
        except TypeError:
            numpy_dtype = None
        dtype = None if numpy_dtype is None else BY_NP.get(numpy_dtype)
        if dtype is None and numpy_dtype is not None and numpy_dtype.kind in _TEXT_KINDS:
            dtype = string
    if dtype is None:
        raise TypeError(f"Cannot convert the argument `type_value`: {value!r} to a TensorFlow DType.")
    return dtype


def of_numpy(array) -> DType:
    """The DType of a numpy array or scalar; a clear error for numpy types tinytf lacks."""
    dtype = BY_NP.get(array.dtype)
    if dtype is None:
        if array.dtype.kind in _TEXT_KINDS:
            return string
        raise TypeError(f"numpy dtype {array.dtype} has no tinytf equivalent")
    return dtype
