"""Custom building blocks: a Cell with bprop, a jit function with a custom gradient through
a Cell, ops.Custom pyfunc, Primitive attributes, ops.HookBackward, and a Cell hook."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class ClippedIdentity(nn.Cell):
    def construct(self, x):
        return x * 1.0

    def bprop(self, x, out, dout):
        return (ops.clip_by_value(dout, Tensor(-0.5), Tensor(0.5)),)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.clip = ClippedIdentity()
        self.w = ms.Parameter(Tensor(np.array([2.0, -3.0], np.float32)), name="w")

    def construct(self, x):
        return (self.clip(x * self.w) ** 2).sum()


net = Net()
x = Tensor(np.array([1.0, 1.0], np.float32))
print("grads", ms.grad(net, grad_position=0, weights=net.trainable_params())(x))


def square_py(a):
    return a * a


sq = ops.Custom(square_py, out_shape=lambda s: s, out_dtype=lambda t: t, func_type="pyfunc")
print("custom", sq(Tensor(np.array([1.5, -2.0], np.float32))))
add = ops.Add()
print("prim", add.name, add(Tensor(1.0), Tensor(2.0)))
reduce_sum = ops.ReduceSum(keep_dims=True)
print("attr", reduce_sum.keep_dims if hasattr(reduce_sum, "keep_dims") else reduce_sum.attrs.get("keep_dims"))
print(reduce_sum(Tensor(np.ones((2, 3), np.float32)), 1))
ms.set_context(mode=ms.PYNATIVE_MODE)
seen = []


def hook(grad):
    seen.append(grad[0].asnumpy().tolist())
    return (grad[0] * 2,)


hb = ops.HookBackward(hook)


def g(x):
    y = hb(x * 3)
    return (y * y).sum()


print("hooked grad", ms.grad(g)(Tensor(np.array([1.0, 2.0], np.float32))), seen)
dense = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
handle = dense.register_forward_hook(lambda cell, inputs, output: output + 1)
print("forward hook", dense(Tensor(np.array([[1.0, 2.0]], np.float32))))
handle.remove()
print("removed", dense(Tensor(np.array([[1.0, 2.0]], np.float32))))
