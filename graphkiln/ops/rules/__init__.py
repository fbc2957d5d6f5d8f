"""Transformation rules attached to the primitives: backward (``bprop``) and batching."""
from . import batching, bprop, collective  # noqa: F401  (importing attaches the rules)
