"""PyNative hooks as MindSpore runs them: ops.HookBackward, Tensor.register_hook, the four
Cell hooks with their handles, prints inside a differentiated construct, and a gradient
of a cell whose attribute changed after the first call."""
import mindspore as ms
import numpy as np
from mindspore import nn, ops

ms.set_context(mode=ms.PYNATIVE_MODE)
a = ms.Tensor(np.array([1.0, -2.0], np.float32))
b = ms.Tensor(np.array([3.0, 0.5], np.float32))


def show(tag):
    def hook(*args):
        print(tag, *args[1:] if len(args) > 1 else args)
    return hook


scale_pair = ops.HookBackward(lambda grads: (grads[0] * 10, grads[1]))
log_grad = ops.HookBackward(show("hook backward:"))


def pair_fn(x, y):
    p, q = scale_pair(x * y, x + y)
    return log_grad(p * q).sum()


print(ms.value_and_grad(pair_fn, grad_position=(0, 1))(a, b))


def tensor_hook_fn(x, y):
    z = x * y
    z.register_hook(lambda g: g * 3)
    w = x - y
    w.register_hook(show("tensor hook:"))
    return (z * w).sum()


print(ms.grad(tensor_hook_fn, grad_position=(0, 1))(a, b))


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
        self.factor = 2.0

    def construct(self, x, y):
        print("construct sees", x.shape, y)
        return self.dense(x * y) * self.factor


def double_first(cell, inputs):
    print("pre hook:", type(cell).__name__, len(inputs))
    return (inputs[0] * 2, inputs[1])


def add_one(cell, inputs, output):
    print("forward hook:", output)
    return output + 1


def clip_grad(cell, grad_output):
    print("backward pre hook:", grad_output)
    return (grad_output[0] * 0.5,)


def watch_grads(cell, grad_input, grad_output):
    print("backward hook:", grad_input, grad_output)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def construct(self, x, y):
        return self.block(x, y).sum()


net = Net()
handles = [net.block.register_forward_pre_hook(double_first),
           net.block.register_forward_hook(add_one),
           net.block.register_backward_pre_hook(clip_grad),
           net.block.register_backward_hook(watch_grads)]
x = ms.Tensor(np.array([[1.0, 2.0]], np.float32))
y = ms.Tensor(np.array([[0.5, -1.0]], np.float32))
grad_net = ms.grad(net, grad_position=(0, 1))
print(net(x, y))
print(grad_net(x, y))
for h in handles[:2]:
    h.remove()
print(grad_net(x, y))
handles[2].remove()
handles[3].remove()
handles[3].remove()
print(grad_net(x, y))
net.block.factor = 5.0
print(grad_net(x, y))


def plain(u, v):
    return (u * v).sum()


try:
    ms.grad(plain, grad_position=(0, 2))(a, b)
except RuntimeError as e:
    print("RuntimeError", "Position index 2 is exceed input size." in str(e))
