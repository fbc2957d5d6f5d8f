"""Transformation rules attached to the primitives: backward (``bprop``) and batching."""
from . import (
    bprop,  # noqa: F401
    bprop_nn,  # noqa: F401
    vmap,  # noqa: F401
    vmap_nn,  # noqa: F401
)
