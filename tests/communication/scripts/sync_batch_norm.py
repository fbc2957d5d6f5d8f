"""Run by tests/communication/test_two_processes.py on 2 ranks: SyncBatchNorm on each
rank's half of a batch against BatchNorm2d on the whole batch in one process (forward,
gradients of the input and of gamma/beta, moving statistics), in GRAPH and PYNATIVE mode,
and process_groups=[[0], [1]] (no syncing) against BatchNorm2d on the rank's half. Each
rank writes the names of the checks it passed to <out>/rank_<r>.json."""
import json
import os
import sys

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops
from mindspore.communication import get_group_size, get_rank, init
from rank_checks import Checks

out_dir = sys.argv[1]
init()
rank, size = get_rank(), get_group_size()
checks = Checks(rank)


def check(name, got, want):
    """Sums taken in another order (E[x^2] - mean^2 against centred squares): float32."""
    checks(name, got, want, atol=1e-5)


whole = np.random.RandomState(7).randn(4 * size, 3, 5, 5).astype(np.float32)
sens = np.random.RandomState(8).randn(*whole.shape).astype(np.float32)
mine = slice(4 * rank, 4 * rank + 4)


def run(net, x, dy):
    """Output, input gradient, gamma and beta gradients and moving statistics."""
    net.set_train()
    out = net(Tensor(x))
    dx, (dgamma, dbeta) = _grads(net, x, dy, [net.gamma, net.beta])
    return out.asnumpy(), dx, dgamma, dbeta, net.moving_mean.asnumpy(), \
        net.moving_variance.asnumpy()


def _grads(net, x, dy, params):
    def loss(x):
        return (net(x) * Tensor(dy)).sum()
    dx, dw = ms.grad(loss, grad_position=0, weights=params)(Tensor(x))
    return dx.asnumpy(), (dw[0].asnumpy(), dw[1].asnumpy())


for mode, tag in ((ms.GRAPH_MODE, "graph"), (ms.PYNATIVE_MODE, "pynative")):
    ms.set_context(mode=mode)
    ref = run(nn.BatchNorm2d(3, momentum=0.8), whole, sens)
    got = run(nn.SyncBatchNorm(3, momentum=0.8), whole[mine], sens[mine])
    check(f"{tag}.output", got[0], ref[0][mine])
    check(f"{tag}.dx", got[1], ref[1][mine])
    summed = [ops.AllReduce()(Tensor(g)).asnumpy() for g in got[2:4]]
    check(f"{tag}.dgamma", summed[0], ref[2])
    check(f"{tag}.dbeta", summed[1], ref[3])
    check(f"{tag}.moving_mean", got[4], ref[4])
    check(f"{tag}.moving_variance", got[5], ref[5])

local = run(nn.SyncBatchNorm(3, process_groups=[[0], [1]]), whole[mine], sens[mine])
alone = run(nn.BatchNorm2d(3), whole[mine], sens[mine])
for name, g, w in zip(("output", "dx", "dgamma", "dbeta", "mean", "var"), local, alone):
    check(f"groups_of_one.{name}", g, w)

with open(os.path.join(out_dir, f"rank_{rank}.json"), "w") as f:
    json.dump({"rank": rank, "passed": checks.passed}, f)
