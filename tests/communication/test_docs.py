"""docs/distributed.md runs as written: its script prints the same losses alone, under
``graphkiln msrun`` with two workers and under ``mpiexec -n 2``."""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "distributed.md")


def _script() -> str:
    with open(DOC) as f:
        return re.search(r"```python\n(.*?)```", f.read(), re.S).group(1)


def _losses(text: str) -> list[float]:
    return [float(v) for v in re.findall(r"epoch \d: loss ([0-9.]+)", text)]


def test_the_page_script_gives_the_same_losses_on_one_and_two_workers(
        tmp_path, mpiexec_path, worker_env, free_port):
    (tmp_path / "train.py").write_text(_script())
    runs = {
        "alone": [sys.executable, "-m", "graphkiln", "run", "train.py"],
        "msrun": [sys.executable, "-m", "graphkiln", "msrun", "--worker_num=2",
                  "--local_worker_num=2", f"--master_port={free_port()}", "--log_dir=logs",
                  "train.py"],
        "mpiexec": [mpiexec_path, "-n", "2", sys.executable, "-m", "graphkiln", "run", "train.py"],
    }
    procs = {k: subprocess.Popen(cmd, cwd=tmp_path, env=worker_env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
             for k, cmd in runs.items()}
    losses = {}
    for name, p in procs.items():
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0, (name, err)
        losses[name] = _losses(out)
    assert len(losses["alone"]) == 5 and losses["alone"][-1] < losses["alone"][0]
    for name in ("msrun", "mpiexec"):
        assert losses[name] == pytest.approx(losses["alone"], abs=1e-5), name
    assert sorted(os.listdir(tmp_path / "logs")) == ["worker_0.log", "worker_1.log"]
