"""tf.compat.v1.distributions: TF1's deprecated probability distributions (TF 2.21 still ships them), one
module per distribution, on the base class of distribution.py and the KL registry of kullback_leibler.py."""

from .bernoulli import Bernoulli
from .beta import Beta
from .categorical import Categorical
from .dirichlet import Dirichlet
from .dirichlet_multinomial import DirichletMultinomial
from .distribution import FULLY_REPARAMETERIZED, NOT_REPARAMETERIZED, Distribution, ReparameterizationType
from .exponential import Exponential
from .gamma import Gamma
from .kullback_leibler import RegisterKL, kl_divergence
from .laplace import Laplace
from .multinomial import Multinomial
from .normal import Normal
from .student_t import StudentT
from .uniform import Uniform

__all__ = ["Bernoulli", "Beta", "Categorical", "Dirichlet", "DirichletMultinomial", "Distribution", "Exponential",
           "FULLY_REPARAMETERIZED", "Gamma", "Laplace", "Multinomial", "NOT_REPARAMETERIZED", "Normal", "RegisterKL",
           "ReparameterizationType", "StudentT", "Uniform", "kl_divergence"]
