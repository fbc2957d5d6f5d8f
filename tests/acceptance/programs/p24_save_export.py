"""Save and load checkpoints in the same program, export MINDIR and run it with GraphCell,
append_dict, strict loading reports, and a parameter-name prefix filter."""
import os
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor

ms.set_seed(5)


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 10)
        self.act = nn.GELU()
        self.fc2 = nn.Dense(10, 3)

    def construct(self, x):
        return self.fc2(self.act(self.fc1(x)))


net = MLP()
x = Tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(2, 6))
before = net(x).asnumpy()
ms.save_checkpoint(net, "mlp.ckpt", append_dict={"epoch": 3, "lr": 0.01})
params = ms.load_checkpoint("mlp.ckpt")
print("keys", sorted(params))
print("epoch", params["epoch"], "lr", params["lr"])
fresh = MLP()
print("differs before load", not np.allclose(fresh(x).asnumpy(), before))
not_loaded, unexpected = ms.load_param_into_net(fresh, params)
print("not loaded", not_loaded, "unexpected", sorted(unexpected))
print("same after load", np.allclose(fresh(x).asnumpy(), before))
only_fc1 = ms.load_checkpoint("mlp.ckpt", specify_prefix="fc1")
print("prefix", sorted(only_fc1))
ms.export(net, x, file_name="mlp", file_format="MINDIR")
print("exported", os.path.exists("mlp.mindir"))
graph = ms.load("mlp.mindir")
cell = nn.GraphCell(graph)
print("graphcell same", np.allclose(cell(x).asnumpy(), before, atol=1e-6))
print(np.round(before, 5))
