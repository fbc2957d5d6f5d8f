"""``mindspore.nn.probability.bijector``: invertible transformations as Cells."""
from .bijector import Bijector
from .gumbel_cdf import GumbelCDF
from .invert import Invert
from .power_transform import Exp, PowerTransform
from .scalar_affine import ScalarAffine
from .softplus import Softplus

__all__ = ["Bijector", "Exp", "GumbelCDF", "Invert", "PowerTransform", "ScalarAffine",
           "Softplus"]
