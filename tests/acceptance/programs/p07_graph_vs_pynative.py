"""The same network and train step in PYNATIVE_MODE and GRAPH_MODE via set_context, with @ms.jit."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 8)
        self.fc2 = nn.Dense(8, 2)
        self.relu = nn.ReLU()

    def construct(self, x):
        h = self.relu(self.fc1(x))
        if h.sum() > 1.0:
            h = h * 0.5
        for _ in range(2):
            h = h + 0.1
        return self.fc2(h)


def run(mode):
    ms.set_context(mode=mode)
    rng = np.random.default_rng(1)
    net = Net()
    for p in net.trainable_params():
        p.set_data(Tensor(rng.normal(0, 0.4, p.shape).astype(np.float32)))
    x = Tensor(rng.normal(size=(5, 6)).astype(np.float32))
    y = Tensor(rng.normal(size=(5, 2)).astype(np.float32))
    loss_fn = nn.MSELoss()
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1, momentum=0.5)

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)

    @ms.jit
    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    losses = [float(train_step(x, y).asnumpy()) for _ in range(4)]
    print(ms.get_context("mode"), [round(v, 6) for v in losses])
    print(np.round(net(x).asnumpy(), 5).tolist())
    print(ops.clip_by_value(net(x), -0.1, 0.1).asnumpy().max())


run(ms.PYNATIVE_MODE)
run(ms.GRAPH_MODE)
