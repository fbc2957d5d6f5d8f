"""``ReduceMax``/``ReduceMin`` of uint16/uint32/uint64 against MindSpore 2.10
(fixtures/api_reduce_unsigned.json by fixtures/record_api_cases.py); GRAPH == PYNATIVE."""
import sys
from pathlib import Path

import numpy as np
import pytest

from graphkiln import Tensor, ops

sys.path.insert(0, str(Path(__file__).resolve().parent))



@pytest.mark.parametrize("op", [ops.ReduceMax, ops.ReduceMin])
def test_bool_is_refused(op):
    # (MindSpore's CPU kernels have no bool version either)
    with pytest.raises(TypeError, match="Bool"):
        op()(Tensor(np.array([True, False])), 0)
