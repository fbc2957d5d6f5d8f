"""``ops.Print`` writes what MindSpore 2.10 writes: tensor ``repr`` in PYNATIVE, the graph
kernel's format inside a compiled graph (no commas, no space after ``value=``, a 0-d tensor
as its value, a bool as 0/1). Oracle: fixtures/print_output.txt (fixtures/record_print.py)."""
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
REPO = HERE.parents[1]


def test_print_output_matches_mindspore():
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-m", "graphkiln", "run",
                          str(HERE / "print_script.py")],
                         capture_output=True, text=True, env=env, timeout=120, check=True)
    assert out.stdout == (HERE / "fixtures" / "print_output.txt").read_text()
