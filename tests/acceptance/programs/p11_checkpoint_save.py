"""Save a trained network's checkpoint (read back by the other framework, see p12)."""
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor

rng = np.random.default_rng(21)
net = nn.SequentialCell([nn.Dense(4, 5), nn.ReLU(), nn.Dense(5, 2)])
for p in net.trainable_params():
    p.set_data(Tensor(rng.normal(size=p.shape).astype(np.float32)))
opt = nn.Adam(net.trainable_params(), 0.01)
train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
x = Tensor(rng.normal(size=(3, 4)).astype(np.float32))
y = Tensor(rng.normal(size=(3, 2)).astype(np.float32))
for _ in range(2):
    train(x, y)
ms.save_checkpoint(train, "trained.ckpt")
ms.save_checkpoint([{"name": "step", "data": Tensor(7, ms.int32)},
                    {"name": "w", "data": Tensor(np.eye(2, dtype=np.float16))}], "list.ckpt")
print(np.round(net(x).asnumpy(), 5).tolist())
