"""``graphkiln.ops.primitive``: the primitive registry, re-exported from the IR layer.

``OpDef``, ``Primitive`` and ``REGISTRY`` are defined in :mod:`graphkiln.ir.primitive`
(the IR applies primitives, so they sit below the ops); this path stays for users and for
modules that define ops.
"""
from ..ir.primitive import (
    IO_EFFECT,
    MEM_EFFECT,
    NO_EFFECT,
    REGISTRY,
    OpDef,
    Primitive,
    apply,
    primitive_class,
)

__all__ = ["OpDef", "Primitive", "REGISTRY", "primitive_class", "apply", "NO_EFFECT",
           "MEM_EFFECT", "IO_EFFECT"]
