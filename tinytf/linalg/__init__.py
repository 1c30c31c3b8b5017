"""`tf.linalg`: matrix products, norms, decompositions, solvers, matrix functions and the LinearOperator family
under their TensorFlow names."""

from tinytf.clip_ops import global_norm  # noqa: F401
from tinytf.runtime.ops.linalg import *  # noqa: F401,F403
from tinytf.runtime.ops.linalg import __all__ as _linalg_names
from tinytf.runtime.ops.linalg import matrix_transpose as transpose  # noqa: F401 - the TF1 name, kept by TF2 code


def band_part(input, num_lower, num_upper, name=None):  # noqa: A002 - TF's argument name
    """`tf.linalg.band_part`: keep the entries of each innermost matrix within `num_lower` diagonals below and
    `num_upper` above the main one (a negative count keeps that whole triangle); zero the rest."""
    import tinytf as _tf

    x = _tf.convert_to_tensor(input)
    if len(x.shape) < 2:
        raise ValueError(f"tf.linalg.band_part: input must be at least 2-dim, received shape {x.shape}")
    shape = _tf.shape(x, out_type=_tf.int64)
    lower = _tf.cast(num_lower, _tf.int64)
    upper = _tf.cast(num_upper, _tf.int64)
    rows = _tf.expand_dims(_tf.range(shape[-2]), -1)
    columns = _tf.expand_dims(_tf.range(shape[-1]), 0)
    keep = _tf.logical_and(_tf.logical_or(lower < 0, rows - columns <= lower),
                           _tf.logical_or(upper < 0, columns - rows <= upper))
    return _tf.where(keep, x, _tf.zeros_like(x), name=name)


from . import experimental  # noqa: E402,F401 - tf.linalg.experimental
from .decompositions import *  # noqa: E402,F403 - after band_part, which they use through tf.linalg
from .decompositions import __all__ as _decompositions  # noqa: E402
from .linear_operator import LinearOperator  # noqa: E402,F401
from .linear_operator_adjoint import LinearOperatorAdjoint, LinearOperatorInversion  # noqa: E402,F401
from .linear_operator_basic import *  # noqa: E402,F403
from .linear_operator_basic import __all__ as _basic_operators  # noqa: E402
from .linear_operator_circulant import *  # noqa: E402,F403
from .linear_operator_circulant import __all__ as _circulant_operators  # noqa: E402
from .linear_operator_composition import *  # noqa: E402,F403
from .linear_operator_composition import __all__ as _composite_operators  # noqa: E402
from .structured import *  # noqa: E402,F403
from .structured import __all__ as _structured  # noqa: E402

__all__ = sorted(set(_linalg_names) | {"transpose", "band_part"} | set(_decompositions) | set(_structured)
                 | {"LinearOperator", "LinearOperatorAdjoint", "LinearOperatorInversion"} | set(_basic_operators)
                 | set(_composite_operators) | set(_circulant_operators) | {"experimental"})
