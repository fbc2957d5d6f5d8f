"""A MindSpore data-parallel training script, unchanged for graphkiln: an MLP trained
with TrainOneStepCell in DATA_PARALLEL mode (gradients_mean=True). Every rank takes an equal
shard of the same global batch, so 1, 2 and 4 workers follow the same loss trace.
Rank 0 writes {"losses": [...], "checksum": ..., "params": {...}} to --out."""
import argparse
import json
import os

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops
from mindspore.communication import get_group_size, get_rank, init

GLOBAL_BATCH, IN, HIDDEN, OUT = 32, 16, 32, 4

parser = argparse.ArgumentParser()
parser.add_argument("--out", required=True)
parser.add_argument("--steps", type=int, default=10)
parser.add_argument("--mode", default="graph", choices=["graph", "pynative"])
parser.add_argument("--auto-parallel", action="store_true",
                    help="wrap the step in AutoParallel instead of setting DATA_PARALLEL")
args = parser.parse_args()

ms.set_context(mode=ms.GRAPH_MODE if args.mode == "graph" else ms.PYNATIVE_MODE)
init()
rank, size = get_rank(), get_group_size()
if not args.auto_parallel:
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True, device_num=size)


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        r = np.random.default_rng(0)
        self.fc1 = nn.Dense(IN, HIDDEN)
        self.fc2 = nn.Dense(HIDDEN, OUT)
        for p in self.trainable_params():  # the same initial weights on every rank
            p.set_data(Tensor((r.standard_normal(p.shape) * 0.3).astype(np.float32)))
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


data = np.random.default_rng(1)
xs = data.standard_normal((args.steps, GLOBAL_BATCH, IN)).astype(np.float32)
ys = data.standard_normal((args.steps, GLOBAL_BATCH, OUT)).astype(np.float32)
shard = GLOBAL_BATCH // size

net = MLP()
train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                            nn.SGD(net.trainable_params(), learning_rate=0.1))
if args.auto_parallel:
    from mindspore.parallel.auto_parallel import AutoParallel

    train = AutoParallel(train, parallel_mode="semi_auto")
    train.enable_gradients_mean()
mean_over_ranks = ops.AllReduce()
losses = []
for step in range(args.steps):
    x = Tensor(xs[step, rank * shard:(rank + 1) * shard])
    y = Tensor(ys[step, rank * shard:(rank + 1) * shard])
    loss = train(x, y)
    losses.append(float(mean_over_ranks(loss).asnumpy()) / size)

params = {p.name: p.asnumpy().tolist() for p in net.trainable_params()}
checksum = float(sum(np.abs(p.asnumpy()).sum() for p in net.trainable_params()))
if rank == 0:
    with open(args.out + ".tmp", "w") as f:
        json.dump({"workers": size, "losses": losses, "checksum": checksum, "params": params},
                  f)
    os.replace(args.out + ".tmp", args.out)
print(f"rank {rank}/{size} loss {losses[-1]:.6f} checksum {checksum:.6f}")
