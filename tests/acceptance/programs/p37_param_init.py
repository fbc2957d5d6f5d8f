"""Parameters built from initializers inside cells, in the order MindSpore draws them."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter
from mindspore.common.initializer import initializer, Normal, TruncatedNormal, XavierUniform, Zero

ms.set_seed(123)


class Attention(nn.Cell):
    def __init__(self, d=6):
        super().__init__()
        self.wq = Parameter(initializer(TruncatedNormal(0.02), [d, d]), name="wq")
        self.wk = Parameter(initializer(XavierUniform(), [d, d]), name="wk")
        self.bias = Parameter(initializer(Zero(), [d]), name="bias")
        self.scale = Parameter(Tensor(1.0 / np.sqrt(d), ms.float32), name="scale", requires_grad=False)
        self.proj = nn.Dense(d, d, weight_init=Normal(0.05))

    def construct(self, x):
        q = ops.matmul(x, self.wq)
        k = ops.matmul(x, self.wk)
        att = ops.softmax(ops.matmul(q, k.T) * self.scale, -1)
        return self.proj(ops.matmul(att, x) + self.bias)


net = Attention()
for name, p in net.parameters_and_names():
    print(name, p.shape, np.round(p.asnumpy().ravel()[:3], 6))
lazy = initializer(Normal(1.0), [2, 3], ms.float32)
later = Tensor(shape=(3,), dtype=ms.float32, init=Normal(2.0))
print("lazy first use", np.round((later.init_data() * 1).asnumpy(), 5), np.round(lazy.init_data().asnumpy(), 5))
x = Tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(2, 6))
print(np.round(net(x).asnumpy(), 5))
grads = ms.grad(net, weights=net.trainable_params())(x)[1]
print([g.shape for g in grads])
print(np.round(grads[0].asnumpy()[0], 6))
