"""Every primitive's definition; importing this package fills the registry."""
from . import array, effects, grad_ops, math, nn  # noqa: F401
