"""Communication primitives: the collectives AllReduce, AllGather, ReduceScatter, Broadcast,
AlltoAll, AlltoAllV, Barrier, the rooted Reduce, CollectiveGather, CollectiveScatter, and the
point-to-point Send and Receive.

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
from ._infer import NUMBERS, check_int, const_value, describe, tensor_type

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


def _barrier_infer(*, group=WORLD_COMM_GROUP):
    _group_size("Barrier", group)
    return AbstractTensor(mstype.int32, ())


def _barrier(*, group=WORLD_COMM_GROUP):
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


def _rooted_infer(name: str, root_arg: str):
    """Infer of a rooted collective. Its root is a rank of the group; for Reduce and
    CollectiveGather only the root gets the result (the others shape [1], as MindSpore's)."""
    def infer(x, *, group, **attrs):
        n = _group_size(name, group)
        root = check_int(name, root_arg, attrs[root_arg])
        if not 0 <= root < n:
            raise ValueError(f"For '{name}', '{root_arg}' must be a rank of group '{group}' "
                             f"in [0, {n}), but got {root}.")
        t = _collective_type(name, x)
        if "op" in attrs:
            _check_op(name, attrs["op"])
        mine = engine.group(group).rank == root
        if name == "Reduce":
            return AbstractTensor(t, x.shape if mine else (1,))
        if not x.shape:
            raise ValueError(f"For '{name}', the input 'x' must have at least one dimension, "
                             f"but got a scalar Tensor.")
        if name == "CollectiveGather":
            return AbstractTensor(t, (x.shape[0] * n,) + tuple(x.shape[1:]) if mine else (1,))
        if x.shape[0] % n:
            raise ValueError(f"For '{name}', the first dimension of 'x' must be divisible by "
                             f"the group size {n}, but got shape {list(x.shape)}.")
        return AbstractTensor(t, (x.shape[0] // n,) + tuple(x.shape[1:]))
    return infer


def _all_to_all_v_infer(x, send_numel_list, recv_numel_list, *, group, block_size):
    n = _group_size("AlltoAllV", group)
    t = _collective_type("AlltoAllV", x)
    counts = {}
    for arg, a in (("send_numel_list", send_numel_list), ("recv_numel_list", recv_numel_list)):
        v = const_value("AlltoAllV", arg, a)
        if not isinstance(v, tuple) or len(v) != n or any(
                not isinstance(c, int) or c < 0 for c in v):
            raise ValueError(f"For 'AlltoAllV', '{arg}' must be a list of {n} (the group "
                             f"size) non-negative ints, but got {v!r}.")
        counts[arg] = v
    size = int(np.prod(x.shape, dtype=np.int64))
    dynamic = any(d < 0 for d in x.shape)  # the kernel checks it when the graph runs
    if not dynamic and sum(counts["send_numel_list"]) * block_size != size:
        raise ValueError(f"For 'AlltoAllV', 'send_numel_list' must add up to the input's "
                         f"{size} elements (in blocks of {block_size}), but got "
                         f"{list(counts['send_numel_list'])}.")
    return AbstractTensor(t, (sum(counts["recv_numel_list"]) * block_size,))


def _all_to_all_v(x, send_numel_list, recv_numel_list, *, group, block_size):
    return engine.all_to_all_v(x, [c * block_size for c in send_numel_list],
                               [c * block_size for c in recv_numel_list], group)


_RECEIVE_TYPES = (mstype.float16, mstype.float32, mstype.float64,
                  mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8,
                  mstype.uint16, mstype.uint32, mstype.uint64)


def _point_to_point_attrs(name: str, sr_tag, peer_arg: str, peer, group) -> None:
    check_int(name, "sr_tag", sr_tag)
    check_int(name, peer_arg, peer)
    n = _group_size(name, group)
    if not 0 <= peer < n:
        raise ValueError(f"For '{name}', '{peer_arg}' must be a rank of group '{group}' in "
                         f"[0, {n}), but got {peer}.")


def _send_infer(x, *, sr_tag, dest_rank, group, group_back):
    _point_to_point_attrs("Send", sr_tag, "dest_rank", dest_rank, group)
    return AbstractTensor(_collective_type("Send", x), x.shape)


def _send(x, *, sr_tag, dest_rank, group, group_back):
    engine.send(x, dest_rank, sr_tag, group)
    return np.array(x, copy=True)


def _receive_infer(*xs, sr_tag, src_rank, shape, dtype, group, group_back):
    _point_to_point_attrs("Receive", sr_tag, "src_rank", src_rank, group)
    if len(xs) > 1 or (xs and not isinstance(xs[0], AbstractTensor)):
        raise TypeError(f"For 'Receive', the input must be nothing or one Tensor (whose "
                        f"value is not used), but got {', '.join(map(describe, xs))}.")
    if dtype not in _RECEIVE_TYPES:
        raise TypeError(f"For 'Receive', the 'dtype' must be one of "
                        f"{[str(t) for t in _RECEIVE_TYPES]}, but got {dtype}.")
    if not isinstance(shape, (tuple, list)) or any(
            not isinstance(d, int) or d < 0 for d in shape):
        raise TypeError(f"For 'Receive', the 'shape' must be a list of non-negative ints, but "
                        f"got {shape!r}.")
    return AbstractTensor(dtype, tuple(shape))


def _receive(*xs, sr_tag, src_rank, shape, dtype, group, group_back):
    return engine.recv(tuple(shape), dtype.np_dtype, src_rank, sr_tag, group)


Reduce = OpDef("Reduce", _rooted_infer("Reduce", "dest_rank"),
               lambda x, *, dest_rank, op, group: engine.reduce(x, op, dest_rank, group),
               effect=IO_EFFECT,
               attrs={"dest_rank": 0, "op": ReduceOp.SUM, "group": WORLD_COMM_GROUP})
CollectiveGather = OpDef("CollectiveGather", _rooted_infer("CollectiveGather", "dest_rank"),
                         lambda x, *, dest_rank, group: engine.gather(x, dest_rank, group),
                         effect=IO_EFFECT, attrs={"dest_rank": 0, "group": WORLD_COMM_GROUP})
CollectiveScatter = OpDef("CollectiveScatter", _rooted_infer("CollectiveScatter", "src_rank"),
                          lambda x, *, src_rank, group: engine.scatter(x, src_rank, group),
                          effect=IO_EFFECT, attrs={"src_rank": 0, "group": WORLD_COMM_GROUP})
AlltoAllV = OpDef("AlltoAllV", _all_to_all_v_infer, _all_to_all_v, effect=IO_EFFECT,
                  attrs={"group": WORLD_COMM_GROUP, "block_size": 1})
Send = OpDef("Send", _send_infer, _send, effect=IO_EFFECT,
             attrs={"sr_tag": 0, "dest_rank": 0, "group": WORLD_COMM_GROUP,
                    "group_back": WORLD_COMM_GROUP})
Receive = OpDef("Receive", _receive_infer, _receive, effect=IO_EFFECT,
                attrs={"sr_tag": 0, "src_rank": 0, "shape": (), "dtype": mstype.float32,
                       "group": WORLD_COMM_GROUP, "group_back": WORLD_COMM_GROUP})
