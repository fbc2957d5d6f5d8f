"""``mindspore.communication.comm_func``: the functional collectives.

Each returns ``(tensor, handle)`` as MindSpore's do; graphkiln's collectives complete
before they return, so ``handle`` is ``None`` unless ``async_op=True`` asks for one (whose
``wait()`` returns at once). They apply the collective primitives, so they work eagerly and
inside compiled graphs alike.
"""
from __future__ import annotations

from ..common.tensor import Tensor
from ..ops.defs import collective as C
from ..ops.defs.collective import ReduceOp
from .management import GlobalComm

__all__ = ["all_reduce", "all_gather_into_tensor", "reduce_scatter_tensor", "broadcast",
           "barrier", "CommHandle"]


class CommHandle:
    """The handle of a collective that already completed."""

    def wait(self) -> None:
        return None


def _check_tensor(api: str, tensor) -> None:
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For {api}, the input tensor must be tensor")


def _check_op(api: str, op) -> None:
    if not isinstance(op, str):
        raise TypeError(f"For {api}, the input op type must be str")
    if op not in (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD):
        raise TypeError(f"For {api}, the input op value must be one of sum, prod, min, max")


def _outputs(out: Tensor, async_op: bool) -> tuple:
    return (out, CommHandle() if async_op else None)


def all_reduce(tensor: Tensor, op: str = ReduceOp.SUM,
               group: str = GlobalComm.WORLD_COMM_GROUP, async_op: bool = False) -> tuple:
    """Reduce ``tensor`` over ``group`` with ``op``; every rank gets the result."""
    _check_tensor("all_reduce", tensor)
    _check_op("all_reduce", op)
    return _outputs(C.AllReduce(tensor, op=op, group=group), async_op)


def all_gather_into_tensor(tensor: Tensor, group: str = GlobalComm.WORLD_COMM_GROUP,
                           async_op: bool = False) -> tuple:
    """Concatenate every rank's ``tensor`` along axis 0, in rank order."""
    _check_tensor("all_gather_into_tensor", tensor)
    return _outputs(C.AllGather(tensor, group=group), async_op)


def reduce_scatter_tensor(tensor: Tensor, op: str = ReduceOp.SUM,
                          group: str = GlobalComm.WORLD_COMM_GROUP,
                          async_op: bool = False) -> tuple:
    """Reduce over ``group``, then rank ``i`` keeps the ``i``-th block of axis 0."""
    _check_tensor("reduce_scatter_tensor", tensor)
    _check_op("reduce_scatter_tensor", op)
    return _outputs(C.ReduceScatter(tensor, op=op, group=group), async_op)


def broadcast(tensor: Tensor, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """Rank ``src``'s ``tensor`` on every rank."""
    _check_tensor("broadcast", tensor)
    if not isinstance(src, int):
        raise TypeError("For broadcast, the src must be int")
    return C.Broadcast((tensor,), root_rank=src, group=group)[0]


def barrier(group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
    """Wait until every rank of ``group`` reaches the barrier."""
    if not isinstance(group, str):
        raise TypeError(f"group must be type of string, but got {type(group)}")
    C.Barrier(group=group)
