"""Real multi-process runs: ``graphkiln msrun`` (one node, and two simulated nodes) and
``mpiexec -n 2``, with every collective in both modes, the data-parallel script against
the single-process run and real MindSpore (fixtures/mindspore_reference.json), and the
fault cases: a failing worker, a stuck peer, mismatched collectives."""
import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from graphkiln.__main__ import main as graphkiln_main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(ROOT, "tests", "communication", "scripts")
with open(os.path.join(ROOT, "tests", "communication", "fixtures",
                       "mindspore_reference.json")) as f:
    REF = json.load(f)


@pytest.fixture
def run(mpiexec_path, worker_env, free_port):
    """``run.msrun(...)`` / ``run.mpiexec(...)``: start a job, return (code, out, err) or,
    with ``wait=False``, the launcher process."""
    class Jobs:
        @staticmethod
        def msrun(tmp_path, n, script, *args, local=None, node_rank=-1, port=None,
                  log="logs", extra_env=None, wait=True):
            cmd = [sys.executable, "-m", "graphkiln", "msrun", f"--worker_num={n}",
                   f"--local_worker_num={local or n}", f"--master_port={port or free_port()}",
                   f"--node_rank={node_rank}", f"--log_dir={tmp_path / log}",
                   os.path.join(SCRIPTS, script), *map(str, args)]
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, env=dict(worker_env, **(extra_env or {})),
                                    cwd=tmp_path)
            return finish(proc) if wait else proc

        @staticmethod
        def mpiexec(tmp_path, n, script, *args):
            cmd = [mpiexec_path, "-n", str(n), sys.executable, "-m", "graphkiln", "run",
                   os.path.join(SCRIPTS, script), *map(str, args)]
            return finish(subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                           stderr=subprocess.PIPE, text=True, env=worker_env,
                                           cwd=tmp_path))
    return Jobs


def finish(proc, timeout=60):
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def passed_checks(out_dir, n):
    results = []
    for r in range(n):
        with open(out_dir / f"rank_{r}.json") as f:
            results.append(json.load(f))
    assert [r["rank"] for r in results] == list(range(n))
    return [r["passed"] for r in results]


def test_every_collective_on_two_msrun_workers(tmp_path, run):
    rc, out, err = run.msrun(tmp_path, 2, "collectives.py", tmp_path)
    assert rc == 0, err
    checks = passed_checks(tmp_path, 2)
    assert checks[0] == checks[1] and len(checks[0]) == 69
    for mode in ("pynative", "graph"):
        for name in ("AllReduce.sum", "AllReduce.max", "AllReduce.min", "AllReduce.prod",
                     "AllGather", "ReduceScatter", "Broadcast", "AlltoAll"):
            assert f"{mode}.{name}" in checks[0]
        assert all(f"vmap.{mode}.axis{a}.{i}" in checks[0] for a in (0, 1) for i in range(9))
    # one log per worker; rank 0's output also on the terminal, rank 1's only in its log
    assert sorted(os.listdir(tmp_path / "logs")) == ["worker_0.log", "worker_1.log"]
    assert "rank 0: 69 checks passed" in out and "rank 1" not in out
    assert "rank 1: 69 checks passed" in (tmp_path / "logs" / "worker_1.log").read_text()


def test_every_collective_under_mpiexec(tmp_path, run):
    rc, out, err = run.mpiexec(tmp_path, 2, "collectives.py", tmp_path)
    assert rc == 0, err
    assert len(passed_checks(tmp_path, 2)[1]) == 69


def test_point_to_point_and_rooted_collectives_on_two_workers(tmp_path, run):
    rc, out, err = run.msrun(tmp_path, 2, "point_to_point.py", tmp_path)
    assert rc == 0, err
    checks = passed_checks(tmp_path, 2)
    for name in ("Receive.0", "Receive.1", "grad.Receive.0", "grad.Receive.1", "recv",
                 "irecv", "batch_isend_irecv", "graph.reduce", "graph.gather_into_tensor",
                 "graph.scatter_tensor", "graph.broadcast", "grad.reduce",
                 "grad.gather_into_tensor", "grad.scatter_tensor",
                 "all_to_all_single_with_output_shape",
                 "grad.all_to_all_single_with_output_shape"):
        assert name in checks[1]
    assert {"Send.0", "Send.1", "grad.Send.0", "grad.Send.1"} <= set(checks[0])
    assert len(checks[0]) == len(checks[1]) == 22


def test_two_simulated_nodes_join_through_master_addr(tmp_path, run, free_port):
    port = free_port()
    nodes = [run.msrun(tmp_path, 2, "collectives.py", tmp_path, local=1, node_rank=k, port=port,
                   log=f"node{k}", wait=False,
                   extra_env={"GRAPHKILN_EXPECT_LOCAL_RANK": "0",
                              "GRAPHKILN_EXPECT_LOCAL_SIZE": "1"}) for k in (0, 1)]
    for p in nodes:
        rc, out, err = finish(p)
        assert rc == 0, err
    assert os.listdir(tmp_path / "node1") == ["worker_1.log"]
    assert len(passed_checks(tmp_path, 2)[1]) == 69


def _result(path):
    with open(path) as f:
        return json.load(f)


def test_data_parallel_runs_match_one_process_and_mindspore(tmp_path, run, worker_env):
    """Same loss trace and parameters with 1, 2 (msrun and mpiexec, GRAPH and PYNATIVE)
    and 4 workers; the same numbers as MindSpore 2.10's own msrun."""
    script = "data_parallel_mlp.py"
    single = subprocess.run([sys.executable, "-m", "graphkiln", "run",
                             os.path.join(SCRIPTS, script), "--out", tmp_path / "w1.json"],
                            capture_output=True, text=True, env=worker_env, cwd=tmp_path)
    assert single.returncode == 0, single.stderr
    runs = {"msrun2": run.msrun(tmp_path, 2, script, "--out", tmp_path / "msrun2.json",
                            log="l2", wait=False),
            "msrun4": run.msrun(tmp_path, 4, script, "--out", tmp_path / "msrun4.json",
                            log="l4", wait=False)}
    rc, _, err = run.mpiexec(tmp_path, 2, script, "--out", tmp_path / "mpiexec2.json",
                         "--mode", "pynative")
    assert rc == 0, err
    for name, p in runs.items():
        rc, _, err = finish(p)
        assert rc == 0, (name, err)
    base = _result(tmp_path / "w1.json")
    assert base["workers"] == 1
    for name, workers in (("msrun2", 2), ("msrun4", 4), ("mpiexec2", 2)):
        got = _result(tmp_path / f"{name}.json")
        assert got["workers"] == workers
        np.testing.assert_allclose(got["losses"], base["losses"], atol=1e-4, err_msg=name)
        for key, value in base["params"].items():
            np.testing.assert_allclose(got["params"][key], value, atol=1e-4, err_msg=key)
    for n, ref in REF["data_parallel_mlp"].items():
        np.testing.assert_allclose(base["losses"], ref["losses"], rtol=1e-5, err_msg=n)
        assert abs(base["checksum"] - ref["checksum"]) < 1e-3


def test_auto_parallel_wrapper_trains_as_data_parallel(tmp_path, run, worker_env):
    """AutoParallel(train_step) with gradients_mean on two workers ends where one process
    does without it (graphkiln runs AutoParallel as data parallel)."""
    script = "data_parallel_mlp.py"
    single = subprocess.run([sys.executable, "-m", "graphkiln", "run",
                             os.path.join(SCRIPTS, script), "--out", tmp_path / "w1.json",
                             "--steps", "4"],
                            capture_output=True, text=True, env=worker_env, cwd=tmp_path)
    assert single.returncode == 0, single.stderr
    rc, _, err = run.msrun(tmp_path, 2, script, "--out", tmp_path / "w2.json", "--steps", "4",
                           "--auto-parallel")
    assert rc == 0, err
    one, two = _result(tmp_path / "w1.json"), _result(tmp_path / "w2.json")
    assert two["workers"] == 2
    np.testing.assert_allclose(two["losses"], one["losses"], atol=1e-5)
    for key, value in one["params"].items():
        np.testing.assert_allclose(two["params"][key], value, atol=1e-5, err_msg=key)


def test_model_trains_data_parallel_on_sharded_data(tmp_path, run, worker_env):
    """train.Model reduces the gradients itself; each rank reads its dataset shard; the
    callbacks see the parallel mode and device number; 2 workers end where 1 does and
    where MindSpore's msrun with 2 workers does."""
    script = os.path.join(SCRIPTS, "model_data_parallel.py")
    single = subprocess.run([sys.executable, "-m", "graphkiln", "run", script,
                             tmp_path / "w1.json"], capture_output=True, text=True,
                            env=worker_env, cwd=tmp_path)
    assert single.returncode == 0, single.stderr
    rc, _, err = run.msrun(tmp_path, 2, "model_data_parallel.py", tmp_path / "w2.json")
    assert rc == 0, err
    one, two = _result(tmp_path / "w1.json"), _result(tmp_path / "w2.json")
    assert (two["parallel_mode"], two["device_number"]) == ("data_parallel", 2)
    for name, value in one["params"].items():
        np.testing.assert_allclose(two["params"][name], value, atol=1e-5, err_msg=name)
        np.testing.assert_allclose(two["params"][name],
                                   REF["model_data_parallel"]["params"][name], atol=1e-5,
                                   err_msg=f"{name} against MindSpore")


@pytest.mark.parametrize("fault,needle", [
    ("raise", "ValueError: rank 1 failed on purpose"),
    ("stuck", "For 'AllReduce', the collective on group 'mccl_world_group' did not complete "
              "within 1 s on rank 0"),
    ("shape", "rank 0: AllReduce of float32[2]; rank 1: AllReduce of float32[3]"),
    ("op", "rank 0: AllReduce of float32[2]; rank 1: AllGather of float32[2]"),
    ("kill", "worker 1 exited with code 9"),
    ("recv", "For 'Receive', rank 1 expected float32[3] (12 bytes) from rank 0 on group "
             "'mccl_world_group', but the message has 8 bytes"),
])
def test_faults_stop_the_job_with_a_clear_error(tmp_path, run, fault, needle):
    start = time.monotonic()
    marker = f"job-{os.getpid()}-{time.monotonic_ns()}"  # finds this job's processes only
    # a short collective timeout only where it is the fault: elsewhere a slow-starting peer
    # on a loaded machine would time out first and be the failure the launcher names
    timeout = "1" if fault == "stuck" else "20"
    rc, out, err = run.msrun(tmp_path, 2, "faults.py", fault, marker,
                             extra_env={"GRAPHKILN_COMM_TIMEOUT": timeout})
    assert rc == 1
    assert time.monotonic() - start < 30  # start-up included, on a loaded machine
    assert needle in out + err
    assert "unreachable" not in out + err
    # the launcher names the first worker it sees fail (in a mismatch both ranks fail)
    failing = {"raise": "1", "stuck": "0", "kill": "1", "recv": "1"}.get(fault, "01")
    assert any(f"worker {r} exited" in err or f"worker {r} was killed" in err
               for r in failing), err
    assert "stopped the other workers. Its log: " in err
    assert str(tmp_path / "logs" / "worker_") in err
    leftover = subprocess.run(["pgrep", "-f", marker], capture_output=True,
                              text=True).stdout.split()
    shown = subprocess.run(["ps", "-o", "pid,ppid,stat,cmd", "-p", ",".join(leftover)],
                           capture_output=True, text=True).stdout if leftover else ""
    assert not leftover, shown


def test_a_failure_on_one_simulated_node_stops_the_other(tmp_path, run, free_port):
    """Two launchers (two simulated machines, one worker each): when a worker on one node
    fails, the other node's launcher, whose worker waits in an AllReduce (with the default
    30-minute timeout), stops it within seconds and names the failed worker and its log."""
    port = free_port()
    marker = f"job-{os.getpid()}-{time.monotonic_ns()}"
    failing_node = 1
    start = time.monotonic()
    nodes = [run.msrun(tmp_path, 2, "faults.py", "raise", marker, local=1, node_rank=k,
                       port=port, log=f"node{k}", wait=False) for k in (0, 1)]
    results = [finish(p) for p in nodes]
    assert time.monotonic() - start < 30
    assert [rc for rc, _, _ in results] == [1, 1], results
    other = results[1 - failing_node][2]
    log = tmp_path / f"node{failing_node}" / f"worker_{failing_node}.log"
    assert f"worker {failing_node} on node {failing_node}" in other, other
    assert str(log) in other and "Stopped the workers of this node" in other
    leftover = subprocess.run(["pgrep", "-f", marker], capture_output=True,
                              text=True).stdout.split()
    assert not leftover


def test_a_lost_launcher_stops_the_other_node(tmp_path, run, free_port):
    """Node 0's launcher is killed outright: node 1's launcher sees its link close and
    stops its worker, and node 0's worker notices its launcher is gone and exits, instead
    of both waiting in the AllReduce for 30 minutes."""
    port = free_port()
    marker = f"job-{os.getpid()}-{time.monotonic_ns()}"
    nodes = [run.msrun(tmp_path, 2, "faults.py", "stuck", marker, local=1, node_rank=k,
                       port=port, log=f"node{k}", wait=False) for k in (0, 1)]
    started = tmp_path / "node1" / "worker_1.log"  # node 1 linked up and started its worker
    deadline = time.monotonic() + 30
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    nodes[0].kill()
    rc, out, err = finish(nodes[1])
    assert rc == 1 and "its launcher is gone" in err, err
    finish(nodes[0])
    # node 0's worker, left without its launcher, stops by itself within seconds of
    # reaching init() (on a loaded machine its import alone can take 15 s)
    deadline = time.monotonic() + 60
    leftover = ["?"]
    while leftover and time.monotonic() < deadline:
        time.sleep(0.5)
        leftover = subprocess.run(["pgrep", "-f", marker], capture_output=True,
                                  text=True).stdout.split()
    for pid in leftover:  # never leave processes behind, even when the check fails
        os.kill(int(pid), 9)
    assert not leftover


def test_launcher_checks_its_flags(capsys):
    script = os.path.join(SCRIPTS, "faults.py")
    for flags, message in (
            (["--worker_num=0"], "worker_num must be greater than 0, but got 0."),
            (["--worker_num=2", "--local_worker_num=3"], "exceeded local worker number: 3"),
            (["--worker_num=4", "--local_worker_num=2"], "set --node_rank on every node")):
        assert graphkiln_main(["msrun", *flags, script]) == 2
        assert message in capsys.readouterr().err


def test_msrun_runs_pytest_and_python_commands_with_per_rank_ir(tmp_path, worker_env, free_port):
    """``msrun ... pytest file::test`` runs pytest in every worker (msrun's rule: ``python``,
    ``python3`` and ``pytest`` are commands); after ``init()`` IR dumps go to ``ir/rank_<id>``."""
    (tmp_path / "test_dump.py").write_text(
        "import os\n"
        "os.environ['MS_DEV_SAVE_GRAPHS'] = '1'\n"
        "os.environ['MS_DEV_SAVE_GRAPHS_PATH'] = './ir'\n"
        "from mindspore import jit, nn\n"
        "from mindspore.communication import init\n\n"
        "class Net(nn.Cell):\n"
        "    @jit\n"
        "    def construct(self, x):\n"
        "        return x + 2\n\n"
        "def test_dump():\n"
        "    init()\n"
        "    assert Net()(3) == 5\n")
    cmd = [sys.executable, "-m", "graphkiln", "msrun", "--worker_num=2", "--local_worker_num=2",
           f"--master_port={free_port()}", "--join=True", f"--log_dir={tmp_path / 'logs'}",
           "pytest", "-q", "-p", "no:cacheprovider", "test_dump.py::test_dump"]
    code, out, err = finish(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                             text=True, env=worker_env, cwd=tmp_path))
    assert code == 0, out + err
    for rank in range(2):
        assert os.listdir(tmp_path / "ir" / f"rank_{rank}"), rank
        with open(tmp_path / "logs" / f"worker_{rank}.log") as f:
            assert "1 passed" in f.read()
    assert not any(name.endswith(".ir") for name in os.listdir(tmp_path / "ir"))


def test_sync_batch_norm_on_two_workers_matches_one_batch_norm(tmp_path, run):
    rc, out, err = run.msrun(tmp_path, 2, "sync_batch_norm.py", tmp_path)
    assert rc == 0, err
    for checks in passed_checks(tmp_path, 2):
        assert len(checks) == 18 and "graph.dx" in checks and "pynative.moving_variance" in checks
