"""How the ``Print`` primitive writes its values (MindSpore 2.10's format).

MindSpore's ``ops.Print()(*args)`` writes each argument on its own line: a tensor as its
``repr`` (``Tensor(shape=[3], dtype=Int64, value= [1, 2, 3])``), anything else as Python
``print`` writes it, so a string appears as itself and a tuple as its Python ``repr``,
whose tensor elements again show as ``Tensor(...)``. Inside a compiled graph MindSpore's
graph kernel writes tensors without commas (``value=[1 2 3]``), a 0-d tensor as its bare
value and a Python bool as 0/1 (``graph_format``).
"""
from __future__ import annotations

import sys

import numpy as np

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ...common.tensor_format import tensor_graph_text, tensor_repr


def _tensor_text(v, graph_format: bool = False) -> str | None:
    """``Tensor(...)`` text if ``v`` is a tensor value (a graphkiln Tensor or an array)."""
    text = tensor_graph_text if graph_format else tensor_repr
    if isinstance(v, Tensor):
        if getattr(v, "_node", None) is None:
            return text(v.asnumpy(), v.dtype)
        return repr(v)
    if isinstance(v, (np.ndarray, np.generic)):
        a = np.asarray(v)
        return text(a, mstype.from_numpy(a.dtype))
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


def format_value(v, graph_format: bool = False) -> str:
    """The line ``Print`` writes for one argument."""
    text = _tensor_text(v, graph_format)
    if text is not None:
        return text
    if graph_format and isinstance(v, bool):
        return str(int(v))
    if isinstance(v, (tuple, list, dict)):
        return _repr(v)
    return str(v)


def print_values(values, graph_format: bool = False) -> None:
    """Print each value on its own line, tensors as MindSpore prints them."""
    out = sys.stdout
    out.write("".join(format_value(v, graph_format) + "\n" for v in values))
    out.flush()
