"""``mindspore.mint.linalg``: norms (the same functions as ``ops``)."""
from ..ops.norms import vector_norm

__all__ = ["vector_norm"]
