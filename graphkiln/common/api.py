"""``mindspore.common.api``: where MindSpore users import ``jit`` (and its old name
``ms_function``) from, plus the executor handles scripts touch. One definition each, in the
jit layer; this module only names them."""
from ..compiler.jit import jit

ms_function = jit


class _PynativeExecutor:
    """MindSpore's PyNative executor handle. graphkiln runs every op synchronously, so
    ``sync()`` has nothing to wait for."""

    def sync(self) -> None:
        """Wait for pending device work: there is none."""

    def set_grad_flag(self, flag: bool) -> None:
        """Accepted: gradients never need enabling in graphkiln."""


_pynative_executor = _PynativeExecutor()

__all__ = ["jit", "ms_function"]
