"""``python -m graphkiln msrun``: start a data-parallel job, as MindSpore's ``msrun`` does.

Takes msrun's flags. Each of this node's ``--local_worker_num`` workers runs
``python -m graphkiln run script.py args`` (as a one-process MPI job when the world has
more than one process, so the workers can join one MPI world, see
common/comm_engine.py) with msrun's environment (``RANK_ID``, ``RANK_SIZE``,
``MS_WORKER_NUM``, ``MS_SCHED_HOST``/``MS_SCHED_PORT``...), writing
``<log_dir>/worker_<rank>.log``; rank 0's log is also copied to the terminal. The
launcher always waits for its workers: when one fails it stops the others at once, prints
the end of that worker's log and exits non-zero. The launchers of a job that spans
machines are linked (launcher_link.py): a failure on one node stops every node.
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass

from .common.comm_engine import mpiexec
from .launcher_link import NodeLink

POLL_SECONDS = 0.05
KILL_GRACE_SECONDS = 2.0
ERROR_TAIL_LINES = 30


def add_arguments(p: argparse.ArgumentParser) -> None:
    """msrun's flags (MindSpore's defaults)."""
    p.add_argument("--worker_num", type=int, default=8,
                   help="the number of processes of the whole job")
    p.add_argument("--local_worker_num", type=int, default=8,
                   help="the number of processes started on this node")
    p.add_argument("--master_addr", default="127.0.0.1",
                   help="the address of node 0 (where rank 0 runs)")
    p.add_argument("--master_port", type=int, default=8118,
                   help="a free TCP port on node 0, used to join the workers")
    p.add_argument("--node_rank", type=int, default=-1,
                   help="this node's index (needed when the job spans several nodes)")
    p.add_argument("--log_dir", default="", help="where worker_<rank>.log files go")
    p.add_argument("--join", type=_bool_flag, default=False,
                   help="accepted; graphkiln's msrun always waits for its workers")
    p.add_argument("--cluster_time_out", type=int, default=600,
                   help="seconds the workers wait for each other to join")
    p.add_argument("--worker_log_name", default="",
                   help="log file name prefix instead of 'worker' ({ip}, {hostname} expand)")
    p.add_argument("--tail_worker_log", default="-1",
                   help="comma list of local ranks whose log goes to the terminal "
                        "(default: rank 0)")
    for flag in ("--bind_core", "--bind_numa", "--rank_table_file"):
        p.add_argument(flag, default=None, help="accepted for compatibility; ignored")
    for flag in ("--sim_level", "--sim_rank_id"):
        p.add_argument(flag, type=int, default=-1, help="accepted for compatibility; ignored")
    p.add_argument("task_script", help="the training script")
    p.add_argument("task_script_args", nargs=argparse.REMAINDER,
                   help="arguments for the script")


def _bool_flag(text: str) -> bool:
    if text in ("True", "true", "1"):
        return True
    if text in ("False", "false", "0"):
        return False
    raise argparse.ArgumentTypeError(f"expected True or False, got {text!r}")


@dataclass
class Worker:
    rank: int
    log_path: str
    process: subprocess.Popen
    tail_offset: int = 0
    tail: bool = False


def _plan(args) -> tuple[int, list[int]]:
    """This node's rank offset and local ranks, checked as msrun checks them."""
    if args.worker_num <= 0:
        raise ValueError(f"worker_num must be greater than 0, but got {args.worker_num}.")
    if args.local_worker_num <= 0 or args.local_worker_num > args.worker_num:
        raise ValueError(f"Total worker number is {args.worker_num}, but got exceeded local "
                         f"worker number: {args.local_worker_num}.")
    if args.local_worker_num == args.worker_num:
        return 0, list(range(args.worker_num))
    if args.node_rank < 0:
        raise ValueError("This job spans several nodes (local_worker_num < worker_num): set "
                         "--node_rank on every node (0 on the node at --master_addr).")
    first = args.node_rank * args.local_worker_num
    if first + args.local_worker_num > args.worker_num:
        raise ValueError(f"--node_rank {args.node_rank} with {args.local_worker_num} local "
                         f"workers exceeds worker_num {args.worker_num}.")
    return first, list(range(first, first + args.local_worker_num))


def _log_name(args, rank: int) -> str:
    base = args.worker_log_name or "worker"
    if "{" in base:
        host = socket.gethostname()
        base = base.replace("{hostname}", host).replace("{ip}", socket.gethostbyname(host))
    return os.path.join(args.log_dir, f"{base}_{rank}.log")


def _worker_env(args, rank: int, local_rank: int, n_local: int) -> dict:
    env = dict(os.environ)
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    env.update({
        "MS_WORKER_NUM": str(args.worker_num), "RANK_SIZE": str(args.worker_num),
        "RANK_ID": str(rank), "MS_NODE_ID": str(rank), "MS_ROLE": "MS_WORKER",
        "DEVICE_ID": str(local_rank), "MS_SCHED_HOST": args.master_addr,
        "MS_SCHED_PORT": str(args.master_port),
        "GRAPHKILN_LOCAL_RANK": str(local_rank), "GRAPHKILN_LOCAL_SIZE": str(n_local),
        "GRAPHKILN_CLUSTER_TIMEOUT": str(args.cluster_time_out),
        "GRAPHKILN_LAUNCHER_PID": str(os.getpid()),
        "PYTHONUNBUFFERED": "1", "UCX_LOG_LEVEL": env.get("UCX_LOG_LEVEL", "error"),
    })
    return env


def _tailed(args, local_rank: int) -> bool:
    if args.tail_worker_log == "-1":
        return local_rank == 0 and args.node_rank <= 0
    return local_rank in {int(v) for v in args.tail_worker_log.split(",")}


def _task_command(script: str, script_args: list[str]) -> list[str]:
    """What each worker runs under ``graphkiln run``: as msrun does, ``python`` (or
    ``python3``) and ``pytest`` are run as commands, anything else as a Python script."""
    if script in ("python", "python3"):
        return list(script_args)
    if script == "pytest":
        return ["-m", "pytest", *script_args]
    return [script, *script_args]


def start_workers(args) -> list[Worker]:
    first, ranks = _plan(args)
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)
    command = [sys.executable, "-m", "graphkiln", "run",
               *_task_command(args.task_script, args.task_script_args)]
    if args.worker_num > 1:
        command = [mpiexec(), "-n", "1", *command]
    workers = []
    for rank in ranks:
        local = rank - first
        path = _log_name(args, rank)
        with open(path, "wb") as log:
            proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True,
                                    env=_worker_env(args, rank, local, len(ranks)))
        workers.append(Worker(rank, path, proc, tail=_tailed(args, local)))
    return workers


def _copy_tail(w: Worker) -> None:
    """Copy what the worker wrote since last time to the terminal."""
    with open(w.log_path, "rb") as f:
        f.seek(w.tail_offset)
        data = f.read()
    if data:
        w.tail_offset += len(data)
        sys.stdout.buffer.write(data)
        sys.stdout.flush()


def stop(workers: list[Worker]) -> None:
    """SIGTERM every running worker's whole process tree, SIGKILL what is left after a
    grace. The tree, not the process group: MPICH's launcher starts the Python process in
    a session of its own, and killing only the launcher would orphan it."""
    pids = [pid for w in workers if w.process.poll() is None
            for pid in _process_tree(w.process.pid)]
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + KILL_GRACE_SECONDS
        while time.monotonic() < deadline:
            for w in workers:
                w.process.poll()  # reap the direct children
            if not any(_alive(pid) for pid in pids):
                return
            time.sleep(POLL_SECONDS)


def _process_tree(pid: int) -> list[int]:
    """``pid`` and all its descendants, read from /proc (just ``pid`` without /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if entry.isdigit():
            stat = _stat_fields(int(entry))
            if stat:
                children.setdefault(int(stat[1]), []).append(int(entry))
    tree, todo = [], [pid]
    while todo:
        tree.append(todo.pop())
        todo.extend(children.get(tree[-1], []))
    return tree


def _stat_fields(pid: int) -> list[str]:
    """The fields of /proc/<pid>/stat after the command name (state, ppid, ...)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def _alive(pid: int) -> bool:
    """Running (not gone, not a zombie waiting to be reaped)."""
    if os.path.isdir("/proc"):
        stat = _stat_fields(pid)
        return bool(stat) and stat[0] != "Z"
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _last_lines(path: str, n: int) -> str:
    with open(path, "rb") as f:
        lines = f.read().decode(errors="replace").splitlines()
    return "\n".join(lines[-n:])


def _exit_text(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def _all_done(workers: list[Worker]) -> bool:
    return all(w.process.poll() == 0 for w in workers)


def supervise(workers: list[Worker], link: NodeLink | None = None, node: str = "") -> int:
    """Wait for the workers; the first failure here or on another node (or the loss of
    another node's launcher) stops the rest. Returns the exit code."""
    def on_signal(signum, frame):
        stop(workers)
        if link is not None:
            link.broadcast_failure(f"the launcher{node} was stopped by signal {signum}.")
        sys.exit(128 + signum)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    reported_done = False
    while True:
        for w in workers:
            if w.tail:
                _copy_tail(w)
        failed = [w for w in workers if w.process.poll() not in (None, 0)]
        if failed:
            w = failed[0]
            if link is not None:
                link.broadcast_failure(f"worker {w.rank}{node} "
                                       f"{_exit_text(w.process.returncode)}; its log: "
                                       f"{os.path.abspath(w.log_path)}")
            stop(workers)
            if w.tail:  # its log is on the terminal already
                _copy_tail(w)
            shown = "" if w.tail else (f" The end of its log:\n"
                                       f"{_last_lines(w.log_path, ERROR_TAIL_LINES)}")
            print(f"graphkiln msrun: worker {w.rank} {_exit_text(w.process.returncode)}; "
                  f"stopped the other workers. Its log: {os.path.abspath(w.log_path)}.{shown}",
                  file=sys.stderr, flush=True)
            return 1
        if link is not None:
            problem = link.poll()
            if problem:
                stop(workers)
                print(f"graphkiln msrun: {problem} Stopped the workers of this node.",
                      file=sys.stderr, flush=True)
                return 1
        if _all_done(workers):
            if link is not None and not reported_done:
                link.report_done()
                reported_done = True
            if link is None or link.finished():
                for w in workers:
                    if w.tail:
                        _copy_tail(w)
                return 0
        time.sleep(POLL_SECONDS)


def main(args: argparse.Namespace) -> int:
    link = None
    try:
        first, ranks = _plan(args)
        if len(ranks) < args.worker_num:  # the job spans machines: link the launchers
            n_nodes = -(-args.worker_num // args.local_worker_num)
            link = NodeLink(args.node_rank, n_nodes, args.master_addr, args.master_port + 1)
            link.connect(args.cluster_time_out)
        workers = start_workers(args)
    except (ValueError, RuntimeError, OSError) as e:
        print(f"graphkiln msrun: {e}", file=sys.stderr)
        if link is not None:
            link.close()
        return 2
    node = f" on node {args.node_rank}" if link is not None else ""
    try:
        return supervise(workers, link, node)
    finally:
        if link is not None:
            link.close()
