"""``mindspore.mint.optim``: ``AdamW``, ``Adam``, ``SGD`` and ``FusedAdamW`` with PyTorch's
update rules, on ``experimental.optim``'s ``Optimizer`` (parameter groups, learning-rate
Parameters that the ``experimental.optim.lr_scheduler`` schedulers write)."""
from .adam import Adam
from .adamw import AdamW
from .fused_adamw import FusedAdamW
from .sgd import SGD

__all__ = ["AdamW", "Adam", "SGD", "FusedAdamW"]
