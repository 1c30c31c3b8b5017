"""tf.experimental.numpy (tnp): TF 2.21's NumPy API on tinytf tensors. `tnp.ndarray` is tf.Tensor; functions
take tensors, numpy arrays and Python values, infer dtypes as NumPy does (Python floats float64, ints int64;
float32 with experimental_enable_numpy_behavior(prefer_float32=True)), and are built of tinytf ops, so they run
eagerly and inside tf.function and have gradients wherever the ops do."""

import numpy as _np

from . import np_random as random  # noqa: F401 - tnp.random
from .np_arrays import *  # noqa: F403
from .np_arrays import __all__ as _arrays
from .np_behavior import _disable_numpy_behavior, experimental_enable_numpy_behavior  # noqa: F401
from .np_creation import *  # noqa: F403
from .np_creation import __all__ as _creation
from .np_dtypes import (  # noqa: F401
                        bool_,
                        complex64,
                        complex128,
                        complex_,
                        finfo,
                        float16,
                        float32,
                        float64,
                        float_,
                        iinfo,
                        inexact,
                        int8,
                        int16,
                        int32,
                        int64,
                        int_,
                        issubdtype,
                        object_,
                        promote_types,
                        result_type,
                        string_,
                        uint8,
                        uint16,
                        uint32,
                        uint64,
                        unicode_,
)
from .np_math import *  # noqa: F403
from .np_math import __all__ as _math
from .np_products import *  # noqa: F403
from .np_products import __all__ as _products
from .np_reductions import *  # noqa: F403
from .np_reductions import __all__ as _reductions
from .np_shapes import *  # noqa: F403
from .np_shapes import __all__ as _shapes

e = _np.e
pi = _np.pi
inf = _np.inf
newaxis = _np.newaxis

_DTYPES = ["bool_", "complex64", "complex128", "complex_", "float16", "float32", "float64", "float_", "inexact",
           "int8", "int16", "int32", "int64", "int_", "object_", "string_", "uint8", "uint16", "uint32", "uint64",
           "unicode_", "finfo", "iinfo", "issubdtype", "promote_types", "result_type"]
__all__ = sorted({*_arrays, *_creation, *_math, *_products, *_reductions, *_shapes, *_DTYPES, "e", "pi", "inf",
                  "newaxis", "random", "experimental_enable_numpy_behavior"})
