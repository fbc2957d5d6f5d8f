"""common/heap.py: the glibc thresholds are applied once, and the opt-out is honoured."""
import platform
import subprocess
import sys

import pytest

PROBE = "import graphkiln.common.heap as h; print(h.tune_heap(), h.tune_heap())"


def _run(env_value: str) -> str:
    env = {"PYTHONPATH": ".", "GRAPHKILN_HEAP_TUNING": env_value}
    return subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          env=env, check=True).stdout.split()


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")
def test_thresholds_applied_once_on_glibc():
    assert _run("1") == ["True", "True"]


def test_opt_out_leaves_the_heap_alone():
    assert _run("0") == ["False", "False"]
