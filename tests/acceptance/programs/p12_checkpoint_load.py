"""Load checkpoints written by p11 (by either framework), and a missing file's error."""
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor

params = ms.load_checkpoint("trained.ckpt")
for name in sorted(params):
    p = params[name]
    print(name, p.shape, p.dtype, f"{float(np.abs(p.asnumpy()).sum()):.5f}")
net = nn.SequentialCell([nn.Dense(4, 5), nn.ReLU(), nn.Dense(5, 2)])
not_loaded, ckpt_not_loaded = ms.load_param_into_net(net, params)
print(not_loaded, sorted(ckpt_not_loaded))
x = Tensor(np.random.default_rng(0).normal(size=(2, 4)).astype(np.float32))
print(np.round(net(x).asnumpy(), 5).tolist())
lst = ms.load_checkpoint("list.ckpt")
print({k: (v.dtype, v.asnumpy().tolist()) for k, v in lst.items()})
only = ms.load_checkpoint("trained.ckpt", choice_func=lambda n: n.startswith("0."))
print(sorted(only))
try:
    ms.load_checkpoint("no_such_dir/missing.ckpt")
except Exception as e:
    print(type(e).__name__, "missing.ckpt" in str(e))
