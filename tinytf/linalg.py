"""`tf.linalg`: matrix products, norms and matrix functions under their TensorFlow names."""

from tinytf.clip_ops import global_norm  # noqa: F401
from tinytf.runtime.ops.linalg import *  # noqa: F401,F403
from tinytf.runtime.ops.linalg import __all__ as _linalg_names
from tinytf.runtime.ops.linalg import matrix_transpose as transpose  # noqa: F401 - the TF1 name, kept by TF2 code

__all__ = sorted(set(_linalg_names) | {"transpose"})
