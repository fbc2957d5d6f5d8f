"""Transformation rules attached to the primitives: backward (``bprop``) and batching."""
from . import batching, batching_nn, bprop, bprop_nn  # noqa: F401  (importing attaches the rules)
