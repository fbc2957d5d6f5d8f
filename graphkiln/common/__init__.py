"""``graphkiln.common``: dtypes, Tensor, Parameter and the cell/class decorators."""
from . import dtype  # noqa: F401
from .lazy_inline import lazy_inline  # noqa: F401
