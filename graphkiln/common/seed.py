"""``mindspore.common.seed``: the global seed (``set_seed``/``get_seed``)."""
from .initializer import get_seed, set_seed

__all__ = ["set_seed", "get_seed"]
