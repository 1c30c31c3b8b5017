"""The op functions exported at the top level of `tinytf` under their TensorFlow names: every public
function of the array, math and reduction families, plus the control-flow and print functions."""

from tinytf.runtime.ops.array import *  # noqa: F401,F403
from tinytf.runtime.ops.complex import complex, transpose  # noqa: F401 - transpose: the conjugating one
from tinytf.runtime.ops.control import case, cond, switch_case, while_loop  # noqa: F401
from tinytf.runtime.ops.counting import histogram_fixed_width, histogram_fixed_width_bins  # noqa: F401
from tinytf.runtime.ops.indexing import *  # noqa: F401,F403
from tinytf.runtime.ops.io import print_ as print  # noqa: F401
from tinytf.runtime.ops.linalg import einsum, eye, matmul, norm, tensordot  # noqa: F401
from tinytf.runtime.ops.math import *  # noqa: F401,F403
from tinytf.runtime.ops.reduce import *  # noqa: F401,F403
from tinytf.runtime.ops.saturate import saturate_cast  # noqa: F401
from tinytf.runtime.ops.scatter import *  # noqa: F401,F403
from tinytf.runtime.ops.search import searchsorted  # noqa: F401
from tinytf.runtime.ops.set_ops import *  # noqa: F401,F403
from tinytf.runtime.ops.sorting import *  # noqa: F401,F403
from tinytf.strings import as_string  # noqa: F401,E402
