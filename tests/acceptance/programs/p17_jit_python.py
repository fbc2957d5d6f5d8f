"""Python in @jit functions: control flow on tensors and constants, containers, mutable,
Tensor indexing and setitem, jit_class, methods, string formatting of shapes."""
import numpy as np
import mindspore as ms
from mindspore import ops, Tensor, nn, jit, mutable

ms.set_context(mode=ms.GRAPH_MODE)


@jit
def collatz_steps(n):
    steps = Tensor(0, ms.int32)
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps = steps + 1
    return steps


print("collatz", collatz_steps(Tensor(27, ms.int32)))


@jit
def containers(x):
    d = {"a": x, "b": x * 2}
    lst = [d["a"], d["b"]]
    lst.append(x + 100)
    total = 0
    for i, v in enumerate(lst):
        total = total + v * (i + 1)
    t = (total, len(lst), x.shape)
    return t


print("containers", containers(Tensor(np.array([1.0, 2.0], np.float32))))


@jit
def index_ops(x):
    y = x[1:, ::2]
    x[0, 1] = -1.0
    m = x > 3
    z = ops.masked_fill(x, m, 0.0)
    return y, x, z, x[..., -1], x[None, 0].shape


a = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
for r in index_ops(a):
    print("index", r)


@ms.jit_class
class Scaler:
    def __init__(self, k):
        self.k = k

    def apply(self, x):
        return x * self.k


class UseScaler(nn.Cell):
    def __init__(self):
        super().__init__()
        self.s = Scaler(3.0)

    def construct(self, x, n):
        out = x
        for _ in range(n):
            out = self.s.apply(out)
        return out


print("jit_class", UseScaler()(Tensor(np.ones(2, np.float32)), 3))


@jit
def dyn_loop(x, n):
    for _ in range(3):
        x = x + n
    return x, n * 2


print("mutable", dyn_loop(Tensor(1.0), mutable(2)))


@jit
def branches(x):
    if x.sum() > 0:
        y = ops.relu(x)
    elif x.sum() < -5:
        y = -x
    else:
        y = x * 0
    return y


for v in ([1.0, -2.0, 3.0], [-3.0, -3.0, -3.0], [-1.0, 0.5, 0.0]):
    print("branch", branches(Tensor(np.array(v, np.float32))))
