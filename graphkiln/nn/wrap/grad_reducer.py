"""``DistributedGradReducer``: all-reduce the gradients of data-parallel replicas.

Gradients are fused into buckets (consecutive gradients of one dtype, up to
``BUCKET_BYTES`` each), so a step sends a few large messages instead of one per weight;
``fusion_type=0`` sends one AllReduce per gradient (MindSpore's "no fusion").
"""
from __future__ import annotations

import numpy as np

from ...common import comm_engine
from ...common.tensor import Tensor
from ...ops import functional as F
from ...ops.defs import array as A
from ...ops.defs import collective as C
from ...ops.defs.collective import WORLD_COMM_GROUP
from ...parallel.context import get_auto_parallel_context
from ..cell import Cell

BUCKET_BYTES = 32 << 20


def plan_buckets(parameters, bucket_bytes: int = BUCKET_BYTES) -> list[list[int]]:
    """Indices of the gradients fused together: consecutive runs of one dtype, each run
    cut before it would exceed ``bucket_bytes`` (a larger single gradient is alone)."""
    buckets: list[list[int]] = []
    size = 0
    dtype = None
    for i, p in enumerate(parameters):
        nbytes = int(np.prod(p.shape, dtype=np.int64)) * p.dtype.np_dtype.itemsize
        if not buckets or p.dtype is not dtype or size + nbytes > bucket_bytes:
            buckets.append([])
            size, dtype = 0, p.dtype
        buckets[-1].append(i)
        size += nbytes
    return buckets


class DistributedGradReducer(Cell):
    """Sum (or average) every gradient over the replicas of ``group``.

    ``mean`` defaults to the ``gradients_mean`` of the auto-parallel context and
    ``degree`` to the group's size; ``fusion_type=0`` disables bucketing.
    """

    def __init__(self, parameters, mean: bool | None = None, degree: int | None = None,
                 fusion_type: int = 1, group: str = WORLD_COMM_GROUP):
        super().__init__(auto_prefix=False)
        if mean is None:
            mean = get_auto_parallel_context("gradients_mean")
        if degree is None:
            degree = comm_engine.group(group).size
        if not isinstance(degree, int) or isinstance(degree, bool) or degree <= 0:
            raise ValueError(f"For 'DistributedGradReducer', the 'degree' must be a positive "
                             f"int, but got {degree}.")
        self.mean = bool(mean)
        self.degree = degree
        self.group = group
        self.shapes = [tuple(p.shape) for p in parameters]
        self.buckets = plan_buckets(parameters) if fusion_type else [
            [i] for i in range(len(self.shapes))]

    def construct(self, grads):
        out = list(grads)
        for bucket in self.buckets:
            for i, g in zip(bucket, self.reduce_bucket([grads[i] for i in bucket])):
                out[i] = g
        return tuple(out)

    def reduce_bucket(self, grads: list) -> list:
        """All-reduce ``grads`` as one flat message, then cut it back into their shapes."""
        if len(grads) == 1:
            return [self.scale(C.AllReduce(grads[0], op=C.ReduceOp.SUM, group=self.group))]
        flat = A.Concat(tuple(A.Reshape(g, (-1,)) for g in grads), axis=0)
        flat = self.scale(C.AllReduce(flat, op=C.ReduceOp.SUM, group=self.group))
        sizes = tuple(int(np.prod(g.shape, dtype=np.int64)) for g in grads)
        parts = A.SplitV(flat, size_splits=sizes, split_dim=0, num_split=len(sizes))
        return [A.Reshape(p, tuple(g.shape)) for p, g in zip(parts, grads)]

    def scale(self, g: Tensor) -> Tensor:
        if not self.mean or self.degree == 1:
            return g
        return F.mul(g, F.cast(Tensor(np.float32(1.0 / self.degree)), g.dtype))
