"""``mindspore.ops.auto_generate.gen_ops_def``: the functional ops (``zeros``, ``ones``,
``add``...), the same ones ``graphkiln.ops`` exposes, and ``copy`` (a new Tensor with
``input``'s values; ``mint.clone``), which ``ops`` does not."""
import graphkiln.ops as _ops
from graphkiln.ops.primitive import REGISTRY as _REGISTRY

__all__ = sorted(name for name in _ops.__all__
                 if name not in _REGISTRY and callable(getattr(_ops, name, None)))
globals().update({name: getattr(_ops, name) for name in __all__})

copy = _ops.tensor_move
__all__.append("copy")


def sub_ext(input, other, alpha=1):  # noqa: A002
    """``input - alpha * other`` (``mint.sub``'s primitive function)."""
    return _ops.sub(input, other if alpha == 1 else _ops.mul(other, alpha))


def add_ext(input, other, alpha=1):  # noqa: A002
    """``input + alpha * other`` (``mint.add``'s primitive function)."""
    return _ops.add(input, other if alpha == 1 else _ops.mul(other, alpha))


__all__ += ["sub_ext", "add_ext"]
