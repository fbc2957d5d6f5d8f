"""Backward rules of the communication primitives, as MindSpore defines them: AllReduce's
is an AllReduce (masked for MAX/MIN, scaled for PROD), AllGather's a ReduceScatter,
ReduceScatter's an AllGather, AlltoAll's (and AlltoAllV's) the inverse exchange, Broadcast's
the identity; Reduce's and CollectiveGather's a Broadcast from the root, CollectiveScatter's
a CollectiveGather to it; Send's a Receive from its destination, Receive's a Send back.

The collectives are IO effects, so in a traced graph their node also carries the IO monad:
rules take ``(x, *monad, out, dout)``. MindSpore has no batching rules for them, and
vmap refuses effects (see ``NOT_BATCHED`` in vmap.py).
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ...common import comm_engine as engine
from ...common.tensor import Tensor
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


def _inputs_out_dout(rest: tuple):
    """The data inputs (monads dropped), ``out`` and ``dout`` of a rule's arguments."""
    return [a for a in rest[:-2] if isinstance(a, Tensor)], rest[-2], rest[-1]


def _my_rank(group: str) -> int:
    return engine.group(group).rank


@bprop("Reduce")
def _reduce(x, *rest, dest_rank, op, group):
    dout = _out_dout(rest)[1]
    mine = dout if _my_rank(group) == dest_rank else F.zeros_like(x)
    return (C.Broadcast((mine,), root_rank=dest_rank, group=group)[0],)


@bprop("CollectiveGather")
def _collective_gather(x, *rest, dest_rank, group):
    dout = _out_dout(rest)[1]
    rank, n = _my_rank(group), engine.group(group).size
    if rank != dest_rank:
        dout = Tensor(np.zeros((x.shape[0] * n,) + tuple(x.shape[1:]), x.dtype.np_dtype))
    whole = C.Broadcast((dout,), root_rank=dest_rank, group=group)[0]
    return (F.split(whole, x.shape[0])[rank],)


@bprop("CollectiveScatter")
def _collective_scatter(x, *rest, src_rank, group):
    gathered = C.CollectiveGather(_out_dout(rest)[1], dest_rank=src_rank, group=group)
    if _my_rank(group) == src_rank:
        return (gathered,)
    return (F.depend(F.zeros_like(x), gathered),)


@bprop("AlltoAllV")
def _all_to_all_v(x, send_numel_list, recv_numel_list, *rest, group, block_size):
    dx = C.AlltoAllV(_out_dout(rest)[1], recv_numel_list, send_numel_list, group=group,
                     block_size=block_size)
    return (F.reshape(dx, x.shape), None, None)


@bprop("Send")
def _send(x, *rest, sr_tag, dest_rank, group, group_back):
    return (C.Receive(sr_tag=sr_tag, src_rank=dest_rank, shape=tuple(x.shape), dtype=x.dtype,
                      group=group_back, group_back=group),)


@bprop("Receive")
def _receive(*rest, sr_tag, src_rank, shape, dtype, group, group_back):
    xs, _, dout = _inputs_out_dout(rest)
    sent = C.Send(dout, sr_tag=sr_tag, dest_rank=src_rank, group=group_back, group_back=group)
    return tuple(F.depend(F.zeros_like(x), sent) for x in xs)
