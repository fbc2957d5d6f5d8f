"""``mindspore.nn.probability``: distributions and bijectors as Cells."""
from . import bijector, distribution

__all__ = ["bijector", "distribution"]
