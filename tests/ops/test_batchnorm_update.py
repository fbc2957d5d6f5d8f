"""``ops.BatchNorm(is_training=True)`` given Parameters for ``mean`` and ``variance``
moves them toward the batch's statistics, as MindSpore's kernel does, in both modes
(recorded by ``fixtures/record_batchnorm_update.py`` on MindSpore 2.10)."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, ops

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
import batchnorm_update_cases  # noqa: E402

RECORDED = json.loads((FIXTURES / "batchnorm_update.json").read_text())


@pytest.mark.parametrize("mode", ["graph", "pynative"])
@pytest.mark.parametrize("case", sorted(RECORDED))
def test_running_statistics_move_as_on_mindspore(case, mode):
    got = batchnorm_update_cases.run(ms, ms.GRAPH_MODE if mode == "graph" else
                                     ms.PYNATIVE_MODE, batchnorm_update_cases.CASES[case])
    want = RECORDED[case][mode]
    for key in ("mean", "variance"):
        np.testing.assert_allclose(got[key], want[key], rtol=1e-6)
    for g, w in zip(got["y"], want["y"]):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


def test_inference_and_plain_tensors_leave_the_statistics_alone():
    x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2))
    scale, bias = Tensor(np.ones(3, np.float32)), Tensor(np.zeros(3, np.float32))
    mean = Parameter(Tensor(np.ones(3, np.float32)), name="mean")
    var = Parameter(Tensor(np.full(3, 2.0, np.float32)), name="var")
    ops.BatchNorm(is_training=False)(x, scale, bias, mean, var)
    np.testing.assert_array_equal(mean.asnumpy(), np.ones(3, np.float32))
    plain = Tensor(np.ones(3, np.float32))
    ops.BatchNorm(is_training=True)(x, scale, bias, plain, Tensor(np.full(3, 2.0, np.float32)))
    np.testing.assert_array_equal(plain.asnumpy(), np.ones(3, np.float32))
