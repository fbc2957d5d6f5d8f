"""A custom optimizer written for MindSpore's parallel optimizer (``if self.use_parallel:
self.broadcast_params(...)``) trains unchanged: graphkiln's optimizers do not shard the
update, so ``use_parallel`` is False and ``broadcast_params`` hands back every parameter
after the update, as one group."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn, ops


class PlainSGD(nn.Optimizer):
    def __init__(self, params, lr):
        super().__init__(lr, params)

    def construct(self, grads):
        lr = self.get_lr()
        done = ()
        for p, g in zip(self._parameters, grads):
            done = done + (ops.assign(p, p - lr * g),)
        groups = self.broadcast_params(done)
        return groups[0][0] if not self.use_parallel else groups


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_broadcast_params_returns_the_updated_parameters(mode):
    ms.set_context(mode=mode)
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    opt = PlainSGD(net.trainable_params(), 0.5)
    grads = (ms.Tensor(np.array([[1.0, 3.0]], np.float32)), ms.Tensor(np.ones(1, np.float32)))
    first = opt(grads)
    np.testing.assert_allclose(first.asnumpy(), [[0.5, -0.5]])
    np.testing.assert_allclose(net.weight.asnumpy(), [[0.5, -0.5]])
    np.testing.assert_allclose(net.bias.asnumpy(), [-0.5])
    assert opt.use_parallel is False and opt.dev_num == 1
