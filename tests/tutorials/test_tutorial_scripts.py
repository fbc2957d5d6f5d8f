"""Programs in the style of MindSpore's tutorials print what MindSpore 2.10 prints.

Each ``scripts/<name>.py`` is written against ``mindspore`` and run unchanged with
``python -m graphkiln run``; its stdout must equal ``fixtures/<name>.txt``, recorded on real
MindSpore by ``fixtures/record_outputs.py``."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
REPO = HERE.parents[1]
SCRIPTS = sorted(p.stem for p in (HERE / "scripts").glob("*.py"))


@pytest.mark.parametrize("name", SCRIPTS)
def test_prints_what_mindspore_prints(name, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-m", "graphkiln", "run",
                          str(HERE / "scripts" / f"{name}.py")], cwd=tmp_path,
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    want = (HERE / "fixtures" / f"{name}.txt").read_text()
    assert out.stdout.splitlines() == want.splitlines()
