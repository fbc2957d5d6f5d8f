"""``mindspore.experimental``: the PyTorch-style optimizers and learning-rate schedulers
(``experimental.optim``, ``experimental.optim.lr_scheduler``)."""
from . import optim  # noqa: F401

__all__ = ["optim"]
