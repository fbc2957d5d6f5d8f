"""MindSpore's scheduler launch of a CPU data-parallel job, without msrun: a shell starts
one process with ``MS_ROLE=MS_SCHED`` and ``MS_WORKER_NUM`` processes with
``MS_ROLE=MS_WORKER`` (no ``RANK_ID``), all running the same script, all given
``MS_SCHED_HOST``/``MS_SCHED_PORT``.

The scheduler's ``init()`` serves the rendezvous over TCP and then ends its process, as
MindSpore's does: each worker that connects gets the next rank; rank 0 sends the name of
the MPI port it opened, and the scheduler hands that name to the other workers one at a
time, each when rank 0 says it is ready to accept the next (MPICH crashes on concurrent
joins). The workers then build one MPI communicator the way ``graphkiln msrun``'s do
(``comm_engine``). This module imports nothing from graphkiln.
"""
from __future__ import annotations

import os
import socket
import sys
import time

SCHED_ROLE = "MS_SCHED"
WORKER_ROLE = "MS_WORKER"


def scheduled() -> bool:
    """Whether this process was started by a scheduler launch (a role but no rank)."""
    return os.environ.get("MS_ROLE") in (SCHED_ROLE, WORKER_ROLE) and \
        "RANK_ID" not in os.environ


def address() -> tuple[str, int]:
    return (os.environ.get("MS_SCHED_HOST", "127.0.0.1"),
            int(os.environ.get("MS_SCHED_PORT", "8118")))


def serve(n: int, deadline: float) -> None:
    """The scheduler: give ``n`` workers their ranks, then relay rank 0's MPI port name
    to the others one at a time."""
    server = socket.create_server(address())
    conns = []
    try:
        while len(conns) < n:
            server.settimeout(_left(deadline, f"Only {len(conns)} of {n} workers reached the "
                                              f"scheduler before the cluster timeout."))
            conn, _ = server.accept()
            conn.settimeout(None)
            _send(conn, str(len(conns)))
            conns.append(conn)
        port_name = _recv_line(conns[0])
        for conn in conns[1:]:
            if _recv_line(conns[0]) != "next":
                raise RuntimeError("The scheduler lost rank 0 while the workers joined.")
            _send(conn, port_name)
    finally:
        for conn in conns:
            conn.close()
        server.close()


RERUN = "GRAPHKILN_SCHEDULER_RERUN"
_hidden: tuple[int, int] | None = None  # the real stdout and stderr while a rerun is quiet


def run_under_mpiexec(mpiexec: str) -> None:
    """Restart this worker's command line as a one-process MPI job, unless it is one:
    MPICH joins separately started jobs only when each has a process manager, as
    ``graphkiln msrun``'s workers do (bare singletons look alike and cannot merge). The
    shell's ``wait`` still sees this process id; the script reruns from its start, quiet
    until it reaches ``init()`` again (:func:`quiet_rerun`): what it printed before
    ``init()`` is printed once, by this run (flushed before the restart)."""
    if any(k in os.environ for k in ("PMI_RANK", "PMI_FD", "PMIX_RANK")):
        speak()
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os.environ[RERUN] = "1"
    argv = [sys.executable, *sys.orig_argv[1:]]
    os.execv(mpiexec, [mpiexec, "-n", "1", *argv])


def quiet_rerun() -> None:
    """In a worker's rerun under ``mpiexec`` (called when graphkiln is imported), send
    stdout and stderr to the null device until ``init()`` (:func:`speak`), or until an
    uncaught exception, which is then printed."""
    global _hidden
    if os.environ.pop(RERUN, None) != "1" or _hidden is not None:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    _hidden = (os.dup(1), os.dup(2))
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)
    hook = sys.excepthook

    def speak_then(*exc_info):
        speak()
        hook(*exc_info)
    sys.excepthook = speak_then


def speak() -> None:
    """Give a quiet rerun its stdout and stderr back."""
    global _hidden
    if _hidden is None:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    for fd, saved in zip((1, 2), _hidden):
        os.dup2(saved, fd)
        os.close(saved)
    _hidden = None


def join(n: int, deadline: float, mpi):
    """A worker: (its rank, an MPI intra-communicator of the ``n`` workers, ordered by
    rank)."""
    sock = _connect(deadline)
    with sock:
        rank = int(_recv_line(sock))
        if rank == 0:
            port = mpi.Open_port()
            _send(sock, port)
            comm = mpi.COMM_SELF
        else:
            port = _recv_line(sock)
            comm = mpi.COMM_SELF.Connect(port, root=0).Merge(high=True)
        while comm.Get_size() < n:
            if rank == 0:
                _send(sock, "next")
            comm = comm.Accept(port, root=0).Merge(high=False)
        if rank == 0:
            mpi.Close_port(port)
    return rank, comm.Split(0, rank)


def _connect(deadline: float) -> socket.socket:
    host, port = address()
    while True:
        try:
            return socket.create_connection((host, port), timeout=5)
        except OSError:
            _left(deadline, f"The worker could not reach the scheduler at {host}:{port} "
                            f"before the cluster timeout (check MS_SCHED_HOST/MS_SCHED_PORT).")
            time.sleep(0.05)


def _left(deadline: float, message: str) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError(message)
    return left


def _send(conn: socket.socket, text: str) -> None:
    conn.sendall(text.encode() + b"\n")


def _recv_line(conn: socket.socket) -> str:
    conn.settimeout(None)
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(1)
        if not chunk:
            raise ConnectionError("The scheduler connection closed during the rendezvous.")
        data += chunk
    return data.decode().strip()
