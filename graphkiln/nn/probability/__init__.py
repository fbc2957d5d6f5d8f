"""``mindspore.nn.probability``: distributions and bijectors as Cells."""
# distribution first: LogNormal builds on the Exp bijector, and a bijector called on a
# distribution builds a TransformedDistribution
from . import distribution  # isort: skip
from . import bijector

__all__ = ["bijector", "distribution"]
