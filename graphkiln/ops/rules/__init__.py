"""Transformation rules attached to the primitives: backward (``bprop``) and batching."""
from . import (
    bprop,  # noqa: F401
    collective,  # noqa: F401
    vmap,  # noqa: F401
)
