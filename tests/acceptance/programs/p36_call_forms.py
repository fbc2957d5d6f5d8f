"""How users call cells and jit functions: keyword arguments, defaults, *args, **kwargs,
None arguments, tuples/lists/dicts of tensors, Python scalars, jit methods on plain classes."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x, scale=2.0, mask=None, *extra, **options):
        y = self.fc(x) * scale
        if mask is not None:
            y = y * mask
        for e in extra:
            y = y + e
        if "shift" in options:
            y = y + options["shift"]
        return y


net = Net()
x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
print(net(x))
print(net(x, 3.0))
print(net(x, scale=0.5))
print(net(x, 1.0, Tensor(np.array([1.0, 0.0], np.float32))))
print(net(x, 1.0, None, Tensor(1.0), Tensor(2.0)))
print(net(x, 1.0, None, shift=Tensor(10.0)))


@ms.jit
def containers(pair, items, table, k=3):
    a, b = pair
    return a + b + items[0] * k + table["w"]


print(containers((Tensor(1.0), Tensor(2.0)), [Tensor(3.0)], {"w": Tensor(4.0)}))
print(containers((Tensor(1.0), Tensor(2.0)), [Tensor(3.0)], {"w": Tensor(4.0)}, k=1))


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @ms.jit
    def apply(self, x):
        return x * self.factor


print(Scaler(4.0).apply(Tensor(np.ones(2, np.float32))))
total = lambda t: t.sum()  # noqa: E731
print(ops.add(x, 1).shape, ms.jit(total)(x))
