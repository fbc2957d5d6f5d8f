"""Batching rules of the row updates (:mod:`..defs.row_updates`) and ``LinSpace``: the op
applied to every example (the rows an example updates are its own)."""
from __future__ import annotations

from ...ir.primitive import REGISTRY
from .batching import _loop_over_batch

for _name in ("InplaceAdd", "InplaceSub", "InplaceUpdate", "InplaceUpdateV2", "LinSpace"):
    REGISTRY[_name].def_vmap(_loop_over_batch(REGISTRY[_name]))
del _name
