"""``nn.thor``: MindSpore's THOR second-order optimizer, which runs on Ascend and GPU only.
graphkiln runs on the CPU and does not provide it; calling it says so (importing it works, so
scripts that pick their optimizer by a flag run with the others)."""
from __future__ import annotations


def thor(net, learning_rate, damping, momentum, weight_decay=0.0, loss_scale=1.0,
         batch_size=32, use_nesterov=False, decay_filter=None, split_indices=None,
         enable_clip_grad=False, frequency=100):
    """Raise: THOR is not available on the CPU."""
    raise RuntimeError("For 'thor', the THOR second-order optimizer runs on Ascend and GPU in "
                       "MindSpore and is not available in graphkiln (CPU); use a first-order "
                       "optimizer such as nn.Momentum or nn.Adam.")
