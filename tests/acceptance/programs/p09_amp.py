"""Mixed precision: Model(amp_level="O2") with a loss scale, and amp.auto_mixed_precision."""
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, amp
from mindspore.train import Model, LossMonitor
import mindspore.dataset as ds

rng = np.random.default_rng(4)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(8, 16)
        self.bn = nn.BatchNorm1d(16)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(16, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.bn(self.fc1(x))))


def init(net):
    for p in net.trainable_params():
        if "bn" not in p.name:
            p.set_data(Tensor(rng.normal(0, 0.1, p.shape).astype(np.float32)))


x = rng.normal(size=(32, 8)).astype(np.float32)
y = rng.integers(0, 3, 32).astype(np.int32)
data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)

net = Net()
init(net)
loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
model = Model(net, loss, opt, amp_level="O2", loss_scale_manager=ms.FixedLossScaleManager(
    128.0, drop_overflow_update=False))
model.train(2, data, callbacks=[LossMonitor(2)], dataset_sink_mode=False)
print(net.fc1.weight.dtype)
net.set_train(False)
out = net(Tensor(x[:4]))
print(out.dtype, np.round(out.asnumpy().astype(np.float32), 2).tolist())

net2 = Net()
init(net2)
net2 = amp.auto_mixed_precision(net2, "O3")
out2 = net2(Tensor(x[:4]))
print(out2.dtype, np.round(out2.asnumpy().astype(np.float32), 2).tolist())
net3 = Net()
init(net3)
net3 = amp.auto_mixed_precision(net3, "O1")
out3 = net3(Tensor(x[:4]))
print(out3.dtype, np.round(out3.asnumpy().astype(np.float32), 2).tolist())
