"""The mint API (MindSpore 2.x's PyTorch-style surface) in a small training loop: only what
MindSpore 2.10's CPU build runs (mint's GELU, LayerNorm, AdamW, cross_entropy, arange, topk,
sort, argmax, gather, stack and where kernels are not registered there)."""
import numpy as np
import mindspore as ms
from mindspore import mint, Tensor
from mindspore.mint import nn as mnn
from mindspore.mint.nn import functional as F

ms.set_seed(8)


class Net(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = mnn.Linear(6, 12)
        self.act = mnn.ReLU()
        self.norm = mnn.Identity()
        self.fc2 = mnn.Linear(12, 3)

    def construct(self, x):
        return self.fc2(self.norm(self.act(self.fc1(x))))


net = Net()
opt = ms.experimental.optim.AdamW(net.trainable_params(), lr=0.01, weight_decay=0.01)
rng = np.random.RandomState(3)
x = Tensor(rng.randn(10, 6).astype(np.float32))
y = Tensor(rng.randint(0, 3, 10).astype(np.int64))


def loss_fn(x, y):
    return ms.ops.cross_entropy(net(x), y)


grad_fn = ms.value_and_grad(loss_fn, None, net.trainable_params())
for step in range(4):
    loss, grads = grad_fn(x, y)
    opt(grads)
    print(f"step {step} loss {loss.asnumpy():.5f}")
a = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
print(mint.sum(a, dim=1), mint.mean(a), mint.max(a, dim=1))
