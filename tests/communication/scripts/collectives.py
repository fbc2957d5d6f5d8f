"""Run by tests/communication/test_two_processes.py on 2+ ranks (graphkiln msrun or
mpiexec): every collective in PYNATIVE and GRAPH mode against NumPy references, gradients
through AllReduce/AllGather, vmap of the collectives against a loop of per-example calls,
groups, comm_func and the bucketed gradient reducer. Each rank writes the names of the
checks it passed to <out>/rank_<r>.json."""
import json
import os
import sys

import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, nn, ops
from mindspore.communication import (
    GlobalComm,
    comm_func,
    create_group,
    destroy_group,
    get_group_size,
    get_local_rank,
    get_local_rank_size,
    get_rank,
    init,
)
from rank_checks import Checks, base

out_dir = sys.argv[1]
init()
rank, size = get_rank(), get_group_size()
check = Checks(rank)
passed = check.passed
every = [base(r) for r in range(size)]
x = Tensor(base(rank))


def collectives(x):
    return (ops.AllReduce()(x), ops.AllReduce(ops.ReduceOp.MAX)(x),
            ops.AllReduce(ops.ReduceOp.MIN)(x), ops.AllReduce(ops.ReduceOp.PROD)(x),
            ops.AllGather()(x), ops.ReduceScatter()(ops.concat([x] * size)),
            ops.Broadcast(size - 1)((x,))[0],
            ops.AlltoAll(size, 1, 0)(ops.concat([x] * size, axis=1)))


want = (sum(every), np.max(every, 0), np.min(every, 0), np.prod(every, 0),
        np.concatenate(every), sum(every), every[-1],
        np.concatenate(every))
names = ("AllReduce.sum", "AllReduce.max", "AllReduce.min", "AllReduce.prod", "AllGather",
         "ReduceScatter", "Broadcast", "AlltoAll")
for mode, fn in (("pynative", collectives), ("graph", ms.jit(collectives))):
    for name, got, w in zip(names, fn(x), want):
        check(f"{mode}.{name}", got, w)
    ops.Barrier()()

half = ops.AllReduce()(Tensor(base(rank).astype(np.float16)))
assert half.dtype == ms.float16
check("AllReduce.float16", half, sum(every))
gathered = ops.AllGather()(Tensor(base(rank).astype(np.float16)))
assert gathered.dtype == ms.float16
check("AllGather.float16", gathered, np.concatenate(every))
check("AllReduce.scalar", ops.AllReduce()(Tensor(np.float32(rank + 1))), size * (size + 1) / 2)

# gradients: every rank r adds sum(w_r * AllReduce(x)) (or AllGather), so the cotangent of
# x is the sum of every rank's w: AllReduce (or ReduceScatter) of the upstream ones
w = Tensor(np.full((2, 3), rank + 1, np.float32))
for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    g = ms.grad(lambda x: (ops.AllReduce()(x) * w).sum())(x)
    check(f"grad.AllReduce.{mode}", g, np.full((2, 3), size * (size + 1) / 2))
    g = ms.grad(lambda x: (ops.AllGather()(x) * ops.concat([w] * size)).sum())(x)
    check(f"grad.AllGather.{mode}", g, np.full((2, 3), size * (size + 1) / 2))
ms.set_context(mode=ms.PYNATIVE_MODE)

# functional forms, local ranks, groups
out, handle = comm_func.all_reduce(x)
check("comm_func.all_reduce", out, sum(every))
assert handle is None
check("comm_func.all_gather_into_tensor", comm_func.all_gather_into_tensor(x)[0],
      np.concatenate(every))
check("comm_func.broadcast", comm_func.broadcast(x, src=0), every[0])
comm_func.barrier()
assert GlobalComm.WORLD_COMM_GROUP == "mccl_world_group" and GlobalComm.INITED
assert get_local_rank() == int(os.environ.get("GRAPHKILN_EXPECT_LOCAL_RANK", rank))
assert get_local_rank_size() == int(os.environ.get("GRAPHKILN_EXPECT_LOCAL_SIZE", size))
create_group("pair", [0, 1])
if rank < 2:
    assert get_rank("pair") == rank and get_group_size("pair") == 2
    check("group.AllReduce", ops.AllReduce(group="pair")(x), every[0] + every[1])
destroy_group("pair")

# the bucketed reducer equals one AllReduce per gradient (mean over ranks)
params = [Parameter(Tensor(np.zeros(s, np.float32)), name=f"p{i}")
          for i, s in enumerate([(3, 4), (5,), (2, 2, 2)])]
grads = tuple(Tensor(np.full(p.shape, rank + i, np.float32)) for i, p in enumerate(params))
fused = nn.DistributedGradReducer(params, mean=True, degree=size)(grads)
single = nn.DistributedGradReducer(params, mean=True, degree=size, fusion_type=0)(grads)
for i, (f, s) in enumerate(zip(fused, single)):
    check(f"reducer.{i}", f, s.asnumpy())
    check(f"reducer.mean.{i}", f, np.full(params[i].shape, (size - 1) / 2 + i))

# vmap of each collective equals a loop of per-example calls (batch axis 0 and 1)


def per_example(t):
    tiled = ops.concat([t] * size)
    return (ops.AllReduce()(t), ops.AllReduce(ops.ReduceOp.MAX)(t), ops.AllGather()(t),
            ops.ReduceScatter()(tiled), ops.Broadcast(size - 1)((t,))[0],
            ops.AlltoAll(size, 1, 0)(ops.concat([t] * size, axis=1)),
            comm_func.reduce(t, dst=size - 1), comm_func.gather_into_tensor(t, dst=0),
            comm_func.scatter_tensor(tiled, src=size - 1))


examples = np.stack([base(rank) * (k + 1) for k in range(3)])  # 3 examples of (2, 3)
loop = [np.stack(outs) for outs in zip(*[[o.asnumpy() for o in per_example(Tensor(e))]
                                         for e in examples])]
for mode, wrap in (("pynative", lambda f: f), ("graph", ms.jit)):
    for axis in (0, 1):
        got = wrap(ms.vmap(per_example, in_axes=axis))(Tensor(np.moveaxis(examples, 0, axis)))
        for i, (g, w) in enumerate(zip(got, loop)):
            check(f"vmap.{mode}.axis{axis}.{i}", g, w)

with open(os.path.join(out_dir, f"rank_{rank}.json.tmp"), "w") as fh:
    json.dump({"rank": rank, "size": size, "passed": passed}, fh)
os.replace(os.path.join(out_dir, f"rank_{rank}.json.tmp"),
           os.path.join(out_dir, f"rank_{rank}.json"))
print(f"rank {rank}: {len(passed)} checks passed")
