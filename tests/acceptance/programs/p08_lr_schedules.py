"""Learning-rate schedules: dynamic lr lists and LearningRateSchedule cells in optimizers."""
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor

print([round(v, 6) for v in nn.piecewise_constant_lr([2, 5, 8], [0.1, 0.05, 0.01])])
print([round(v, 6) for v in nn.cosine_decay_lr(0.01, 0.1, 8, 4, 2)])
print([round(v, 6) for v in nn.exponential_decay_lr(0.1, 0.9, 6, 2, 3, is_stair=True)])
print([round(v, 6) for v in nn.warmup_lr(0.1, 6, 2, 3)])
print([round(v, 6) for v in nn.polynomial_decay_lr(0.1, 0.01, 6, 2, 3, power=0.5)])
print([round(v, 6) for v in nn.inverse_decay_lr(0.1, 0.5, 6, 2, 2)])

step = Tensor(3, ms.int32)
for sched in (nn.ExponentialDecayLR(0.1, 0.9, 4), nn.CosineDecayLR(0.001, 0.1, 10),
              nn.PolynomialDecayLR(0.1, 0.01, 10, 0.5), nn.WarmUpLR(0.1, 10),
              nn.InverseDecayLR(0.1, 0.5, 4)):
    print(type(sched).__name__, f"{sched(step).asnumpy():.6f}")

net = nn.Dense(3, 1)
rng = np.random.default_rng(2)
for p in net.trainable_params():
    p.set_data(Tensor(rng.normal(size=p.shape).astype(np.float32)))
x = Tensor(rng.normal(size=(4, 3)).astype(np.float32))
y = Tensor(rng.normal(size=(4, 1)).astype(np.float32))
lr = nn.piecewise_constant_lr([2, 6], [0.1, 0.01])
opt = nn.Momentum(net.trainable_params(), learning_rate=lr, momentum=0.9)
train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
for i in range(4):
    print(i, f"{train(x, y).asnumpy():.6f}", f"{opt.get_lr().asnumpy():.4f}")
opt2 = nn.Adam(net.trainable_params(), learning_rate=nn.CosineDecayLR(0.0, 0.05, 4))
train2 = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt2)
for i in range(3):
    print("adam", i, f"{train2(x, y).asnumpy():.6f}")
print(np.round(net.weight.asnumpy(), 5).tolist())
