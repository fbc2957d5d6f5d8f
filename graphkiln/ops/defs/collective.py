"""Collective communication primitives: AllReduce, AllGather, ReduceScatter, Broadcast,
AlltoAll, Barrier.

Each is an IO effect: the tracer threads it on the IO monad, so passes never reorder,
merge or drop two collectives, and every rank runs them in program order (the order the
engine needs to match ranks up). Kernels call the MPI engine (common/comm_engine.py);
in a world of one process they return their input.
"""
from __future__ import annotations

import numpy as np

from ...common import comm_engine as engine
from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ..primitive import IO_EFFECT, OpDef
from ._infer import NUMBERS, describe, tensor_type

WORLD_COMM_GROUP = "hccl_world_group"  # MindSpore's default group name: the world


class ReduceOp:
    """How AllReduce and ReduceScatter combine the ranks' tensors."""
    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"


def _group_size(name: str, group) -> int:
    if not isinstance(group, str):
        raise TypeError(f"For '{name}', the 'group' must be str, but got "
                        f"{type(group).__name__}.")
    return engine.group(group).size


def _collective_type(name: str, x) -> mstype.Type:
    t = tensor_type(name, "x", x)
    if t not in NUMBERS:
        raise TypeError(f"For '{name}', the 'x' type must be one of "
                        f"{[str(n) for n in NUMBERS]}, but got {describe(x)}.")
    return t


def _check_op(name: str, op) -> None:
    if not isinstance(op, str):
        raise TypeError(f"For '{name}', the 'op' must be str, but got {type(op).__name__}.")
    if op not in engine.REDUCE_OPS:
        raise ValueError(f"For '{name}', the 'op' must be one of ReduceOp.SUM, MAX, MIN, "
                         f"PROD, but got '{op}'.")


def _all_reduce_infer(x, *, op, group):
    _check_op("AllReduce", op)
    _group_size("AllReduce", group)
    return AbstractTensor(_collective_type("AllReduce", x), x.shape)


def _all_gather_infer(x, *, group):
    n = _group_size("AllGather", group)
    t = _collective_type("AllGather", x)
    if not x.shape:
        raise ValueError("For 'AllGather', the input 'x' must have at least one dimension, "
                         "but got a scalar Tensor.")
    return AbstractTensor(t, (x.shape[0] * n,) + tuple(x.shape[1:]))


def _reduce_scatter_infer(x, *, op, group):
    _check_op("ReduceScatter", op)
    n = _group_size("ReduceScatter", group)
    t = _collective_type("ReduceScatter", x)
    if not x.shape or x.shape[0] % n:
        raise ValueError(f"For 'ReduceScatter', the first dimension of 'x' must be divisible "
                         f"by the group size {n}, but got shape {list(x.shape)}.")
    return AbstractTensor(t, (x.shape[0] // n,) + tuple(x.shape[1:]))


def _broadcast_infer(xs, *, root_rank, group):
    if not isinstance(root_rank, int) or isinstance(root_rank, bool):
        raise TypeError(f"For 'Broadcast', the 'root_rank' must be int, but got "
                        f"{type(root_rank).__name__}.")
    _group_size("Broadcast", group)
    if not isinstance(xs, AbstractTuple):
        raise TypeError(f"For 'Broadcast', the input must be a tuple of Tensors, but got "
                        f"{describe(xs)}.")
    return AbstractTuple([AbstractTensor(_collective_type("Broadcast", x), x.shape)
                          for x in xs.elements])


def _all_to_all_infer(x, *, split_count, split_dim, concat_dim, group):
    n = _group_size("AlltoAll", group)
    t = _collective_type("AlltoAll", x)
    rank = len(x.shape)
    for arg, v in (("split_dim", split_dim), ("concat_dim", concat_dim)):
        if not isinstance(v, int) or not -rank <= v < rank:
            raise ValueError(f"For 'AlltoAll', '{arg}' must be an int in [{-rank}, {rank}), "
                             f"but got {v}.")
    if split_count != n:
        raise ValueError(f"For 'AlltoAll', 'split_count' must equal the group size {n}, "
                         f"but got {split_count}.")
    shape = list(x.shape)
    if shape[split_dim] % n:
        raise ValueError(f"For 'AlltoAll', dimension {split_dim} of 'x' (shape {shape}) must "
                         f"be divisible by 'split_count' {n}.")
    shape[split_dim] //= n
    shape[concat_dim] *= n
    return AbstractTensor(t, tuple(shape))


def _barrier_infer(*, group):
    _group_size("Barrier", group)
    return AbstractTensor(mstype.int32, ())


def _barrier(*, group):
    engine.barrier(group)
    return np.zeros((), np.int32)


def _broadcast(xs, *, root_rank, group):
    return tuple(engine.broadcast(x, root_rank, group) for x in xs)


def _all_to_all(x, *, split_count, split_dim, concat_dim, group):
    return engine.all_to_all(x, split_dim % x.ndim, concat_dim % x.ndim, group)


AllReduce = OpDef("AllReduce", _all_reduce_infer,
                  lambda x, *, op, group: engine.all_reduce(x, op, group), effect=IO_EFFECT,
                  attrs={"op": ReduceOp.SUM, "group": WORLD_COMM_GROUP})
AllGather = OpDef("AllGather", _all_gather_infer,
                  lambda x, *, group: engine.all_gather(x, group), effect=IO_EFFECT,
                  attrs={"group": WORLD_COMM_GROUP})
ReduceScatter = OpDef("ReduceScatter", _reduce_scatter_infer,
                      lambda x, *, op, group: engine.reduce_scatter(x, op, group),
                      effect=IO_EFFECT, attrs={"op": ReduceOp.SUM, "group": WORLD_COMM_GROUP})
Broadcast = OpDef("Broadcast", _broadcast_infer, _broadcast, effect=IO_EFFECT,
                  attrs={"root_rank": 0, "group": WORLD_COMM_GROUP})
AlltoAll = OpDef("AlltoAll", _all_to_all_infer, _all_to_all, effect=IO_EFFECT,
                 attrs={"split_count": 1, "split_dim": 0, "concat_dim": 0,
                        "group": WORLD_COMM_GROUP})
Barrier = OpDef("Barrier", _barrier_infer, _barrier, effect=IO_EFFECT, differentiable=False,
                attrs={"group": WORLD_COMM_GROUP})
