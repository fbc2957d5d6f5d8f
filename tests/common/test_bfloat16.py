"""``mindspore.bfloat16`` Tensors (stored through ml_dtypes): creation rounds to bfloat16,
arithmetic keeps the dtype, mixing with float32 promotes, ``.float()`` reads the values back.
Numbers from MindSpore 2.10 CPU (``fixtures/record_bfloat16.py``)."""
import numpy as np
import pytest

import graphkiln as ms

pytest.importorskip("ml_dtypes", reason="bfloat16 Tensors need the optional ml_dtypes package")


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_bfloat16_arithmetic_matches_mindspore(mode):
    ms.set_context(mode=mode)

    class Square(ms.nn.Cell):
        def construct(self, x, y):
            return x * x, x + y

    x = ms.Tensor(np.array([1.1, 2.5, -3.3]), ms.bfloat16)
    assert x.dtype == ms.bfloat16 and str(ms.bfloat16) == "BFloat16"
    assert repr(ms.bfloat16) == "mindspore.bfloat16"
    np.testing.assert_array_equal(x.float().asnumpy(), [1.1015625, 2.5, -3.296875])
    square, mixed = Square()(x, ms.Tensor(np.ones(3), ms.float32))
    assert square.dtype == ms.bfloat16 and mixed.dtype == ms.float32
    np.testing.assert_array_equal(square.float().asnumpy(), [1.2109375, 6.25, 10.875])
