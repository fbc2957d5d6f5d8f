"""Run by tests/communication/test_two_processes.py on 2 ranks: Send/Receive (PYNATIVE and
GRAPH, with their gradients), comm_func's send/recv, isend/irecv, batch_isend_irecv, the
rooted collectives (reduce, gather_into_tensor, scatter_tensor, broadcast) with their
gradients and the all-to-all variants, against NumPy references. Each rank writes the names
of the checks it passed to <out>/rank_<r>.json."""
import json
import os
import sys

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops
from mindspore.communication import comm_func, get_group_size, get_rank, init
from rank_checks import Checks, base

out_dir = sys.argv[1]
init()
rank, size = get_rank(), get_group_size()
assert size == 2, "this script exchanges between exactly 2 ranks"
peer = 1 - rank
check = Checks(rank)
passed = check.passed
every = [base(r) for r in range(size)]
x = Tensor(base(rank))


class SendNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.send = ops.Send(sr_tag=3, dest_rank=1, group="hccl_world_group")

    def construct(self, x):
        return ops.depend(x, self.send(x))


class ReceiveNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.recv = ops.Receive(sr_tag=3, src_rank=0, shape=[2, 3], dtype=ms.float32)

    def construct(self):
        return self.recv()


# ops.Send / ops.Receive, as MindSpore's example uses them, in both modes
for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    if rank == 0:
        SendNet()(x)
        passed.append(f"Send.{mode}")
    else:
        check(f"Receive.{mode}", ReceiveNet()(), every[0])

# gradients: rank 0 sends x; rank 1 receives it and takes the loss sum(w * received), so
# Receive's backward sends w back and Send's backward on rank 0 receives it: dx = w
w = np.full((2, 3), 7.0, np.float32)
for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    if rank == 0:
        g = ms.grad(lambda x: ops.Send(sr_tag=5, dest_rank=1)(x).sum())(x)
        check(f"grad.Send.{mode}", g, w)
    else:
        def loss(v):
            recv = ops.Receive(sr_tag=5, src_rank=0, shape=[2, 3], dtype=ms.float32)
            return (recv(v) * Tensor(w)).sum()
        g = ms.grad(loss)(Tensor(np.zeros((2, 3), np.float32)))
        check(f"grad.Receive.{mode}", g, np.zeros((2, 3)))
ms.set_context(mode=ms.PYNATIVE_MODE)

# comm_func: blocking send/recv with tags (rank 0 sends first, rank 1 answers)
if rank == 0:
    comm_func.send(x, dst=1, tag=1)
    check("recv", comm_func.recv(Tensor(np.zeros((2, 3), np.float32)), src=1, tag=2),
          every[0] + 1)
else:
    got = comm_func.recv(Tensor(np.zeros((2, 3), np.float32)), src=0, tag=1)
    comm_func.send(got + 1, dst=0, tag=2)
    check("recv", got, every[0])

# isend/irecv: both ranks post the receive first, then send; blocking receives would
# deadlock here, so this checks they are really asynchronous
result, recv_handle = comm_func.irecv(Tensor(np.zeros((2, 3), np.float32)), src=peer, tag=4)
send_handle = comm_func.isend(x, dst=peer, tag=4)
send_handle.wait()
recv_handle.wait()
check("irecv", result, base(peer))

received = comm_func.batch_isend_irecv([comm_func.P2POp("isend", x, peer),
                                        comm_func.P2POp(comm_func.irecv, (2, 3), peer,
                                                        recv_dtype=ms.float32)])
check("batch_isend_irecv", received[1], base(peer))
assert received[0].shape == ()

# rooted collectives, eager and compiled
bases = [base(r) for r in range(size)]
for mode, run in (("pynative", lambda f, *a: f(*a)), ("graph", lambda f, *a: ms.jit(f)(*a))):
    reduced = run(lambda t: comm_func.reduce(t, dst=1), x)
    check(f"{mode}.reduce", reduced, sum(bases) if rank == 1 else np.zeros(1))
    gathered = run(lambda t: comm_func.gather_into_tensor(t, dst=0), x)
    check(f"{mode}.gather_into_tensor", gathered,
          np.concatenate(bases) if rank == 0 else np.zeros(1))
    scattered = run(lambda t: comm_func.scatter_tensor(t, src=1), Tensor(base(rank)))
    check(f"{mode}.scatter_tensor", scattered, base(1)[rank:rank + 1])
    check(f"{mode}.broadcast", run(lambda t: comm_func.broadcast(t, src=1), x), base(1))

# gradients of the rooted collectives (loss on every rank: sum(weight_r * out))
weight = float(rank + 1)
g = ms.grad(lambda t: (comm_func.reduce(t, dst=1) * weight).sum())(x)
check("grad.reduce", g, np.full((2, 3), 2.0))  # the root's weight, broadcast
g = ms.grad(lambda t: (comm_func.gather_into_tensor(t, dst=0) * weight).sum())(x)
check("grad.gather_into_tensor", g, np.full((2, 3), 1.0))
g = ms.grad(lambda t: (comm_func.scatter_tensor(t, src=0) * weight).sum())(x)
check("grad.scatter_tensor", g, np.repeat([[1.0], [2.0]], 3, 1) if rank == 0 else np.zeros((2, 3)))

# all-to-all with uneven pieces: rank r sends r+1 values to rank 0 and 2 to rank 1
pieces = [Tensor(np.full(rank + 1, 10 * rank, np.float32)),
          Tensor(np.full(2, 10 * rank + 1, np.float32))]
shapes = [(r + 1,) for r in range(size)] if rank == 0 else [(2,), (2,)]
got, handle = comm_func.all_to_all_with_output_shape(shapes, pieces)
assert handle is None
for r in range(size):
    check(f"all_to_all_with_output_shape.{r}", got[r],
          np.full(shapes[r], 10 * r + rank, np.float32))
rows = Tensor(np.arange(9, dtype=np.float32).reshape(3, 3) + 100 * rank)
# rank 0 sends 1 row to rank 0 and 2 to rank 1; rank 1 sends 2 to rank 0 and 1 to rank 1
in_split = [1, 2] if rank == 0 else [2, 1]
out_split = [1, 2] if rank == 0 else [2, 1]
got, handle = comm_func.all_to_all_single_with_output_shape(
    (3, 3), rows, out_split, in_split, async_op=True)
handle.wait()
sent = [np.arange(9, dtype=np.float32).reshape(3, 3) + 100 * r for r in range(size)]
want = np.concatenate([sent[0][:1], sent[1][:2]]) if rank == 0 else \
    np.concatenate([sent[0][1:], sent[1][2:]])
check("all_to_all_single_with_output_shape", got, want)
g = ms.grad(lambda t: (comm_func.all_to_all_single_with_output_shape(
    (3, 3), t, out_split, in_split)[0] * weight).sum())(rows)
# each row is received by rank 0 (weight 1) or rank 1 (weight 2)
to_one = [1, 2] if rank == 0 else [2, 1]
want = np.repeat(np.array([1.0] * to_one[0] + [2.0] * to_one[1])[:, None], 3, 1)
check("grad.all_to_all_single_with_output_shape", g, want)

comm_func.barrier()
with open(os.path.join(out_dir, f"rank_{rank}.json"), "w") as f:
    json.dump({"rank": rank, "passed": passed}, f)
print(f"rank {rank}: {len(passed)} checks passed")
