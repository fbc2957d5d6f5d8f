"""The collective-communication engine: a world of processes on MPI (mpi4py), its groups,
and checked, timed collectives on NumPy arrays.

The world comes from the launcher: ``mpiexec -n N`` (one MPI world), ``graphkiln msrun``
(each worker is its own MPI job; they join through an MPI port whose name rank 0 hands
out on ``MS_SCHED_HOST:MS_SCHED_PORT``), MindSpore's scheduler launch (``MS_ROLE``
processes started by a shell; ``comm_scheduler``), or nothing (a world of one process).

Every collective first agrees on a small signature (which collective, shape, dtype) with
one tiny non-blocking all-reduce, polled until ``GRAPHKILN_COMM_TIMEOUT`` seconds pass
(then :class:`CommTimeoutError`): ranks that disagree get a clear error instead of a hang
or garbage, and a peer that never arrives a clear timeout. Once every rank is known to be
in the same collective, the data moves with MPI's blocking call (MPICH's non-blocking
collectives are up to 50x slower on large messages here). A peer that dies in between
ends the job through the launcher (``graphkiln msrun`` stops every worker, ``mpiexec``
aborts the job). This module imports nothing from graphkiln: the collective kernels and
``graphkiln.communication`` sit on it.
"""
from __future__ import annotations

import atexit
import os
import shutil
import socket
import sys
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from . import comm_scheduler as scheduler

WORLD_NAMES = ("hccl_world_group", "nccl_world_group", "mccl_world_group")
WORLD = "mccl_world_group"  # the world group's name on CPU, as MindSpore names it
TIMEOUT_ENV = "GRAPHKILN_COMM_TIMEOUT"
DEFAULT_TIMEOUT = 1800.0  # seconds, HCCL's default execution timeout
SPIN_SECONDS = 0.2
REDUCE_OPS = ("sum", "max", "min", "prod")
_COLLECTIVE_CODES = {"AllReduce": 1, "AllGather": 2, "ReduceScatter": 3, "Broadcast": 4,
                     "AlltoAll": 5, "Barrier": 6, "Reduce": 7, "CollectiveGather": 8,
                     "CollectiveScatter": 9, "AlltoAllV": 10}
_MAX_DIMS = 8


class CommTimeoutError(RuntimeError):
    """A collective did not complete in time (a peer died or is stuck)."""


class CommMismatchError(RuntimeError):
    """Ranks of one group called different collectives, or with different shapes/dtypes."""


@dataclass
class Group:
    """A communication group: its name, its members' world ranks and its communicator
    (``None`` for a group of one process, which needs no MPI)."""
    name: str
    world_ranks: list[int]
    comm: object = None
    rank: int = 0

    @property
    def size(self) -> int:
        return len(self.world_ranks)


@dataclass
class World:
    """This process's rank among ``size`` processes (and on its machine), the world
    communicator (``None`` for a world of one) and the groups by name."""
    rank: int = 0
    size: int = 1
    local_rank: int = 0
    local_size: int = 1
    comm: object = None
    groups: dict[str, Group] = field(default_factory=dict)


_world: World | None = None
_joined_comm = None
_broken: list[bool] = [False]  # a collective failed: MPI's state is unusable, exit hard
_SINGLE = World()
_SINGLE.groups[WORLD] = Group(WORLD, [0])


# ------------------------------------------------------------------ world

def initialized() -> bool:
    return _world is not None


def world() -> World:
    """The initialised world, or a world of this one process before ``init``."""
    return _world if _world is not None else _SINGLE


def launched_size() -> int:
    """How many processes the launcher started (1 without a launcher)."""
    for name in ("MS_WORKER_NUM", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE"):
        raw = os.environ.get(name, "")
        if raw.strip().isdigit() and int(raw) > 1:
            return int(raw)
    return 1


def init_world() -> World:
    """Join the world the launcher set up (idempotent); a world of one without one."""
    global _world, _joined_comm
    if _world is not None:
        return _world
    n = launched_size()
    if os.environ.get("MS_ROLE") == scheduler.SCHED_ROLE and scheduler.scheduled():
        scheduler.serve(n, _cluster_deadline())
        sys.exit(0)  # MindSpore's scheduler process ends once the workers have met
    if n == 1:
        w = World()
    else:
        if _joined_comm is None:  # MPI joins once per process; init after release reuses it
            if scheduler.scheduled():  # MindSpore's scheduler launch (MS_ROLE, no RANK_ID)
                scheduler.run_under_mpiexec(mpiexec())
                _joined_comm = scheduler.join(n, _cluster_deadline(), _mpi())[1]
            elif "MS_WORKER_NUM" in os.environ:  # graphkiln msrun stops the other workers
                _stop_with_launcher()  # also while waiting for the others to join
                _joined_comm = _msrun_world(n)
            else:
                _joined_comm = _mpi().COMM_WORLD
                _abort_job_on_uncaught_exception(_joined_comm)
            atexit.register(_exit_hard_if_broken)
        comm = _joined_comm
        w = World(rank=comm.Get_rank(), size=comm.Get_size(), comm=comm)
        w.local_rank, w.local_size = _local_rank_and_size(comm)
    w.groups[WORLD] = Group(WORLD, list(range(w.size)), w.comm, w.rank)
    _world = w
    return w


def _cluster_deadline() -> float:
    return time.monotonic() + float(os.environ.get("GRAPHKILN_CLUSTER_TIMEOUT", "600"))


def release() -> None:
    """Free every group and forget the world (a later ``init`` joins it again)."""
    global _world
    if _world is None:
        return
    for g in _world.groups.values():
        if g.comm is not None and g.comm is not _world.comm:
            g.comm.Free()
    _world = None


def _mpi():
    # mpi4py is the optional 'distributed' extra; only a world of 2+ processes needs it
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise RuntimeError("Running on more than one process needs mpi4py and an MPI "
                           "library: pip install 'graphkiln[distributed]'.") from e
    return MPI


def mpiexec() -> str:
    """MPICH's ``mpiexec`` (the ``mpich`` wheel puts it next to the Python executable)."""
    beside = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    found = beside if os.access(beside, os.X_OK) else shutil.which("mpiexec")
    if not found:
        raise RuntimeError("More than one worker needs MPI: pip install "
                           "'graphkiln[distributed]' (mpi4py and the mpich wheel).")
    return found


def _local_rank_and_size(comm) -> tuple[int, int]:
    env_rank, env_size = os.environ.get("GRAPHKILN_LOCAL_RANK"), os.environ.get(
        "GRAPHKILN_LOCAL_SIZE")
    if env_rank is not None and env_size is not None:  # set by graphkiln msrun
        return int(env_rank), int(env_size)
    node = comm.Split_type(_mpi().COMM_TYPE_SHARED)
    try:
        return node.Get_rank(), node.Get_size()
    finally:
        node.Free()


def _msrun_world(n: int):
    """Build one communicator from ``n`` separately started MPI jobs: rank 0 opens an MPI
    port and hands its name, over TCP on ``MS_SCHED_HOST:MS_SCHED_PORT``, to one joiner at
    a time (MPICH crashes on concurrent joins); each joiner connects and the members merge
    with it; at the end the members order themselves by ``RANK_ID``."""
    MPI = _mpi()
    rank = int(os.environ.get("RANK_ID", "0"))
    host = os.environ.get("MS_SCHED_HOST", "127.0.0.1")
    port_no = int(os.environ.get("MS_SCHED_PORT", "8118"))
    deadline = _cluster_deadline()
    if rank == 0:
        port = MPI.Open_port()
        server = socket.create_server((host, port_no))
        comm = MPI.COMM_SELF
    else:
        port = _fetch_port_name(host, port_no, rank, deadline)
        comm = MPI.COMM_SELF.Connect(port, root=0).Merge(high=True)
    while comm.Get_size() < n:
        if rank == 0:
            _hand_out_port_name(server, port, comm.Get_size(), n, deadline)
        comm = comm.Accept(port, root=0).Merge(high=False)
    if rank == 0:
        server.close()
        MPI.Close_port(port)
    return comm.Split(0, rank)


def _hand_out_port_name(server: socket.socket, port: str, joined: int, n: int,
                        deadline: float) -> None:
    """Give the MPI port name to the next worker that asks."""
    server.settimeout(max(deadline - time.monotonic(), 0.001))
    try:
        conn, _ = server.accept()
    except TimeoutError:
        raise CommTimeoutError(f"Only {joined} of {n} workers joined the distributed job "
                               f"before the cluster timeout: check that every worker "
                               f"started and can reach --master_addr/--master_port.") from None
    with conn:
        conn.sendall(port.encode() + b"\n")


def _fetch_port_name(host: str, port_no: int, rank: int, deadline: float) -> str:
    """Ask rank 0 for its MPI port name (it answers one joiner at a time)."""
    while True:
        try:
            with socket.create_connection((host, port_no), timeout=5) as s:
                s.settimeout(max(deadline - time.monotonic(), 0.001))
                data = b""
                while not data.endswith(b"\n"):
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                if data.endswith(b"\n"):
                    return data.decode().strip()
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise CommTimeoutError(f"Rank {rank} could not reach rank 0 at {host}:{port_no} "
                                   f"to join the distributed job before the cluster timeout "
                                   f"(check --master_addr/--master_port).")
        time.sleep(0.05)


LAUNCHER_PID_ENV = "GRAPHKILN_LAUNCHER_PID"
LAUNCHER_CHECK_SECONDS = 1.0


def _stop_with_launcher() -> None:
    """A worker of ``graphkiln msrun`` exits when its launcher is gone (killed outright, so
    it could not stop its workers) rather than wait in a collective for peers that are
    gone too. A daemon thread checks the launcher every second (mpi4py releases the GIL
    inside MPI calls)."""
    raw = os.environ.get(LAUNCHER_PID_ENV, "")
    if not raw.isdigit():
        return
    pid = int(raw)

    def watch():
        while _process_alive(pid):
            time.sleep(LAUNCHER_CHECK_SECONDS)
        print(f"graphkiln: rank {os.environ.get('RANK_ID', '?')} stops: its msrun launcher "
              f"(pid {pid}) is gone.", file=sys.stderr, flush=True)
        os._exit(1)

    threading.Thread(target=watch, name="graphkiln-launcher-watch", daemon=True).start()


def _process_alive(pid: int) -> bool:
    """Running: neither gone nor a zombie (read from /proc where there is one)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _abort_job_on_uncaught_exception(comm) -> None:
    """Under ``mpiexec`` a rank that dies of an exception takes the whole job down at once
    (instead of leaving its peers waiting in a collective until the timeout)."""
    previous = sys.excepthook

    def hook(exc_type, exc, tb):
        previous(exc_type, exc, tb)
        sys.stdout.flush()
        sys.stderr.flush()
        comm.Abort(1)

    sys.excepthook = hook


def _exit_hard_if_broken() -> None:
    """After a failed collective, MPI_Finalize would wait forever for the dead peer."""
    if _broken[0]:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(1)


# ------------------------------------------------------------------ groups

def group(name: str) -> Group:
    w = world()
    key = WORLD if name in WORLD_NAMES else name
    g = w.groups.get(key)
    if g is None:
        raise ValueError(f"The communication group '{name}' does not exist: create it "
                         f"with create_group first (known groups: {sorted(w.groups)}).")
    return g


def create_group(name: str, world_ranks: list[int]) -> Group:
    """Create group ``name`` of ``world_ranks``; every world process must call it."""
    w = world()
    if name in w.groups or name in WORLD_NAMES:
        raise ValueError(f"For 'create_group', the group '{name}' already exists.")
    ranks = sorted(set(world_ranks))
    if len(ranks) != len(world_ranks) or not ranks or ranks[0] < 0 or ranks[-1] >= w.size:
        raise ValueError(f"For 'create_group', 'rank_ids' must be distinct ranks in "
                         f"[0, {w.size}), but got {list(world_ranks)}.")
    comm = None
    if w.comm is not None:
        member = w.rank in ranks
        sub = w.comm.Split(0 if member else _mpi().UNDEFINED, w.rank)
        comm = sub if member and len(ranks) > 1 else None
        if member and len(ranks) == 1:
            sub.Free()
    g = Group(name, ranks, comm, ranks.index(w.rank) if w.rank in ranks else -1)
    w.groups[name] = g
    return g


def destroy_group(name: str) -> None:
    w = world()
    if name in WORLD_NAMES:
        raise ValueError("For 'destroy_group', the world group cannot be destroyed.")
    g = group(name)
    if g.comm is not None:
        g.comm.Free()
    del w.groups[name]


def member_group(name: str, op: str) -> Group:
    g = group(name)
    if g.rank < 0:
        raise ValueError(f"For '{op}', rank {world().rank} is not a member of group "
                         f"'{name}' (ranks {g.world_ranks}).")
    return g


# ------------------------------------------------------------------ waiting and checking

def timeout_seconds() -> float:
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    try:
        return float(raw) if raw else DEFAULT_TIMEOUT
    except ValueError:
        raise ValueError(f"{TIMEOUT_ENV} must be a number of seconds, but got {raw!r}.") \
            from None


def _wait(request, op: str, g: Group, what: str = "the collective", status=None) -> None:
    """Drive ``request`` to completion; a clear error after the timeout. MPI progresses a
    non-blocking operation only inside ``Test``, so it is polled without pause for
    ``SPIN_SECONDS`` (what a blocking call does), then with growing pauses."""
    start = time.monotonic()
    while not request.Test(status):
        waited = time.monotonic() - start
        if waited < SPIN_SECONDS:
            continue
        limit = timeout_seconds()
        if waited > limit:
            _broken[0] = True
            raise CommTimeoutError(
                f"For '{op}', {what} on group '{g.name}' did not complete within "
                f"{limit:g} s on rank {world().rank}: a peer process has died or is stuck. "
                f"Set {TIMEOUT_ENV} (seconds) to wait longer.")
        time.sleep(min(waited / 100, 0.01))


def _signature(op: str, x: np.ndarray | None) -> np.ndarray:
    sig = np.full(3 + _MAX_DIMS, -1, np.int64)
    sig[0] = _COLLECTIVE_CODES[op]
    if x is not None:
        sig[1] = x.ndim
        sig[2] = np.dtype(x.dtype.str).num  # int64 and longlong arrays alike
        shape = x.shape[:_MAX_DIMS]
        sig[3:3 + len(shape)] = shape
    return sig


# numpy's type numbers are the same in every process, so ranks compare them directly
_DTYPE_NAMES = {np.dtype(t).num: np.dtype(t).name for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128)}


def _describe(sig: list[int]) -> str:
    names = {v: k for k, v in _COLLECTIVE_CODES.items()}
    if sig[1] < 0:
        return names.get(sig[0], "?")
    dt = _DTYPE_NAMES.get(sig[2], "?")
    return f"{names.get(sig[0], '?')} of {dt}{list(sig[3:3 + sig[1]])}"


def _check_same(op: str, g: Group, x: np.ndarray | None) -> None:
    """One tiny all-reduce: do all ranks run ``op`` on the same shape and dtype?"""
    MPI = _mpi()
    sig = _signature(op, x)
    both = np.concatenate([sig, -sig])
    out = np.empty_like(both)
    _wait(g.comm.Iallreduce(both, out, op=MPI.MAX), op, g)
    if np.array_equal(out[:sig.size], -out[sig.size:]):
        return
    every = np.empty((g.size, sig.size), np.int64)
    _wait(g.comm.Iallgather(sig, every), op, g)
    _broken[0] = True
    seen = "; ".join(f"rank {r}: {_describe([int(v) for v in s])}"
                     for r, s in zip(g.world_ranks, every))
    raise CommMismatchError(
        f"For '{op}', the ranks of group '{g.name}' disagree on the collective, its shape "
        f"or its dtype ({seen}). Every rank must run the same collectives in the same "
        f"order on tensors of the same shape and dtype.")


# ------------------------------------------------------------------ collectives

_WIDE = {np.dtype(np.float16): np.float32}  # MPI has no float16 reductions
MAX_STAGED = 8
# MPI registers a buffer's memory the first time it sends from or receives into it (several
# ms per MiB with UCX), so data moves through a few reused staging buffers instead of fresh
# arrays: 20-30x faster for 1 MiB here
_staging: dict[tuple, np.ndarray] = {}


def _staged(slot: str, shape: tuple, dtype) -> np.ndarray:
    """A reused C-contiguous buffer of ``shape`` and ``dtype`` (the most recent
    ``MAX_STAGED`` sizes are kept)."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    key = (slot, nbytes)
    raw = _staging.pop(key, None)
    if raw is None:
        raw = np.empty(nbytes, np.uint8)
    _staging[key] = raw
    while len(_staging) > MAX_STAGED:
        del _staging[next(iter(_staging))]
    return raw.view(dtype).reshape(shape)


def _stage_in(slot: str, x: np.ndarray, reducing: bool = False) -> np.ndarray:
    """``x`` copied into a staging buffer (float16 travels as float32 to be reduced)."""
    buf = _staged(slot, x.shape, _WIDE.get(x.dtype, x.dtype) if reducing else x.dtype)
    np.copyto(buf, x, casting="unsafe")
    return buf


def _mpi_op(op: str):
    MPI = _mpi()
    return {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN, "prod": MPI.PROD}[op]


def _joined(op: str, group_name: str, x: np.ndarray | None) -> Group | None:
    """The group once every member is known to be in this same collective (same shape and
    dtype); ``None`` for a group of one process."""
    g = member_group(group_name, op)
    if g.comm is None:
        return None
    _check_same(op, g, x)
    return g


def all_reduce(x: np.ndarray, op: str, group_name: str) -> np.ndarray:
    g = _joined("AllReduce", group_name, x)
    if g is None:
        return np.array(x, copy=True)
    buf = _stage_in("send", x, reducing=True)
    g.comm.Allreduce(_mpi().IN_PLACE, buf, op=_mpi_op(op))
    return buf.astype(x.dtype)


def all_gather(x: np.ndarray, group_name: str) -> np.ndarray:
    """Concatenate every rank's ``x`` along axis 0, in rank order."""
    g = _joined("AllGather", group_name, x)
    if g is None:
        return np.array(x, copy=True)
    out = _staged("recv", (g.size * x.shape[0],) + x.shape[1:], x.dtype)
    g.comm.Allgather(_stage_in("send", x), out)
    return out.copy()


def reduce_scatter(x: np.ndarray, op: str, group_name: str) -> np.ndarray:
    """Reduce over ranks, then give rank ``i`` the ``i``-th block of axis 0."""
    g = _joined("ReduceScatter", group_name, x)
    if g is None:
        return np.array(x, copy=True)
    buf = _stage_in("send", x, reducing=True)
    out = _staged("recv", (x.shape[0] // g.size,) + x.shape[1:], buf.dtype)
    g.comm.Reduce_scatter_block(buf, out, op=_mpi_op(op))
    return out.astype(x.dtype)


def broadcast(x: np.ndarray, root: int, group_name: str) -> np.ndarray:
    """Rank ``root`` (of the group)'s ``x`` on every rank."""
    g = member_group(group_name, "Broadcast")
    _check_root("Broadcast", g, root, "root_rank")
    if _joined("Broadcast", group_name, x) is None:
        return np.array(x, copy=True)
    buf = _stage_in("send", x)
    g.comm.Bcast(buf, root=root)
    return buf.copy()


def all_to_all(x: np.ndarray, split_dim: int, concat_dim: int, group_name: str) -> np.ndarray:
    """Split ``x`` along ``split_dim`` into one block per rank, send block ``i`` to rank
    ``i`` and concatenate the received blocks along ``concat_dim``."""
    g = _joined("AlltoAll", group_name, x)
    if g is None:
        return np.array(x, copy=True)
    blocks = np.stack(np.split(x, g.size, axis=split_dim))
    out = _staged("recv", blocks.shape, x.dtype)
    g.comm.Alltoall(_stage_in("send", blocks), out)
    return np.concatenate(list(out), axis=concat_dim)


def barrier(group_name: str) -> None:
    _joined("Barrier", group_name, None)  # the check is a barrier: every rank reached it


# ------------------------------------------------------------------ rooted collectives

def _check_root(op: str, g: Group, root: int, arg: str) -> None:
    if not 0 <= root < g.size:
        raise ValueError(f"For '{op}', '{arg}' must be a rank of group '{g.name}' in "
                         f"[0, {g.size}), but got {root}.")


def _placeholder(dtype) -> np.ndarray:
    """What a rank other than the root gets from Reduce and CollectiveGather: shape [1],
    no meaning (as MindSpore's)."""
    return np.zeros(1, dtype)


def reduce(x: np.ndarray, op: str, root: int, group_name: str) -> np.ndarray:
    """Reduce over the ranks; rank ``root`` of the group gets the result, the others a
    placeholder."""
    g = member_group(group_name, "Reduce")
    _check_root("Reduce", g, root, "dest_rank")
    if _joined("Reduce", group_name, x) is None:
        return np.array(x, copy=True)
    buf = _stage_in("send", x, reducing=True)
    out = _staged("recv", buf.shape, buf.dtype)
    g.comm.Reduce(buf, out, op=_mpi_op(op), root=root)
    return out.astype(x.dtype) if g.rank == root else _placeholder(x.dtype)


def gather(x: np.ndarray, root: int, group_name: str) -> np.ndarray:
    """The root gets every rank's ``x`` concatenated along axis 0; the others a
    placeholder."""
    g = member_group(group_name, "CollectiveGather")
    _check_root("CollectiveGather", g, root, "dest_rank")
    if _joined("CollectiveGather", group_name, x) is None:
        return np.array(x, copy=True)
    out = _staged("recv", (g.size * x.shape[0],) + x.shape[1:], x.dtype)
    g.comm.Gather(_stage_in("send", x), out, root=root)
    return out.copy() if g.rank == root else _placeholder(x.dtype)


def scatter(x: np.ndarray, root: int, group_name: str) -> np.ndarray:
    """Rank ``i`` gets block ``i`` of axis 0 of the root's ``x``."""
    g = member_group(group_name, "CollectiveScatter")
    _check_root("CollectiveScatter", g, root, "src_rank")
    if _joined("CollectiveScatter", group_name, x) is None:
        return np.array(x, copy=True)
    out = _staged("recv", (x.shape[0] // g.size,) + x.shape[1:], x.dtype)
    g.comm.Scatter(_stage_in("send", x) if g.rank == root else None, out, root=root)
    return out.copy()


def all_to_all_v(x: np.ndarray, send_counts: list[int], recv_counts: list[int],
                 group_name: str) -> np.ndarray:
    """Send the next ``send_counts[i]`` elements of the flat ``x`` to rank ``i``; receive
    ``recv_counts[i]`` elements from rank ``i``, concatenated flat in rank order. The ranks
    first check that every send count matches its receiver's count."""
    g = member_group(group_name, "AlltoAllV")
    if len(send_counts) != g.size or len(recv_counts) != g.size:
        raise ValueError(f"For 'AlltoAllV', there must be one send and one receive count per "
                         f"rank of group '{g.name}' ({g.size}), but got {len(send_counts)} "
                         f"and {len(recv_counts)}.")
    if sum(send_counts) != x.size:
        raise ValueError(f"For 'AlltoAllV', the send counts add up to {sum(send_counts)} "
                         f"elements, but the input has {x.size}.")
    alone = _joined("AlltoAllV", group_name, np.empty((0,), x.dtype)) is None
    told = np.asarray(send_counts, np.int64)
    if not alone:
        told = np.empty(g.size, np.int64)
        g.comm.Alltoall(np.asarray(send_counts, np.int64), told)
    bad = np.array([int(not np.array_equal(told, recv_counts))], np.int64)
    if not alone:
        g.comm.Allreduce(_mpi().IN_PLACE, bad, op=_mpi().MAX)
    if bad[0]:
        raise CommMismatchError(
            f"For 'AlltoAllV', the ranks of group '{g.name}' disagree on the sizes: rank "
            f"{world().rank} expects {list(recv_counts)} elements from the ranks, which send "
            f"it {told.tolist()}.")
    if alone:
        return x.reshape(-1).copy()
    out = np.empty(sum(recv_counts), x.dtype)
    g.comm.Alltoallv([np.ascontiguousarray(x.reshape(-1)), list(send_counts)],
                     [out, list(recv_counts)])
    return out


# ------------------------------------------------------------------ point to point

class Transfer:
    """A send or receive under way; ``wait()`` completes it (or raises after the timeout)
    and returns the received array (``None`` for a send)."""

    def __init__(self, op: str, g: Group, peer: int, request, buffer: np.ndarray):
        self.op, self.group, self.peer = op, g, peer
        self._request, self._buffer, self._done = request, buffer, request is None

    @property
    def buffer(self) -> np.ndarray:
        """The array being sent, or the one the message arrives in."""
        return self._buffer

    def wait(self) -> np.ndarray | None:
        if not self._done:
            self._done = True
            status = _mpi().Status()
            peer = self.group.world_ranks[self.peer]
            try:
                _wait(self._request, self.op, self.group,
                      f"the transfer with rank {peer}", status)
            except _mpi().Exception as e:  # a longer message than the receive expects
                _broken[0] = True
                raise self._size_error(f"more than {self._buffer.nbytes} bytes") from e
            if self.op == "Receive" and status.Get_count(_mpi().BYTE) != self._buffer.nbytes:
                _broken[0] = True
                raise self._size_error(f"{status.Get_count(_mpi().BYTE)} bytes")
        return self._buffer if self.op == "Receive" else None

    def _size_error(self, got: str) -> CommMismatchError:
        b = self._buffer
        return CommMismatchError(
            f"For 'Receive', rank {world().rank} expected {b.dtype.name}{list(b.shape)} "
            f"({b.nbytes} bytes) from rank {self.group.world_ranks[self.peer]} on group "
            f"'{self.group.name}', but the message has {got}: the Send and the Receive must "
            f"agree on the shape and dtype.")


def _peer(op: str, group_name: str, peer_rank: int, arg: str) -> tuple[Group, int]:
    """The group and ``peer_rank``, a rank of that group (as MindSpore's ``dest_rank`` and
    ``src_rank`` are)."""
    g = member_group(group_name, op)
    if not 0 <= peer_rank < g.size:
        raise ValueError(f"For '{op}', '{arg}' must be a rank of group '{g.name}' in "
                         f"[0, {g.size}), but got {peer_rank}.")
    if g.comm is None:
        raise RuntimeError(f"For '{op}', group '{g.name}' has only this process: there is no "
                           f"peer to exchange with. Start the job with 'graphkiln msrun' or "
                           f"'mpiexec'.")
    return g, peer_rank


def _check_tag(op: str, tag: int) -> None:
    upper = int(_mpi().COMM_WORLD.Get_attr(_mpi().TAG_UB))
    if not 0 <= tag <= upper:
        raise ValueError(f"For '{op}', 'sr_tag' must be in [0, {upper}], but got {tag}.")


def isend(x: np.ndarray, dest_rank: int, tag: int, group_name: str) -> Transfer:
    """Start sending a copy of ``x`` to rank ``dest_rank`` of the group."""
    g, peer = _peer("Send", group_name, dest_rank, "dest_rank")
    _check_tag("Send", tag)
    buf = np.ascontiguousarray(x).copy()
    return Transfer("Send", g, peer, g.comm.Isend(buf, dest=peer, tag=tag), buf)


def irecv(shape: tuple, dtype, src_rank: int, tag: int, group_name: str) -> Transfer:
    """Start receiving an array of ``shape`` and ``dtype`` from rank ``src_rank``."""
    g, peer = _peer("Receive", group_name, src_rank, "src_rank")
    _check_tag("Receive", tag)
    buf = np.empty(shape, dtype)
    return Transfer("Receive", g, peer, g.comm.Irecv(buf, source=peer, tag=tag), buf)


def send(x: np.ndarray, dest_rank: int, tag: int, group_name: str) -> None:
    isend(x, dest_rank, tag, group_name).wait()


def recv(shape: tuple, dtype, src_rank: int, tag: int, group_name: str) -> np.ndarray:
    return irecv(shape, dtype, src_rank, tag, group_name).wait()
