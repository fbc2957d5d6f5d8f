"""Transformation rules attached to the primitives: backward (``bprop``) and batching."""
from . import bprop  # noqa: F401
from . import vmap  # noqa: F401
