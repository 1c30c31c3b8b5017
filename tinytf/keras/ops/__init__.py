"""keras.ops: Keras 3's backend-agnostic operations, on tinytf (Keras' TensorFlow-backend semantics and dtype
rules). The flat namespace holds every function; `keras.ops.numpy`, `.nn`, `.linalg` and `.image` are the
subnamespaces TF 2.21 exposes. Each function works on tensors, numpy arrays and Python values, eagerly, inside
tf.function and layers' call, and on KerasTensors (it then becomes a node of a Functional model)."""

from ..models.keras_tensor import KerasTensor as _KerasTensor
from . import core, dtype_rules, einops, image, linalg, math, nn, numpy, spectral  # noqa: F401 - subnamespaces
from . import numpy as _numpy_ops
from .core import *  # noqa: F403
from .einops import rearrange  # noqa: F401
from .linalg import *  # noqa: F403
from .math import *  # noqa: F403
from .nn import *  # noqa: F403
from .numpy import *  # noqa: F403
from .spectral import *  # noqa: F403
from .symbolic import install_operators as _install_operators

_install_operators(_KerasTensor, _numpy_ops)

__all__ = sorted({*core.__all__, *linalg.__all__, *math.__all__, *nn.__all__, *numpy.__all__, *spectral.__all__,
                  "rearrange", "image", "linalg", "nn", "numpy"})

# CTC (ctc.py): in the flat namespace and in keras.ops.nn, as TF 2.21 exposes them
from .ctc import ctc_decode, ctc_loss  # noqa: E402

nn.ctc_decode, nn.ctc_loss = ctc_decode, ctc_loss
__all__ = sorted({*__all__, "ctc_decode", "ctc_loss"})
