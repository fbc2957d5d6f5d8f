"""What MindSpore's tests/st/ops slice "every 15th file from the 3rd" needed, against
MindSpore 2.10 (fixtures/api_<family>.json by fixtures/record_api_cases.py, one family per
fix); GRAPH == PYNATIVE; ``fftshift`` with a run-time ``dim`` in a graph."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_case_check import check_graph, check_recorded, load  # noqa: E402

FAMILIES = {f: load(f) for f in ("segment_dtypes", "upsample", "pad_v3", "roi_align_grad",
                                 "row_update_methods", "sparse_segment_mean",
                                 "strided_slice_grad", "fft_shift", "tensor_to_tuple")}
CASES = [(f, name) for f, fam in FAMILIES.items() for name in sorted(fam.cases)]


@pytest.mark.parametrize("family, name", CASES)
def test_matches_mindspore(family, name):
    check_recorded(FAMILIES[family], name)


@pytest.mark.parametrize("family, name", CASES)
def test_graph_equals_pynative(family, name):
    check_graph(FAMILIES[family], name)


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
