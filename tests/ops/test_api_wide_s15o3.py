"""What MindSpore's tests/st/ops slice "every 15th file from the 3rd" needed beyond its
recorded families (collected by test_api_families.py): ``fftshift`` with a run-time ``dim``
in a graph."""
import sys
from pathlib import Path

import numpy as np

import graphkiln as ms

sys.path.insert(0, str(Path(__file__).resolve().parent))


class _Shift(ms.nn.Cell):
    def construct(self, x, dim):
        return ms.ops.fftshift(x, dim)


def test_fftshift_run_time_dim_and_shape_in_a_graph():
    """``dim`` a mutable int and the shape unknown (``set_inputs``) in GRAPH mode: NumPy's
    ``fftshift`` for inputs of two shapes, one compiled graph."""
    x_np = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _Shift()
        net.set_inputs(ms.Tensor(shape=[None, None, None], dtype=ms.float32), ms.mutable(0))
        for x, dim in ((x_np, 1), (x_np[:, :2].copy(), 2)):
            got = net(ms.Tensor(x), ms.mutable(dim)).asnumpy()
            np.testing.assert_array_equal(got, np.fft.fftshift(x, dim))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
