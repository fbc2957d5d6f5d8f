"""``mindspore.nn.probability.distribution``: probability distributions as Cells."""
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .exponential import Exponential
from .half_normal import HalfNormal
from .laplace import Laplace
from .log_normal import LogNormal
from .normal import Normal
from .student_t import StudentT
from .transformed_distribution import TransformedDistribution
from .uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "Exponential", "HalfNormal",
           "Laplace", "LogNormal", "Normal", "StudentT", "TransformedDistribution", "Uniform"]
