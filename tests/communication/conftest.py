"""Fixtures for the multi-process tests: the mpiexec path (skip without the
'distributed' extra), the workers' environment and free TCP ports."""
import os
import random
import shutil
import socket
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def mpiexec_path() -> str:
    beside = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    path = beside if os.access(beside, os.X_OK) else shutil.which("mpiexec")
    if path is None:
        pytest.skip("needs the 'distributed' extra (mpi4py and the mpich wheel, which "
                    "provides mpiexec)")
    return path


@pytest.fixture
def worker_env() -> dict:
    """The environment of launched workers: this checkout importable, no per-pass IR
    verification (it makes every compile slow)."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("GRAPHKILN_VERIFY", None)
    return env


# Ports for the launchers come from below Linux's ephemeral range (32768-60999): a port the
# kernel handed out (bind to 0) can be handed out again, for instance to an MPI port the
# other test worker opens, before the launcher binds it ("Address already in use").
_PORTS = range(20000, 32000, 2)  # even: a launcher may also use the next port (node link)


@pytest.fixture
def free_port():
    rng = random.Random(os.getpid() * 7919 + time.monotonic_ns())

    def pick() -> int:
        for _ in range(200):
            port = rng.choice(_PORTS)
            try:
                for p in (port, port + 1):
                    with socket.socket() as s:
                        s.bind(("127.0.0.1", p))
            except OSError:
                continue
            return port
        raise RuntimeError("no free TCP port pair below the ephemeral range")
    return pick
