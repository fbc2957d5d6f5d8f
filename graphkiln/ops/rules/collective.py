"""Backward rules of the collectives, as MindSpore defines them: AllReduce's is an
AllReduce (masked for MAX/MIN, scaled for PROD), AllGather's a ReduceScatter, ReduceScatter's
an AllGather, AlltoAll's the inverse AlltoAll, Broadcast's the identity.

The collectives are IO effects, so in a traced graph their node also carries the IO monad:
rules take ``(x, *monad, out, dout)``. MindSpore has no batching rules for them, and
vmap refuses effects (see ``NOT_BATCHED`` in vmap.py).
"""
from __future__ import annotations

from ..defs import array as A
from ..defs import collective as C
from ..defs import math as M
from .bprop import bprop


def _out_dout(rest: tuple):
    return rest[-2], rest[-1]


@bprop("AllReduce")
def _all_reduce(x, *rest, op, group):
    out, dout = _out_dout(rest)
    summed = C.AllReduce(dout, op=C.ReduceOp.SUM, group=group)
    if op == C.ReduceOp.SUM:
        return (summed,)
    if op == C.ReduceOp.PROD:
        return (M.Div(C.AllReduce(M.Mul(dout, out), op=C.ReduceOp.SUM, group=group), x),)
    return (M.Mul(summed, A.Cast(M.Equal(x, out), dout.dtype)),)


@bprop("AllGather")
def _all_gather(x, *rest, group):
    return (C.ReduceScatter(_out_dout(rest)[1], op=C.ReduceOp.SUM, group=group),)


@bprop("ReduceScatter")
def _reduce_scatter(x, *rest, op, group):
    if op != C.ReduceOp.SUM:
        raise RuntimeError("The reducescatter bprop only support ReduceOp.SUM until now.")
    return (C.AllGather(_out_dout(rest)[1], group=group),)


@bprop("AlltoAll")
def _all_to_all(x, *rest, split_count, split_dim, concat_dim, group):
    return (C.AlltoAll(_out_dout(rest)[1], split_count=split_count, split_dim=concat_dim,
                       concat_dim=split_dim, group=group),)


@bprop("Broadcast")
def _broadcast(xs, *rest, root_rank, group):
    return (_out_dout(rest)[1],)
