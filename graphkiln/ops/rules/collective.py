"""Backward rules of the communication primitives, as MindSpore defines them: AllReduce's
is an AllReduce (masked for MAX/MIN, scaled for PROD), AllGather's a ReduceScatter,
ReduceScatter's an AllGather, AlltoAll's (and AlltoAllV's) the inverse exchange, Broadcast's
the identity; Reduce's and CollectiveGather's a Broadcast from the root, CollectiveScatter's
a CollectiveGather to it; Send's a Receive from its destination, Receive's a Send back.

The collectives are IO effects, so in a traced graph their node also carries the IO monad:
rules take ``(x, *monad, out, dout)``.

Batching rules: vmap of a collective is one collective on the batched tensor, equal to a
loop of per-example calls (MindSpore's vmap loops); the point-to-point transfers and
AlltoAllV are not batched (a batched message would not match the per-example receives).
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ...common import comm_engine as engine
from ...common.tensor import Tensor
from ..defs import array as A
from ..defs import collective as C
from ..defs import math as M
from .batching import broadcast_batch, move_axis, rule_for, to_front
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


# ------------------------------------------------------------------ batching rules
# One batched collective gives what a loop of per-example ones gives: the batch axis is
# moved out of the way of the axis the collective works on (axis 0 of each example).

@rule_for("AllReduce")
def _vmap_all_reduce(x, *, dims, op, group):
    return C.AllReduce(x, op=op, group=group), dims[0]


def _second(x, d):
    """``x`` with its batch axis ``d`` at position 1 (behind each example's axis 0)."""
    return x if d is None else move_axis(x, d, 1)


def _after_axis_zero(d) -> int | None:
    return None if d is None else 1


@rule_for("AllGather")
def _vmap_all_gather(x, *, dims, group):
    return C.AllGather(_second(x, dims[0]), group=group), _after_axis_zero(dims[0])


@rule_for("ReduceScatter")
def _vmap_reduce_scatter(x, *, dims, op, group):
    return (C.ReduceScatter(_second(x, dims[0]), op=op, group=group),
            _after_axis_zero(dims[0]))


@rule_for("CollectiveScatter")
def _vmap_collective_scatter(x, *, dims, src_rank, group):
    return (C.CollectiveScatter(_second(x, dims[0]), src_rank=src_rank, group=group),
            _after_axis_zero(dims[0]))


@rule_for("Reduce")
def _vmap_reduce(x, *, dims, dest_rank, op, group):
    out = C.Reduce(x, dest_rank=dest_rank, op=op, group=group)
    if dims[0] is None or _my_rank(group) == dest_rank:
        return out, dims[0]
    return broadcast_batch(out, x.shape[dims[0]]), 0


@rule_for("CollectiveGather")
def _vmap_collective_gather(x, *, dims, dest_rank, group):
    out = C.CollectiveGather(_second(x, dims[0]), dest_rank=dest_rank, group=group)
    if dims[0] is None or _my_rank(group) == dest_rank:
        return out, _after_axis_zero(dims[0])
    return broadcast_batch(out, x.shape[dims[0]]), 0


@rule_for("Broadcast")
def _vmap_broadcast(xs, *, dims, root_rank, group):
    return C.Broadcast(xs, root_rank=root_rank, group=group), dims[0]


@rule_for("AlltoAll")
def _vmap_all_to_all(x, *, dims, split_count, split_dim, concat_dim, group):
    d = dims[0]
    if d is None:
        return C.AlltoAll(x, split_count=split_count, split_dim=split_dim,
                          concat_dim=concat_dim, group=group), None
    rank = x.ndim - 1
    return C.AlltoAll(to_front(x, d), split_count=split_count,
                      split_dim=split_dim % rank + 1, concat_dim=concat_dim % rank + 1,
                      group=group), 0


@rule_for("Barrier")
def _vmap_barrier(*, dims, group=C.WORLD_COMM_GROUP):
    return C.Barrier(group=group), None
