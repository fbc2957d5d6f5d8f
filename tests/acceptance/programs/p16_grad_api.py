"""The gradient APIs users reach for: grad with positions, weights, has_aux; GradOperation
with get_all/get_by_list/sens_param; value_and_grad; vjp/jvp; second derivatives; jacfwd-like
vmap of grad."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter, ParameterTuple

ms.set_context(mode=ms.GRAPH_MODE)


def f(x, y):
    return (x * x * y).sum() + ops.sin(y).sum()


x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
y = Tensor(np.array([0.5, -1.0, 2.0], np.float32))
print("grad pos0", ms.grad(f)(x, y))
print("grad pos(0,1)", ms.grad(f, grad_position=(0, 1))(x, y))
print("value_and_grad", ms.value_and_grad(f, grad_position=1)(x, y))


def with_aux(x):
    return (x ** 3).sum(), x * 2


print("has_aux", ms.grad(with_aux, has_aux=True)(x))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([[0.1, -0.2], [0.05, 0.3]], np.float32)), name="w")
        self.b = Parameter(Tensor(np.array([0.1, 0.2], np.float32)), name="b")

    def construct(self, x):
        return ops.tanh(ops.matmul(x, self.w) + self.b)


net = Net()
inp = Tensor(np.array([[1.0, 2.0], [-1.0, 0.5]], np.float32))
params = ParameterTuple(net.trainable_params())
go = ops.GradOperation(get_by_list=True)
print("get_by_list", go(net, params)(inp))
go_all = ops.GradOperation(get_all=True, sens_param=True)
sens = Tensor(np.array([[1.0, 0.0], [0.0, 2.0]], np.float32))
print("get_all sens", go_all(net)(inp, sens))
g = ms.grad(net, grad_position=0, weights=net.trainable_params())(inp)
print("inputs and weights", g[0], g[1][0], g[1][1])


def cube(x):
    return x ** 3


out, vjp_fn = ms.vjp(cube, x)
print("vjp", out, vjp_fn(Tensor(np.ones(3, np.float32))))
print("jvp", ms.jvp(cube, x, Tensor(np.ones(3, np.float32))))
def quartic(t):
    return (t ** 4).sum()


second = ms.grad(ms.grad(quartic))
print("second", second(x))
def sin_t(t):
    return (ops.sin(t) * t).sum()


per_example = ms.vmap(ms.grad(sin_t), in_axes=0)
print("vmap grad", per_example(Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))))
