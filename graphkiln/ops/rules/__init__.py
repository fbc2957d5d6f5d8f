"""Transformation rules attached to the primitives: backward (``bprop``) and batching."""
from . import (  # noqa: F401  (importing attaches the rules)
    batching,
    batching_nn,
    bce,
    bprop,
    bprop_nn,
    bprop_sequence,
    collective,
    ctc,
    cumulative,
    dropout_nd,
    elementwise,
    kl_div,
    regions,
    row_updates,
    segment,
    space_rearrange,
)
