"""MindSpore's scheduler launch without msrun (a shell starts one ``MS_ROLE=MS_SCHED``
process and ``MS_WORKER_NUM`` ``MS_ROLE=MS_WORKER`` processes of the same script, no
``RANK_ID``): the scheduler's ``init()`` ends its process once the workers met, and the
workers form one world with distinct ranks."""
import os
import subprocess
import sys

SCRIPT = """
import numpy as np
import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.communication import get_group_size, get_rank, init

print("before init", flush=True)
init()
x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) + get_rank())
y = ops.AllReduce()(x)
print("rank", get_rank(), "size", get_group_size(), "sum", y.asnumpy().ravel().tolist())
"""


def test_scheduler_and_three_workers_form_one_world(tmp_path, mpiexec_path, worker_env,
                                                     free_port):
    (tmp_path / "net.py").write_text(SCRIPT)
    env = dict(worker_env, MS_WORKER_NUM="3", MS_SCHED_HOST="127.0.0.1",
               MS_SCHED_PORT=str(free_port()), GRAPHKILN_CLUSTER_TIMEOUT="60")
    roles = ["MS_SCHED"] + ["MS_WORKER"] * 3
    procs = [subprocess.Popen([sys.executable, "net.py"], cwd=tmp_path,
                              env=dict(env, MS_ROLE=role), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for role in roles]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        outs.append(out)
    assert "rank" not in outs[0]  # the scheduler stops in init()
    # each worker restarts itself under mpiexec at init(): what it printed before is
    # printed once
    assert [out.count("before init") for out in outs] == [1, 1, 1, 1]
    lines = sorted(line for out in outs[1:] for line in out.splitlines()
                   if line.startswith("rank"))
    want = [3.0 * v + 3.0 for v in range(6)]  # ranks 0..2 add 0+1+2 to 3 copies of 0..5
    assert lines == [f"rank {r} size 3 sum {want}" for r in range(3)]


def test_a_quiet_rerun_still_shows_an_uncaught_error(tmp_path):
    # the rerun hides its output until init(); an error before init() is shown all the same
    script = "import graphkiln\nprint('hidden')\nraise ValueError('before init failed')\n"
    (tmp_path / "net.py").write_text(script)
    p = subprocess.run([sys.executable, "net.py"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=120, env=dict(os.environ, GRAPHKILN_SCHEDULER_RERUN="1"))
    assert p.returncode == 1 and "hidden" not in p.stdout
    assert "ValueError: before init failed" in p.stderr
