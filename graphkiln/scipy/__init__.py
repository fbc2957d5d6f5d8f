"""``mindspore.scipy``: SciPy-style linear algebra, optimisation and transforms on Tensors."""
from . import fft, linalg, ops, ops_wrapper, optimize, utils  # noqa: F401
