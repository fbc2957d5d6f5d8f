"""``nn.NLLLoss`` and ``ops.nll_loss`` in a MINDIR file: graphkiln reads its own export back
with the same losses, and (where /work/msvenv exists) MindSpore 2.10 loads and runs the file
with the losses of its own ``nn.NLLLoss``/``ops.nll_loss`` on the same inputs. (ONNX: neither
MindSpore, "MaskedFill ... not yet supported", nor graphkiln, OneHot, exports it.)"""
import json
import os
import subprocess

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn, ops

MSVENV_PYTHON = "/work/msvenv/bin/python"
X = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
T = np.array([0, 2, 1], np.int32)
W = np.array([1.0, 2.0, 3.0, 4.0], np.float32)


class Loss(nn.Cell):
    def __init__(self, reduction: str):
        super().__init__()
        self.loss = nn.NLLLoss(reduction=reduction)

    def construct(self, x, t):
        return self.loss(x, t)


class WeightedSum(nn.Cell):
    def construct(self, x, t, w):
        return ops.nll_loss(x, t, w, ignore_index=1, reduction="sum")


NETS = {"mean": (lambda: Loss("mean"), 2), "none": (lambda: Loss("none"), 2),
        "weighted_sum": (WeightedSum, 3)}


def _export(name: str, directory) -> tuple[str, np.ndarray]:
    make, n = NETS[name]
    inputs = [ms.Tensor(a) for a in (X, T, W)[:n]]
    path = os.path.join(str(directory), name)
    ms.export(make(), *inputs, file_name=path, file_format="MINDIR")
    return path + ".mindir", make()(*inputs).asnumpy()


@pytest.mark.parametrize("name", sorted(NETS))
def test_round_trip_through_graphkiln(name, tmp_path):
    path, want = _export(name, tmp_path)
    n = NETS[name][1]
    got = nn.GraphCell(ms.load(path))(*[ms.Tensor(a) for a in (X, T, W)[:n]]).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


@pytest.mark.skipif(not os.path.exists(MSVENV_PYTHON),
                    reason="MindSpore 2.10 is not installed here (/work/msvenv)")
def test_mindspore_runs_the_files(tmp_path):
    paths = {name: _export(name, tmp_path)[0] for name in NETS}
    np.save(tmp_path / "x.npy", X)
    np.save(tmp_path / "t.npy", T)
    np.save(tmp_path / "w.npy", W)
    script = (
        "import json, numpy as np, mindspore as ms\n"
        f"d = {str(tmp_path)!r}\n"
        "x, t, w = (ms.Tensor(np.load(f'{d}/{n}.npy')) for n in 'xtw')\n"
        f"paths = {paths!r}\n"
        "run = lambda p, *a: ms.nn.GraphCell(ms.load(p))(*a).asnumpy().tolist()\n"
        "print(json.dumps({\n"
        "  'mean': [run(paths['mean'], x, t), ms.nn.NLLLoss()(x, t).asnumpy().tolist()],\n"
        "  'none': [run(paths['none'], x, t),\n"
        "           ms.nn.NLLLoss(reduction='none')(x, t).asnumpy().tolist()],\n"
        "  'weighted_sum': [run(paths['weighted_sum'], x, t, w), ms.ops.nll_loss(\n"
        "      x, t, w, ignore_index=1, reduction='sum').asnumpy().tolist()]}))\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([MSVENV_PYTHON, "-c", script], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    results = json.loads(out.stdout.strip().splitlines()[-1])
    for name, (loaded, direct) in results.items():
        np.testing.assert_allclose(loaded, direct, rtol=1e-6, atol=1e-6, err_msg=name)


def test_onnx_export_names_the_missing_op(tmp_path):
    with pytest.raises(ValueError, match="has no ONNX mapping"):
        ms.export(Loss("mean"), ms.Tensor(X), ms.Tensor(T), file_name=str(tmp_path / "n"),
                  file_format="ONNX")
