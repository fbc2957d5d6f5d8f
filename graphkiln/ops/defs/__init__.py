"""Every primitive's definition; importing this package fills the registry."""
from . import array, conv, effects, grad_ops, gradient, math, nn, norm, optim, pool  # noqa: F401
