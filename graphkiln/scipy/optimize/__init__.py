"""``mindspore.scipy.optimize``: ``minimize`` (BFGS), ``line_search`` and
``linear_sum_assignment``."""
from .line_search import line_search  # noqa: F401
from .linear_sum_assignment import linear_sum_assignment  # noqa: F401
from .minimize import minimize  # noqa: F401
