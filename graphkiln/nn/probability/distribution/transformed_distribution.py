"""``TransformedDistribution`` (defined with the Bijector base class it pairs with)."""
from ..bijector.bijector import TransformedDistribution

__all__ = ["TransformedDistribution"]
