"""Custom Cells with Parameters and primitives from ops.operations (P.*), GRAPH_MODE."""
import numpy as np
import mindspore as ms
import mindspore.ops.operations as P
import mindspore.ops.functional as F
from mindspore import nn, Tensor, Parameter
from mindspore.common import dtype as mstype

ms.set_context(mode=ms.GRAPH_MODE)
rng = np.random.default_rng(9)


class MyDense(nn.Cell):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.weight = Parameter(Tensor(rng.normal(0, 0.5, (in_dim, out_dim)), mstype.float32),
                                name="w")
        self.bias = Parameter(Tensor(np.zeros(out_dim), mstype.float32), name="b")
        self.matmul = P.MatMul()
        self.bias_add = P.BiasAdd()
        self.act = P.Tanh()

    def construct(self, x):
        return self.act(self.bias_add(self.matmul(x, self.weight), self.bias))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.l1 = MyDense(5, 4)
        self.l2 = MyDense(4, 3)
        self.reduce_sum = P.ReduceSum(keep_dims=False)
        self.concat = P.Concat(axis=1)
        self.reshape = P.Reshape()
        self.cast = P.Cast()
        self.square = P.Square()
        self.transpose = P.Transpose()

    def construct(self, x):
        h = self.l2(self.l1(x))
        both = self.concat((h, self.square(h)))
        both = self.transpose(self.reshape(both, (-1, 2, 3)), (0, 2, 1))
        total = self.reduce_sum(self.cast(both, mstype.float32), (1, 2))
        return F.sqrt(F.abs(total)) + F.shape(x)[0]


net = Net()
x = Tensor(rng.normal(size=(3, 5)).astype(np.float32))
print(net(x))
grad = ms.grad(net, grad_position=None, weights=net.trainable_params())
for g, p in zip(grad(x), net.trainable_params()):
    print(p.name, np.round(g.asnumpy(), 5).tolist())
op = P.Softmax(axis=-1)
print(op(Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))))
print(P.OneHot()(Tensor(np.array([0, 2], np.int32)), 3, Tensor(1.0, mstype.float32),
                 Tensor(0.0, mstype.float32)))
print(P.Gather()(Tensor(np.arange(6).reshape(3, 2).astype(np.float32)),
                 Tensor(np.array([2, 0], np.int32)), 0))
