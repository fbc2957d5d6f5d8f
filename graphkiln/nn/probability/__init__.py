"""``mindspore.nn.probability``: distributions, bijectors and Bayesian layers."""
from . import distribution

__all__ = ["distribution"]
