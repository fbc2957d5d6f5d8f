"""Every primitive's definition; importing this package fills the registry."""
from . import array, effects, grad_ops, introspect, math, nn, scatter  # noqa: F401
