"""Cell and Parameter API: initializers with a seed, parameters_and_names, cells_and_names,
CellList/SequentialCell/CellDict editing, set_data, requires_grad, to_float, apply,
insert_param_to_cell, update_parameters_name, checkpoint dicts."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter
from mindspore.common.initializer import initializer, XavierUniform, HeUniform, Normal, Constant, TruncatedNormal

ms.set_seed(42)
w = initializer(XavierUniform(), [3, 4], ms.float32)
print("xavier", w.shape, w.dtype, np.round(w.asnumpy()[0], 5))
print("he", np.round(initializer(HeUniform(), [2, 3], ms.float32).asnumpy(), 5))
print("normal", np.round(initializer(Normal(0.5), [4], ms.float32).asnumpy(), 5))
print("trunc", np.round(initializer(TruncatedNormal(0.02), [4], ms.float32).asnumpy(), 5))
print("const", initializer(Constant(7), [2], ms.int32).asnumpy())
print("str init", initializer("ones", (2, 2), ms.float16).asnumpy())


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.bn = nn.BatchNorm1d(3)
        self.seq = nn.SequentialCell([nn.ReLU(), nn.Dense(3, 2)])
        self.extra = nn.CellList([nn.Dense(2, 2)])

    def construct(self, x):
        x = self.seq(self.bn(self.dense(x)))
        for c in self.extra:
            x = c(x)
        return x


net = Block()
for name, p in net.parameters_and_names():
    print("param", name, p.shape, p.requires_grad)
print("cells", [n for n, _ in net.cells_and_names()])
print("trainable", len(net.trainable_params()), "untrainable", len(net.untrainable_params()))
net.seq.append(nn.Sigmoid())
net.extra.append(nn.Dense(2, 1))
print("after append", len(net.seq), len(net.extra))
net.dense.weight.set_data(Tensor(np.full((3, 4), 0.1, np.float32)))
net.dense.bias.requires_grad = False
print("requires_grad", [p.name for p in net.trainable_params()][:3])


def init_weights(cell):
    if isinstance(cell, nn.Dense):
        cell.weight.set_data(initializer(Constant(0.05), cell.weight.shape, cell.weight.dtype))


net.apply(init_weights)
net.set_train(False)
out = net(Tensor(np.arange(8, dtype=np.float32).reshape(2, 4)))
print("out", out.shape, np.round(out.asnumpy(), 5))
half = nn.Dense(4, 2).to_float(ms.float16)
print("to_float", half(Tensor(np.ones((1, 4), np.float32))).dtype)
p = Parameter(Tensor(np.ones(2, np.float32)), name="scale")
net.insert_param_to_cell("scale", p)
print("inserted", "scale" in net.parameters_dict())
d = nn.CellDict({"a": nn.ReLU(), "b": nn.Tanh()})
d["c"] = nn.Sigmoid()
print("celldict", list(d.keys()), len(d))
cl = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="c")
cl2 = cl.clone(init="zeros")
print("clone", cl2.name, cl2.asnumpy())
print("param repr", cl)
