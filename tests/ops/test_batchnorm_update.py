"""``ops.BatchNorm(is_training=True)`` given Parameters for ``mean`` and ``variance``
moves them toward the batch's statistics, as MindSpore's kernel does, in both modes
(recorded by ``fixtures/record_batchnorm_update.py`` on MindSpore 2.10)."""
import json
import os

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "batchnorm_update.json")
RECORDED = json.load(open(FIXTURE))
MOMENTUM = {"momentum_0.2": 0.2, "default_momentum": None}


def _run(mode: int, momentum) -> dict:
    ms.set_context(mode=mode)
    x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) ** 1.5)
    scale, bias = Tensor(np.ones(3, np.float32)), Tensor(np.zeros(3, np.float32))
    mean = Parameter(Tensor(np.ones(3, np.float32)), name="mean")
    var = Parameter(Tensor(np.full(3, 2.0, np.float32)), name="var")
    bn = ops.BatchNorm(is_training=True) if momentum is None else \
        ops.BatchNorm(is_training=True, momentum=momentum)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.mean, self.var = mean, var

        def construct(self, t):
            return bn(t, scale, bias, self.mean, self.var)[0]

    net = Net()
    y = [net(x).asnumpy(), net(x).asnumpy()]
    return {"y": y, "mean": mean.asnumpy(), "variance": var.asnumpy()}


@pytest.mark.parametrize("mode", ["graph", "pynative"])
@pytest.mark.parametrize("case", sorted(RECORDED))
def test_running_statistics_move_as_on_mindspore(case, mode):
    got = _run(ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE, MOMENTUM[case])
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
