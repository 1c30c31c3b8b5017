"""keras.ops.numpy: NumPy's names and broadcasting with Keras 3's dtype rules (result_type: Python scalars are
weak, integer inputs of float functions become floatx, int64 inputs of them floatx too), composed of tinytf's
public functions so that every op works eagerly, in tf.function, in layers, and has tinytf's gradients."""

from . import numpy_bitwise, numpy_creation, numpy_elementwise, numpy_products, numpy_reductions  # noqa: I001
from . import numpy_shapes, numpy_special
from .numpy_bitwise import *  # noqa: F403
from .numpy_creation import *  # noqa: F403
from .numpy_elementwise import *  # noqa: F403
from .numpy_products import *  # noqa: F403
from .numpy_promotion import _float_input  # noqa: F401 - the float rule nn, math and linalg share
from .numpy_reductions import *  # noqa: F403
from .numpy_shapes import *  # noqa: F403
from .numpy_special import *  # noqa: F403
from .symbolic import export_all

__all__ = sorted({*numpy_bitwise.__all__, *numpy_creation.__all__, *numpy_elementwise.__all__,
                  *numpy_products.__all__, *numpy_reductions.__all__, *numpy_shapes.__all__, *numpy_special.__all__})
# Functions without tensor arguments never see a KerasTensor; the rest also build Functional-model nodes.
_NO_TENSOR_ARGUMENTS = ("ndim", "vectorize", "bartlett", "blackman", "hamming", "hanning", "kaiser", "eye",
                        "identity", "tri", "zeros", "ones", "empty", "full", "arange", "linspace", "logspace",
                        "geomspace")
export_all(globals(), [n for n in __all__ if n not in _NO_TENSOR_ARGUMENTS])
