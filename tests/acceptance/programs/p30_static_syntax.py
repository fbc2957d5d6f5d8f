"""Static-graph syntax from MindSpore's guides: JIT Fallback with NumPy in construct, print
and raise inside graphs, isinstance on inputs, nested functions, tuple unpacking, list
comprehension, dict outputs, jacfwd/jacrev, stop_gradient."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Fallback(nn.Cell):
    def construct(self, x):
        a = np.array([1, 2, 3])
        b = Tensor(a, ms.float32)
        return x + b.sum() + len(a)


print("fallback", Fallback()(Tensor(np.ones(2, np.float32))))


@ms.jit
def checks(x, flag):
    if isinstance(flag, bool) and flag:
        y = x * 2
    else:
        y = x - 1
    squares = [i * i for i in range(4)]
    first, *rest = squares
    return {"y": y, "first": first, "rest": rest}


print("dict", checks(Tensor(np.arange(3, dtype=np.float32)), True))


@ms.jit
def guarded(x):
    if x.shape[0] > 2:
        raise ValueError("too long: " + str(x.shape[0]))
    return x * 3


print("guarded", guarded(Tensor(np.ones(2, np.float32))))
try:
    guarded(Tensor(np.ones(3, np.float32)))
except ValueError as e:
    print("raised ValueError:", str(e).splitlines()[0])


@ms.jit
def nested(x):
    def inner(v, k):
        return v * k + ops.stop_gradient(v)
    return inner(x, 2) + inner(x, 3)


print("nested", nested(Tensor(np.array([1.0, 2.0], np.float32))))
print("grad through stop_gradient", ms.grad(nested)(Tensor(np.array([1.0, 2.0], np.float32))))


def f(x):
    return ops.sin(x) * x ** 2


x = Tensor(np.array([0.5, 1.0, 2.0], np.float32))
print("jacfwd", ms.ops.jacfwd(f)(x))
print("jacrev", ms.ops.jacrev(f)(x))


@ms.jit
def loop_with_break(x):
    total = x * 0
    for i in range(10):
        if i == 4:
            break
        total = total + x * i
    return total


print("break", loop_with_break(Tensor(np.array([1.0, -1.0], np.float32))))
