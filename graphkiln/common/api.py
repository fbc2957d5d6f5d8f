"""``mindspore.common.api``: where MindSpore users import ``jit`` (and its old name
``ms_function``) from, plus the executor handles scripts touch. One definition each, in the
jit layer; this module only names them."""
from ..compiler.jit import compiled_graph_count, jit

ms_function = jit


class _PynativeExecutor:
    """MindSpore's PyNative executor handle. graphkiln runs every op synchronously, so
    ``sync()`` has nothing to wait for."""

    def sync(self) -> None:
        """Wait for pending device work: there is none."""

    def set_grad_flag(self, flag: bool) -> None:
        """Accepted: gradients never need enabling in graphkiln."""


_pynative_executor = _PynativeExecutor()


class _CompiledGraphs:
    """``ms_compile_cache``: the graphs compiled in this process that are still cached
    (``len()`` counts them; a call with a new input signature adds one)."""

    def __len__(self) -> int:
        return compiled_graph_count()

    def __repr__(self) -> str:
        return f"<{len(self)} compiled graphs>"


ms_compile_cache = _CompiledGraphs()

__all__ = ["jit", "ms_function"]
