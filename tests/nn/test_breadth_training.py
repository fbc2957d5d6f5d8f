"""A small network built from breadth layers (Linear, CELU, GLU, Hardtanh, Unflatten,
ZeroPad2d, AdaptiveAvgPool3d, InstanceNorm1d) trained with a breadth loss and optimizer
(FocalLoss, Adadelta; PoissonNLLLoss, LazyAdam) gives the same losses in GRAPH and
PYNATIVE mode, and the losses go down."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        r = np.random.default_rng(0)
        self.fc = nn.Linear(6, 8, weight_init=Tensor(r.standard_normal((8, 6)).astype(
            np.float32) * 0.3))
        self.celu = nn.CELU(0.8)
        self.glu = nn.GLU()
        self.clip = nn.Hardtanh(-2.0, 2.0)
        self.unflatten = nn.Unflatten(1, (1, 2, 2))
        self.pad = nn.ZeroPad2d(1)
        self.pool = nn.AdaptiveAvgPool3d((1, 2, 2))
        self.norm = nn.InstanceNorm1d(1)
        self.out = nn.Linear(4, 3)

    def construct(self, x):
        h = self.clip(self.glu(self.celu(self.fc(x))))          # (N, 4)
        h = self.pool(self.pad(self.unflatten(h)))              # (N, 1, 2, 2)
        h = self.norm(h.reshape((h.shape[0], 1, 4)))            # (N, 1, 4)
        return self.out(h.reshape((h.shape[0], 4)))


def _train(mode, loss_fn, make_opt, labels):
    ms.set_context(mode=mode)
    ms.set_seed(1)
    net = Net()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), make_opt(net))
    step.set_train()
    x = Tensor(np.random.default_rng(3).standard_normal((6, 6)).astype(np.float32))
    return [float(step(x, labels).asnumpy()) for _ in range(4)]


@pytest.mark.parametrize("case", ["focal_adadelta", "poisson_lazy_adam"])
def test_graph_equals_pynative_and_loss_decreases(case):
    if case == "focal_adadelta":
        labels = Tensor(np.eye(3, dtype=np.float32)[[0, 1, 2, 0, 1, 2]])
        loss_fn, make_opt = nn.FocalLoss(), lambda n: nn.Adadelta(n.trainable_params(), 1.0)
    else:
        labels = Tensor(np.abs(np.random.default_rng(4).standard_normal((6, 3))).astype(
            np.float32))
        loss_fn = nn.PoissonNLLLoss()
        make_opt = lambda n: nn.LazyAdam(n.trainable_params(), 0.05)  # noqa: E731
    eager = _train(ms.PYNATIVE_MODE, loss_fn, make_opt, labels)
    graph = _train(ms.GRAPH_MODE, loss_fn, make_opt, labels)
    np.testing.assert_allclose(graph, eager, rtol=1e-5)
    assert eager[-1] < eager[0]
    ms.set_context(mode=ms.PYNATIVE_MODE)
