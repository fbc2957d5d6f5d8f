"""Fixtures for the multi-process tests: the mpiexec path (skip without the
'distributed' extra), the workers' environment and free TCP ports."""
import os
import shutil
import socket
import sys

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


@pytest.fixture
def free_port():
    def pick() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]
    return pick
