"""A custom loss cell, and loss scaling through Model with a FixedLossScaleManager (MindSpore 2.10
on CPU cannot run TrainOneStepWithLossScaleCell: it has no NPUGetFloatStatusV2 kernel)."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor
from mindspore.train import Model

ms.set_seed(9)
ms.set_context(mode=ms.GRAPH_MODE)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.fc2 = nn.Dense(8, 1)

    def construct(self, x):
        return self.fc2(ops.relu(self.fc1(x)))


class MyLoss(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, x, y):
        return ops.reduce_mean(ops.square(self.net(x) - y))


rng = np.random.RandomState(2)
x = Tensor(rng.randn(16, 4).astype(np.float32))
y = Tensor(rng.randn(16, 1).astype(np.float32))
net = Net()
print("loss before", MyLoss(net)(x, y))
net2 = Net()
manager = ms.FixedLossScaleManager(128.0, drop_overflow_update=False)
model = Model(net2, nn.MSELoss(), nn.Momentum(net2.trainable_params(), 0.01, 0.9), loss_scale_manager=manager)
import mindspore.dataset as ds
data = ds.NumpySlicesDataset({"x": x.asnumpy(), "y": y.asnumpy()}, shuffle=False).batch(8)
model.train(2, data, dataset_sink_mode=False)
print("model2 out", np.round(net2(x[:2]).asnumpy(), 5))
