"""Run by tests/communication/test_two_processes.py on 2 ranks: one fault per run
(``faults.py FAULT [marker]``; the marker only tags the processes).

raise     rank 1 fails while rank 0 waits in an AllReduce
stuck     rank 1 never joins the AllReduce (GRAPHKILN_COMM_TIMEOUT makes rank 0 give up)
shape     the ranks all-reduce tensors of different shapes
op        rank 0 runs AllReduce while rank 1 runs AllGather
kill      rank 1 is killed by SIGKILL while rank 0 waits in an AllReduce
recv      rank 1 receives a float32[3] where rank 0 sends a float32[2]
"""
import os
import signal
import sys
import time

import numpy as np
from mindspore import Tensor, ops
from mindspore.communication import comm_func, get_rank, init

init()
fault, rank = sys.argv[1], get_rank()
x = Tensor(np.ones(2, np.float32))
if fault == "raise":
    if rank == 1:
        raise ValueError("rank 1 failed on purpose")
    ops.AllReduce()(x)
elif fault == "stuck":
    if rank == 1:
        time.sleep(120)
    ops.AllReduce()(x)
elif fault == "shape":
    ops.AllReduce()(Tensor(np.ones(2 + rank, np.float32)))
elif fault == "op":
    (ops.AllReduce() if rank == 0 else ops.AllGather())(x)
elif fault == "kill":
    if rank == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    ops.AllReduce()(x)
elif fault == "recv":
    if rank == 0:
        comm_func.send(x, dst=1)
        ops.AllReduce()(x)  # waits until rank 1 fails
    else:
        comm_func.recv(Tensor(np.ones(3, np.float32)), src=0)
print("unreachable: the fault did not raise")
