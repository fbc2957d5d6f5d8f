"""``ops.fftshift``/``ifftshift`` against MindSpore 2.10 (fixtures/api_fft_shift.json by
fixtures/record_api_cases.py); GRAPH == PYNATIVE."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_case_check import check_graph, check_recorded, load  # noqa: E402

FAM = load("fft_shift")


@pytest.mark.parametrize("name", sorted(FAM.cases))
def test_matches_mindspore(name):
    check_recorded(FAM, name)


@pytest.mark.parametrize("name", sorted(FAM.cases))
def test_graph_equals_pynative(name):
    check_graph(FAM, name)


class _Shift(ms.nn.Cell):
    def construct(self, x, dim):
        return ms.ops.fftshift(x, dim)


def test_run_time_dim_and_shape_in_a_graph():
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
