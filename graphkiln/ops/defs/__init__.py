"""Every primitive's definition; importing this package fills the registry."""
from . import array, collective, effects, grad_ops, math, nn  # noqa: F401
