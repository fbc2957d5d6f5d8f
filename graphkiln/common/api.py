"""``mindspore.common.api``: where MindSpore users import ``jit`` (and its old name
``ms_function``) from. One definition each, in the jit layer; this module only names them."""
from ..compiler.jit import jit

ms_function = jit

__all__ = ["jit", "ms_function"]
