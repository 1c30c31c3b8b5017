"""tf.compat.v1.distributions: TF1's deprecated probability distributions (TF 2.21 still ships them), one
module per distribution, on the base class of distribution.py and the KL registry of kullback_leibler.py."""

from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import FULLY_REPARAMETERIZED, NOT_REPARAMETERIZED, Distribution, ReparameterizationType
from .kullback_leibler import RegisterKL, kl_divergence
from .normal import Normal
from .uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "FULLY_REPARAMETERIZED", "NOT_REPARAMETERIZED", "Normal",
           "RegisterKL", "ReparameterizationType", "Uniform", "kl_divergence"]
