"""``mindspore.scipy.optimize``: ``linear_sum_assignment``."""
from .linear_sum_assignment import linear_sum_assignment  # noqa: F401
