"""train.Model in DATA_PARALLEL mode on a sharded dataset: each rank reads its shard
(num_shards/shard_id), Model's TrainOneStepCell averages the gradients. Rank 0 writes
{"params": ..., "parallel_mode": ..., "device_number": ...} to argv[1]."""
import json
import os
import sys

import mindspore as ms
import mindspore.dataset as ds
import numpy as np
from mindspore import Tensor, nn
from mindspore.communication import get_group_size, get_rank, init
from mindspore.train import Callback, Model

ms.set_context(mode=ms.GRAPH_MODE)
init()
rank, size = get_rank(), get_group_size()
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)

data = np.random.default_rng(3)
x = data.standard_normal((64, 8)).astype(np.float32)
y = x.sum(axis=1, keepdims=True).astype(np.float32)
dataset = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False, num_shards=size,
                                shard_id=rank).batch(16 // size)

net = nn.Dense(8, 1)
net.weight.set_data(Tensor(np.full((1, 8), 0.1, np.float32)))
net.bias.set_data(Tensor(np.zeros(1, np.float32)))
seen = {}


class Record(Callback):
    def on_train_begin(self, run_context):
        params = run_context.original_args()
        seen.update(parallel_mode=params.parallel_mode, device_number=params.device_number)


model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), learning_rate=0.05))
model.train(2, dataset, callbacks=[Record()], dataset_sink_mode=False)
if rank == 0:
    with open(sys.argv[1] + ".tmp", "w") as f:
        json.dump({"params": {p.name: p.asnumpy().tolist() for p in net.trainable_params()},
                   **seen}, f)
    os.replace(sys.argv[1] + ".tmp", sys.argv[1])
