"""``mindspore.recompute(block, *args, **kwargs)``: run ``block`` so that its activations
are recomputed in the backward pass instead of kept. graphkiln's gradients reuse the
forward values of the traced program, so the call is the block's call (same values and
gradients; the memory trade-off is not made)."""
from __future__ import annotations


def recompute(block, *args, **kwargs):
    """The result of ``block(*args, **kwargs)``."""
    if not callable(block):
        raise TypeError(f"For 'recompute', the 'block' must be a Cell or a function, but got "
                        f"{type(block).__name__}.")
    return block(*args, **kwargs)
