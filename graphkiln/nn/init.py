"""``nn.init``: the weight initializers of :mod:`graphkiln.common.initializer` (MindSpore's
``mindspore.common.initializer``) and ``set_seed``, under their older path."""
from ..common.initializer import (  # noqa: F401
    Constant,
    HeNormal,
    HeUniform,
    Initializer,
    Normal,
    One,
    TruncatedNormal,
    Uniform,
    XavierUniform,
    Zero,
    get_seed,
    initializer,
    rng,
    set_seed,
)
