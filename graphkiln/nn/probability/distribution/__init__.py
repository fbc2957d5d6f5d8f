"""``mindspore.nn.probability.distribution``: probability distributions as Cells."""
from .bernoulli import Bernoulli
from .beta import Beta
from .categorical import Categorical
from .cauchy import Cauchy
from .distribution import Distribution
from .exponential import Exponential
from .gamma import Gamma
from .geometric import Geometric
from .gumbel import Gumbel
from .half_normal import HalfNormal
from .laplace import Laplace
from .log_normal import LogNormal
from .logistic import Logistic
from .normal import Normal
from .poisson import Poisson
from .student_t import StudentT
from .transformed_distribution import TransformedDistribution
from .uniform import Uniform

__all__ = ["Bernoulli", "Beta", "Categorical", "Cauchy", "Distribution", "Exponential",
           "Gamma", "Geometric", "Gumbel", "HalfNormal", "Laplace", "LogNormal", "Logistic",
           "Normal", "Poisson", "StudentT", "TransformedDistribution", "Uniform"]
