"""tf.random.experimental: TF 2.21's experimental random names, each the object TF also exports elsewhere
(stateless_fold_in is tf.random.fold_in, stateless_split tf.random.split), index_shuffle and stateless_shuffle
(TF's permutation for a seed: runtime/ops/stateless_shuffle.py)."""

from .random import Algorithm, Generator, create_rng_state, get_global_generator, set_global_generator  # noqa: F401
from .random import fold_in as stateless_fold_in  # noqa: F401
from .random import split as stateless_split  # noqa: F401
from .random_index_shuffle import index_shuffle  # noqa: F401
from .runtime.ops.stateless_shuffle import stateless_shuffle  # noqa: F401,E402
