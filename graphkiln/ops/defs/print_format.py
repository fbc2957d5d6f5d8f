"""How the ``Print`` primitive writes its values (MindSpore's run-time print format)."""
from __future__ import annotations

import sys

import numpy as np


def format_value(v) -> str:
    from ...common import dtype as mstype
    from ...common.tensor_format import tensor_str
    if isinstance(v, np.ndarray) or isinstance(v, np.generic):
        a = np.asarray(v)
        return tensor_str(a, mstype.from_numpy(a.dtype))
    if isinstance(v, tuple):
        return "(" + ", ".join(format_value(e) for e in v) + ")"
    return str(v)


def print_values(values) -> None:
    """Print each value on its own line, tensors as MindSpore prints them."""
    out = sys.stdout
    out.write("\n".join(format_value(v) for v in values) + "\n")
    out.flush()
