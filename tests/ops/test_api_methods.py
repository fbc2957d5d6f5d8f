"""Tensor methods of the functional APIs against MindSpore 2.10 (fixtures/api_methods.json by
fixtures/record_api_cases.py; NumPy where MindSpore's CPU cannot run them); GRAPH == PYNATIVE."""
import sys
from pathlib import Path

import numpy as np

import graphkiln as ms

sys.path.insert(0, str(Path(__file__).resolve().parent))



def test_remainder_writes_in_place():
    """(MindSpore 2.10 CPU returns the remainders but leaves the Tensor unchanged; its
    documentation and graphkiln write them in place.)"""
    x = ms.Tensor(np.array([5.0, -3.0, 7.5], np.float32))
    out = x.remainder_(2)
    assert out is x
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 1.0, 1.5])
