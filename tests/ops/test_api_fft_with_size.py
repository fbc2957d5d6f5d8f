"""``ops.FFTWithSize`` against MindSpore 2.10 (fixtures/api_fft_with_size.json by
fixtures/record_api_cases.py); GRAPH == PYNATIVE; the errors MindSpore documents where its
CPU kernel does otherwise."""
import sys
from pathlib import Path

import numpy as np
import pytest

from graphkiln import Tensor, ops

sys.path.insert(0, str(Path(__file__).resolve().parent))



def test_documented_errors():
    z = Tensor(np.ones((2, 4), np.complex64))
    with pytest.raises(ValueError, match="'signal_ndim' must be 1, 2 or 3"):
        ops.FFTWithSize(4, False, False)
    with pytest.raises(ValueError, match="at least signal_ndim = 3, but got 2"):
        ops.FFTWithSize(3, False, False)(z)
    with pytest.raises(TypeError, match="'inverse' must be a bool"):
        ops.FFTWithSize(1, 1, False)
