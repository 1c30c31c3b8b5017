"""`tf.random`: seeded random tensors (uniform, normal, truncated_normal, shuffle), tf.random.set_seed, and
the stateless ops whose numbers depend only on a seed argument (stateless_uniform, split, fold_in, ...), and
tf.random.Generator, whose state is a variable."""

from tinytf.runtime.ops import random as _stateful
from tinytf.runtime.ops import stateless_random as _stateless
from tinytf.runtime.ops.candidate_sampling import (  # noqa: F401
    all_candidate_sampler,
    log_uniform_candidate_sampler,
    uniform_candidate_sampler,
)
from tinytf.runtime.ops.random import *  # noqa: F401,F403
from tinytf.runtime.ops.stateless_random import *  # noqa: F401,F403

from . import random_distributions as _distributions
from . import random_generator as _generator
from .random_distributions import *  # noqa: F401,F403
from .random_generator import *  # noqa: F401,F403

__all__ = [*_stateful.__all__, *_stateless.__all__, *_generator.__all__, *_distributions.__all__,
           "all_candidate_sampler", "log_uniform_candidate_sampler", "uniform_candidate_sampler"]

# --- the nn / sparse / ragged leftovers slice: unigram candidate samplers --------------------------------------
from tinytf.runtime.ops.unigram_sampling import (  # noqa: E402
    fixed_unigram_candidate_sampler,
    learned_unigram_candidate_sampler,
)

__all__ += ["fixed_unigram_candidate_sampler", "learned_unigram_candidate_sampler"]
