"""Summary primitives, as MindSpore's: ``ScalarSummary``, ``TensorSummary``,
``ImageSummary``, ``HistogramSummary`` (``op(name, value)``).

Each is an IO effect (ordered on the ``IO`` chain, kept although its result is unused) that
hands a copy of ``value`` to the summary buffer (:mod:`graphkiln.common.summary_data`),
where ``SummaryRecord.record`` collects it. The result is an unused 0-d int32, as
MindSpore's is a placeholder.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...common import summary_data
from ...ir.abstract import AbstractScalar, AbstractTensor
from ...ir.primitive import IO_EFFECT, OpDef
from ._infer import describe


def _summary_op(name: str, plugin: str) -> OpDef:
    def infer(tag, value):
        if not isinstance(tag, AbstractScalar) or not isinstance(tag.value, str):
            raise TypeError(f"For '{name}', the 'name' must be a str, but got "
                            f"{describe(tag)}.")
        if not tag.value:
            raise ValueError(f"For '{name}', the name must be valid string, but got "
                             f"'{tag.value}'.")
        if not isinstance(value, AbstractTensor):
            raise TypeError(f"For '{name}', the 'value' must be a Tensor, but got "
                            f"{describe(value)}.")
        return AbstractTensor(mstype.int32, ())

    def kernel(tag, value):
        summary_data.put(plugin, tag, np.asarray(value))
        return np.zeros((), np.int32)

    return OpDef(name, infer, kernel, effect=IO_EFFECT, differentiable=False)


ScalarSummary = _summary_op("ScalarSummary", "scalar")
TensorSummary = _summary_op("TensorSummary", "tensor")
ImageSummary = _summary_op("ImageSummary", "image")
HistogramSummary = _summary_op("HistogramSummary", "histogram")
