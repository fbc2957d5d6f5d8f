"""``ops.composite.add_flags``: attach graph flags to a function or cell (kept on
``_func_graph_flags``, MindSpore's attribute, for code that reads them back)."""
from __future__ import annotations


def add_flags(fn=None, **flags):
    """Decorator (``@add_flags(k=v)``) or call (``add_flags(fn, k=v)``) adding ``flags``."""
    def deco(target):
        known = getattr(target, "_func_graph_flags", None)
        if known is None:
            known = {}
            object.__setattr__(target, "_func_graph_flags", known)
        known.update(flags)
        return target
    return deco if fn is None else deco(fn)
