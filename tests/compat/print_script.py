"""Print in PYNATIVE and inside a GRAPH_MODE cell: run by fixtures/record_print.py on
MindSpore and by test_print_format.py on graphkiln (``python -m graphkiln run``)."""
import mindspore as ms
import numpy as np
from mindspore import Tensor, ops


class Net(ms.nn.Cell):
    def construct(self, x, y, z, b):
        ops.Print()("x:", x, "y:", y, "z:", z, "b:", b, 5, 2.5, True, (1, 2))
        return x


for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    Net()(Tensor(np.array([[1.5, 2], [3, 4]], np.float32)), Tensor(np.array(3, np.int32)),
          Tensor(np.array([1, 2, 3], np.int64)), Tensor(np.array([True, False])))
    print("----", flush=True)
