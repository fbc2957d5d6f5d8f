"""Live comparison with real MindSpore: the same script, run once with ``import mindspore``
and once with ``import graphkiln``, must print the same parameter and cell names.

Skipped unless a MindSpore interpreter is found: ``$GRAPHKILN_MINDSPORE_PYTHON`` or the
``../msvenv`` virtualenv the README describes.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _mindspore_python() -> str | None:
    candidates = [os.environ.get("GRAPHKILN_MINDSPORE_PYTHON", ""),
                  str(REPO.parent / "msvenv" / "bin" / "python")]
    for c in candidates:
        if c and Path(c).is_file():
            return c
    return None


SCRIPT = r'''
import json, sys
from collections import OrderedDict
import numpy as np
if sys.argv[1] == "mindspore":
    import mindspore as ms
else:
    import graphkiln as ms
nn, Parameter, Tensor = ms.nn, ms.Parameter, ms.Tensor

class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(np.ones(2), ms.float32))
        self.named = Parameter(Tensor(np.ones(2), ms.float32), name="param")
        self.dense = nn.Dense(2, 3)
    def construct(self, x):
        return x

class Outer(nn.Cell):
    def __init__(self, auto_prefix=True):
        super().__init__(auto_prefix)
        self.forward_net = Inner()
        self.b = Parameter(Tensor(np.ones(2), ms.float32), requires_grad=False)
        self.lst = nn.CellList([nn.Dense(2, 2), Inner()])
        self.lst.append(nn.Dense(2, 2))
        self.seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
        self.seqd = nn.SequentialCell(OrderedDict([("fc", nn.Dense(2, 2)), ("act", nn.GELU())]))
        self.norm = nn.LayerNorm((2,))
        self.emb = nn.Embedding(5, 2)
        self.drop = nn.Dropout(p=0.1)
    def construct(self, x):
        return x

out = {}
for ap in (True, False):
    net = Outer(ap)
    out[str(ap)] = {
        "params": [(n, p.name) for n, p in net.parameters_and_names()],
        "trainable": [p.name for p in net.trainable_params()],
        "cells": [n for n, _ in net.cells_and_names()],
        "name_cells": list(net.name_cells()),
        "repr": repr(net).count("\n"),
    }
print("RESULT" + json.dumps(out))
'''


def _run(python: str, which: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(REPO), GLOG_v="3")
    proc = subprocess.run([python, "-c", SCRIPT, which], capture_output=True, text=True,
                          env=env, timeout=300, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT")]
    assert proc.returncode == 0 and lines, proc.stderr[-2000:]
    return json.loads(lines[-1][len("RESULT"):])


@pytest.mark.skipif(_mindspore_python() is None, reason="MindSpore interpreter not found")
def test_names_match_mindspore():
    expected = _run(_mindspore_python(), "mindspore")
    got = _run(sys.executable, "graphkiln")
    assert got == expected
