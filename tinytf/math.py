"""`tf.math`: the elementwise math functions and the reductions under their TensorFlow names (plus the two
activations and top_k that TensorFlow also lists here)."""

from tinytf.clip_ops import l2_normalize  # noqa: F401 - also tf.math.l2_normalize
from tinytf.runtime.ops.complex import angle, complex, conj, imag, real  # noqa: F401
from tinytf.runtime.ops.counting import bincount, confusion_matrix  # noqa: F401
from tinytf.runtime.ops.math import *  # noqa: F401,F403
from tinytf.runtime.ops.math import __all__ as _math_names
from tinytf.runtime.ops.nn import softplus, softsign  # noqa: F401
from tinytf.runtime.ops.reduce import *  # noqa: F401,F403
from tinytf.runtime.ops.reduce import __all__ as _reduce_names
from tinytf.runtime.ops.search import in_top_k  # noqa: F401
from tinytf.runtime.ops.segment import *  # noqa: F401,F403
from tinytf.runtime.ops.segment import __all__ as _segment_names
from tinytf.runtime.ops.sorting import top_k  # noqa: F401

__all__ = sorted(set(_math_names) | set(_reduce_names) | set(_segment_names)
                 | {"bincount", "confusion_matrix", "in_top_k", "softplus", "softsign", "top_k", "angle", "conj",
                    "imag", "real"})

# --- added by the core-API slice (tinytf/math_core_api.py) -------------------------------------------------------
from tinytf.math_core_api import (  # noqa: E402
    accumulate_n,
    cumulative_logsumexp,
    digamma,
    erfcinv,
    erfinv,
    invert_permutation,
    is_non_decreasing,
    is_strictly_increasing,
    lbeta,
    lgamma,
    log_softmax,
    ndtri,
    nextafter,
    polygamma,
    polyval,
    softmax,
    xlog1py,
    zero_fraction,
    zeta,
)

__all__ += ["accumulate_n", "cumulative_logsumexp", "invert_permutation", "is_non_decreasing",
            "is_strictly_increasing", "log_softmax", "nextafter", "polyval", "softmax", "xlog1py", "zero_fraction",
            "lgamma", "digamma", "polygamma", "zeta", "lbeta", "ndtri", "erfinv", "erfcinv"]

# --- the nn / sparse / ragged leftovers slice ---
from tinytf.nn_leftovers import approx_max_k, approx_min_k  # noqa: E402

__all__ += ["approx_max_k", "approx_min_k"]

from tinytf.runtime.ops.bessel import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e  # noqa: E402

__all__ += ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e"]

# --- the incomplete gamma and beta functions (strmath slice, tinytf/math_special.py) ---
from tinytf.math_special import betainc, igamma, igammac, special  # noqa: E402

__all__ += ["betainc", "igamma", "igammac", "special"]
