"""How the ``Print`` primitive writes its values (MindSpore 2.10's format).

MindSpore's ``ops.Print()(*args)`` writes each argument on its own line: a tensor as its
``repr`` (``Tensor(shape=[3], dtype=Int64, value= [1, 2, 3])``), anything else as Python
``print`` writes it, so a string appears as itself and a tuple as its Python ``repr``,
whose tensor elements again show as ``Tensor(...)``.
"""
from __future__ import annotations

import sys

import numpy as np

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ...common.tensor_format import tensor_repr


def _tensor_text(v) -> str | None:
    """``Tensor(...)`` text if ``v`` is a tensor value (a graphkiln Tensor or an array)."""
    if isinstance(v, Tensor):
        if getattr(v, "_node", None) is None:
            return tensor_repr(v.asnumpy(), v.dtype)
        return repr(v)
    if isinstance(v, (np.ndarray, np.generic)):
        a = np.asarray(v)
        return tensor_repr(a, mstype.from_numpy(a.dtype))
    return None


def _repr(v) -> str:
    """Python ``repr`` of ``v``, with tensor values written as MindSpore writes them."""
    text = _tensor_text(v)
    if text is not None:
        return text
    if isinstance(v, tuple):
        if len(v) == 1:
            return "(" + _repr(v[0]) + ",)"
        return "(" + ", ".join(_repr(e) for e in v) + ")"
    if isinstance(v, list):
        return "[" + ", ".join(_repr(e) for e in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_repr(k)}: {_repr(e)}" for k, e in v.items()) + "}"
    return repr(v)


def format_value(v) -> str:
    """The line ``Print`` writes for one argument."""
    text = _tensor_text(v)
    if text is not None:
        return text
    if isinstance(v, (tuple, list, dict)):
        return _repr(v)
    return str(v)


def print_values(values) -> None:
    """Print each value on its own line, tensors as MindSpore prints them."""
    out = sys.stdout
    out.write("".join(format_value(v) + "\n" for v in values))
    out.flush()
