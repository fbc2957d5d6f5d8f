"""``nn.init``: the weight initializers, defined in :mod:`graphkiln.common.initializer`
(``mindspore.common.initializer``, where MindSpore users import them from)."""
from ..common.initializer import *  # noqa: F401,F403
from ..common.seed import get_seed, rng, set_seed  # noqa: F401
