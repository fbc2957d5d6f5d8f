"""MindSpore's quick start runs unchanged under ``python -m graphkiln run`` on MNIST idx files
written by quickstart/write_mnist.py; its printout matches MindSpore 2.10's."""
import os
import subprocess
import sys

from .quickstart.write_mnist import write

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "quickstart")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
# the data part's printout from /work/msvenv/bin/python quickstart.py (MindSpore 2.10) on the
# same files
MINDSPORE_PRINTS = """['image', 'label']
Shape of image [N, C, H, W]: (64, 1, 28, 28) Float32
Shape of label: (64,) Int32
Shape of image [N, C, H, W]: (64, 1, 28, 28) Float32
Shape of label: (64,) Int32
"""


def _run(script: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "graphkiln", "run",
                           os.path.join(HERE, script)], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, PYTHONPATH=ROOT))


def test_quickstart_data_part(tmp_path):
    write(str(tmp_path))
    out = _run("quickstart.py", tmp_path)
    assert out.stdout.startswith(MINDSPORE_PRINTS + "Network("), out.stderr[-2000:]


def test_whole_quickstart(tmp_path):
    write(str(tmp_path))
    out = _run("quickstart.py", tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith(MINDSPORE_PRINTS) and "Done!" in out.stdout
