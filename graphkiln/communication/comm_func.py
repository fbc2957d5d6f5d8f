"""``mindspore.communication.comm_func``: the functional collectives and point-to-point
transfers.

The collectives apply the communication primitives, so they work eagerly and inside compiled
graphs alike; those that return ``(tensor, handle)`` complete before they return, so
``handle`` is ``None`` unless ``async_op=True`` asks for one (whose ``wait()`` returns at
once). ``isend``/``irecv`` (and ``batch_isend_irecv``) really are asynchronous: their
handle's ``wait()`` completes the transfer, and an ``irecv`` result holds its data only
after that. Ranks (``dst``, ``src``, ``peer``) are world ranks, as in MindSpore.
"""
from __future__ import annotations

import numpy as np

from ..common import comm_engine as engine
from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..ops.defs import array as A
from ..ops.defs import collective as C
from ..ops.defs.collective import ReduceOp
from .management import GlobalComm, get_group_rank_from_world_rank, get_group_size

__all__ = ["all_reduce", "all_gather_into_tensor", "all_to_all_with_output_shape",
           "all_to_all_single_with_output_shape", "barrier", "broadcast",
           "gather_into_tensor", "isend", "irecv", "reduce_scatter_tensor", "reduce",
           "scatter_tensor", "send", "recv", "P2POp", "batch_isend_irecv", "CommHandle"]


class CommHandle:
    """The handle of an asynchronous communication: ``wait()`` blocks until it completed
    (at once for a collective, which completes before it returns)."""

    def __init__(self, transfers: tuple = ()):
        self._transfers = transfers

    def wait(self) -> None:
        for t in self._transfers:
            t.wait()

    def __repr__(self) -> str:
        return f"CommHandle(pending={len(self._transfers)})"


def _check_tensor(api: str, tensor) -> None:
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For {api}, the input tensor must be tensor")


def _check_int(api: str, arg: str, value) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For {api}, the {arg} must be int")


def _check_op(api: str, op) -> None:
    if not isinstance(op, str):
        raise TypeError(f"For {api}, the input op type must be str")
    if op not in (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD):
        raise TypeError(f"For {api}, the input op value must be one of sum, prod, min, max")


def _outputs(out, async_op: bool) -> tuple:
    return (out, CommHandle() if async_op else None)


def _group_rank(world_rank: int, group: str) -> int:
    return get_group_rank_from_world_rank(world_rank, group)


def _eager(api: str, tensor: Tensor) -> np.ndarray:
    """The value of ``tensor``; the asynchronous transfers run in PyNative mode only, as
    MindSpore's."""
    if tensor.is_symbolic:  # inside a graph (asnumpy() there is a run-time fallback)
        raise RuntimeError(f"For {api}, only PyNative mode is supported: call it outside "
                           f"of a compiled graph (jit / GRAPH_MODE).")
    return tensor.asnumpy()


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


def reduce(tensor: Tensor, dst: int, op: str = ReduceOp.SUM,
           group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """Reduce over ``group``; world rank ``dst`` gets the result, the others a tensor of
    shape [1] with no meaning."""
    _check_tensor("reduce", tensor)
    _check_op("reduce", op)
    return C.Reduce(tensor, dest_rank=_group_rank(dst, group), op=op, group=group)


def scatter_tensor(tensor: Tensor, src: int = 0,
                   group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """Rank ``i`` of ``group`` gets block ``i`` of axis 0 of world rank ``src``'s tensor."""
    _check_tensor("scatter_tensor", tensor)
    _check_int("scatter_tensor", "src", src)
    return C.CollectiveScatter(tensor, src_rank=_group_rank(src, group), group=group)


def gather_into_tensor(tensor: Tensor, dst: int = 0,
                       group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """World rank ``dst`` gets every rank's tensor concatenated along axis 0; the others a
    tensor of shape [1] with no meaning."""
    _check_tensor("gather_into_tensor", tensor)
    _check_int("gather_into_tensor", "dst", dst)
    return C.CollectiveGather(tensor, dest_rank=_group_rank(dst, group), group=group)


def broadcast(tensor: Tensor, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP) -> Tensor:
    """World rank ``src``'s ``tensor`` on every rank."""
    _check_tensor("broadcast", tensor)
    _check_int("broadcast", "src", src)
    return C.Broadcast((tensor,), root_rank=_group_rank(src, group), group=group)[0]


def barrier(group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
    """Wait until every rank of ``group`` reaches the barrier."""
    if not isinstance(group, str):
        raise TypeError(f"group must be type of string, but got {type(group)}")
    C.Barrier(group=group)


def send(tensor: Tensor, dst: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP,
         tag: int = 0) -> None:
    """Send ``tensor`` to world rank ``dst``; returns when the receiver has taken it (or
    MPI has buffered it)."""
    _check_tensor("send", tensor)
    _check_int("send", "dst", dst)
    C.Send(tensor, sr_tag=tag, dest_rank=_group_rank(dst, group), group=group,
           group_back=group)


def recv(tensor: Tensor, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP,
         tag: int = 0) -> Tensor:
    """Receive a tensor of ``tensor``'s shape and dtype from world rank ``src`` (the
    values of ``tensor`` are not used)."""
    _check_tensor("recv", tensor)
    _check_int("recv", "src", src)
    return C.Receive(sr_tag=tag, src_rank=_group_rank(src, group), shape=tuple(tensor.shape),
                     dtype=tensor.dtype, group=group, group_back=group)


def isend(tensor: Tensor, dst: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP,
          tag: int = 0) -> CommHandle:
    """Start sending ``tensor`` to world rank ``dst``; ``wait()`` on the handle completes
    it."""
    _check_tensor("isend", tensor)
    _check_int("isend", "dst", dst)
    value = _eager("isend", tensor)
    return CommHandle((engine.isend(value, _group_rank(dst, group), tag, group),))


def irecv(tensor: Tensor, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP,
          tag: int = 0) -> tuple:
    """Start receiving a tensor of ``tensor``'s shape and dtype from world rank ``src``:
    ``(result, handle)``; ``result`` holds the data once ``handle.wait()`` returned."""
    _check_tensor("irecv", tensor)
    _check_int("irecv", "src", src)
    _eager("irecv", tensor)
    t = engine.irecv(tuple(tensor.shape), tensor.dtype.np_dtype, _group_rank(src, group), tag,
                     group)
    return Tensor.from_numpy(t.buffer), CommHandle((t,))


class P2POp:
    """One transfer of :func:`batch_isend_irecv`: ``op`` is ``"isend"``/``"irecv"`` (or
    those functions), ``tensor`` the tensor to send, or for ``irecv`` a tensor or shape
    (then ``recv_dtype``) to receive, ``peer`` a world rank."""

    def __init__(self, op, tensor, peer: int, group: str | None = None, tag: int = 0, *,
                 recv_dtype=None):
        if not (isinstance(op, str) or callable(op)):
            raise TypeError(f"op must be type of string or function, but got type of "
                            f"{type(op)}")
        name = op if isinstance(op, str) else getattr(op, "__name__", "")
        if name not in ("isend", "irecv"):
            raise ValueError(f"Expected ``op`` to be of type ``isend`` or `irecv``, but got "
                             f"{name}")
        if not isinstance(tensor, (Tensor, tuple)):
            raise TypeError(f"Expected ``tensor`` to be type of tuple or Tensor, but got "
                            f"{type(tensor)}.")
        if tag != 0:
            raise NotImplementedError("``tag`` not support yet.")
        if not isinstance(peer, int):
            raise TypeError(f"peer must be type of int, but got type of {type(peer)}")
        if recv_dtype is not None and not isinstance(recv_dtype, mstype.Type):
            raise TypeError(f"recv_dtype must be type of mindspore dtype, but got type of "
                            f"{type(recv_dtype)}")
        self.op, self.tensor, self.peer, self.group = name, tensor, peer, group
        self.tag, self.recv_dtype = tag, recv_dtype


def batch_isend_irecv(p2p_op_list: list) -> tuple:
    """Run the transfers of ``p2p_op_list`` together and wait for all of them: one tensor
    per entry, the received tensor for an ``irecv``, a meaningless scalar for an
    ``isend``."""
    if not isinstance(p2p_op_list, list):
        raise TypeError(f"p2p_op_list must be type of list, but got type of {p2p_op_list}.")
    if not p2p_op_list:
        raise TypeError("p2p_op_list can not be empty list.")
    transfers, results = [], []
    for i, p in enumerate(p2p_op_list):
        if not isinstance(p, P2POp):
            raise TypeError("must be type of P2POp")
        group = GlobalComm.WORLD_COMM_GROUP if p.group is None else p.group
        peer = _group_rank(p.peer, group)
        if p.op == "isend":
            _check_tensor("batch_isend_irecv", p.tensor)
            transfers.append(engine.isend(_eager("batch_isend_irecv", p.tensor), peer, 0, group))
            results.append(Tensor(np.zeros((), p.tensor.dtype.np_dtype)))
            continue
        if isinstance(p.tensor, Tensor):
            shape, dtype = tuple(p.tensor.shape), p.tensor.dtype
        elif p.recv_dtype is None:
            raise ValueError(f"'recv_dtype' of {i}th P2POp in p2p_op_list is None but op_types "
                             f"is 'irecv' and P2POp.tensor is a tuple type.")
        else:
            shape, dtype = p.tensor, p.recv_dtype
        transfers.append(engine.irecv(shape, dtype.np_dtype, peer, 0, group))
        results.append(Tensor.from_numpy(transfers[-1].buffer))
    CommHandle(tuple(transfers)).wait()
    return tuple(results)


def _check_tensors(tensors, allow_shapes: bool = False) -> None:
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"Expected list or tuple, but got {type(tensors)}.")
    for t in tensors:
        if allow_shapes and not isinstance(t, (Tensor, tuple)):
            raise TypeError(f"Expected tensor or tuple, but got {type(t)}")
        if not allow_shapes and not isinstance(t, Tensor):
            raise TypeError(f"Expected tensor, but got {type(t)}")


def all_to_all_with_output_shape(output_shape_list, input_tensor_list, group: str | None = None,
                                 async_op: bool = False) -> tuple:
    """Send ``input_tensor_list[i]`` to rank ``i``; receive from rank ``i`` a tensor of
    ``output_shape_list[i]`` (a shape or a tensor of that shape): ``(tensors, handle)``."""
    _check_tensors(input_tensor_list)
    _check_tensors(output_shape_list, allow_shapes=True)
    dtypes = {t.dtype for t in input_tensor_list}
    if len(dtypes) > 1:
        raise TypeError(f"The tensors in 'input_tensor_list' must have the same dtype, but "
                        f"got {sorted(str(d) for d in dtypes)}.")
    group = GlobalComm.WORLD_COMM_GROUP if group is None else group
    shapes = [tuple(s.shape) if isinstance(s, Tensor) else tuple(s) for s in output_shape_list]
    recv_numels = [int(np.prod(s, dtype=np.int64)) for s in shapes]
    flat = C.AlltoAllV(A.Concat(tuple(A.Reshape(t, (-1,)) for t in input_tensor_list), axis=0),
                       tuple(int(t.size) for t in input_tensor_list), tuple(recv_numels),
                       group=group, block_size=1)
    pieces, start = [], 0
    for shape, numel in zip(shapes, recv_numels):
        pieces.append(flat[start:start + numel].reshape(shape))
        start += numel
    return _outputs(tuple(pieces), async_op)


def all_to_all_single_with_output_shape(output_shape, tensor: Tensor, output_split_sizes=None,
                                        input_split_sizes=None, group: str | None = None,
                                        async_op: bool = False) -> tuple:
    """Split ``tensor`` along axis 0 by ``input_split_sizes`` (equally by default), send
    piece ``i`` to rank ``i``, and concatenate the pieces received (``output_split_sizes``
    rows from each) into a tensor of ``output_shape``: ``(tensor, handle)``."""
    _check_tensors([tensor])
    _check_tensors([output_shape], allow_shapes=True)
    group = GlobalComm.WORLD_COMM_GROUP if group is None else group
    out_shape = tuple(output_shape.shape) if isinstance(output_shape, Tensor) \
        else tuple(output_shape)
    n = get_group_size(group)
    in_rows = _split_sizes("input", tuple(tensor.shape), input_split_sizes, n)
    out_rows = _split_sizes("output", out_shape, output_split_sizes, n)
    in_row = int(np.prod(tensor.shape[1:], dtype=np.int64))
    out_row = int(np.prod(out_shape[1:], dtype=np.int64))
    flat = C.AlltoAllV(A.Reshape(tensor, (-1,)), tuple(r * in_row for r in in_rows),
                       tuple(r * out_row for r in out_rows), group=group, block_size=1)
    return _outputs(A.Reshape(flat, (sum(out_rows),) + out_shape[1:]), async_op)


def _split_sizes(which: str, shape: tuple, sizes, n: int) -> list[int]:
    if sizes:
        return [int(s) for s in sizes]
    if not shape or shape[0] % n:
        raise ValueError(f"{which} shape at dim 0 must be divided by world_size, but got "
                         f"{shape[0] if shape else shape} and {n}.")
    return [shape[0] // n] * n
