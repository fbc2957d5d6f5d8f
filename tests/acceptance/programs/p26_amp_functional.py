"""MindSpore 2.x mixed precision in a functional loop: auto_mixed_precision, DynamicLossScaler
scale/unscale/adjust with all_finite, as the AMP tutorial writes it."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, amp

ms.set_seed(21)
ms.set_context(mode=ms.PYNATIVE_MODE)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense1 = nn.Dense(8, 16)
        self.bn = nn.BatchNorm1d(16)
        self.relu = nn.ReLU()
        self.dense2 = nn.Dense(16, 3)

    def construct(self, x):
        return self.dense2(self.relu(self.bn(self.dense1(x))))


base = Net()
net = amp.auto_mixed_precision(base, "O2")
print("dense dtype", base.dense1.weight.dtype)
loss_fn = nn.CrossEntropyLoss()
opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
scaler = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=2)


def forward(x, y):
    logits = net(x)
    loss = loss_fn(logits.astype(ms.float32), y)
    return scaler.scale(loss), logits


grad_fn = ms.value_and_grad(forward, None, net.trainable_params(), has_aux=True)
rng = np.random.RandomState(4)
x = Tensor(rng.randn(12, 8).astype(np.float32))
y = Tensor(rng.randint(0, 3, 12).astype(np.int32))
for step in range(5):
    (loss, logits), grads = grad_fn(x, y)
    loss = scaler.unscale(loss)
    finite = amp.all_finite(grads)
    grads = scaler.unscale(grads)
    scaler.adjust(finite)
    if finite:
        opt(grads)
    print(f"step {step} loss {loss.asnumpy():.4f} finite {bool(finite)} scale {scaler.scale_value.asnumpy()} logits {logits.dtype}")
