"""MindSpore's initializer protocol as user code uses it: a subclass defines
``_initialize(arr)`` and fills the NumPy array in place (with ``_assignment``), sized by
``_calculate_fan_in_and_fan_out``; calling an initializer on an array fills it."""
import math

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn
from graphkiln.common.initializer import (
    Initializer,
    Normal,
    _assignment,
    _calculate_fan_in_and_fan_out,
    initializer,
)


class _Arange(Initializer):
    def _initialize(self, arr):
        arr[:] = np.arange(arr.size).reshape(arr.shape) / 10


class _NumpyXavier(Initializer):
    def __init__(self, gain=1.0):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(arr.shape)
        _assignment(arr, np.random.normal(0, self.gain * math.sqrt(2.0 / (fan_in + fan_out)),
                                          arr.shape))


def test_subclass_fills_weights():
    dense = nn.Dense(4, 2, weight_init=_Arange())
    np.testing.assert_array_equal(dense.weight.asnumpy(),
                                  (np.arange(8).reshape(2, 4) / 10).astype(np.float32))
    half = initializer(_Arange(), (2, 3), ms.float16)
    assert half.dtype == ms.float16
    np.testing.assert_array_equal(half.asnumpy(), (np.arange(6).reshape(2, 3) / 10)
                                  .astype(np.float16))


def test_subclass_draws_from_numpy_global_stream():
    np.random.seed(7)
    got = ms.Parameter(initializer(_NumpyXavier(2.0), (3, 5)), name="w").asnumpy()
    np.random.seed(7)
    want = np.random.normal(0, 2.0 * math.sqrt(2.0 / 8), (3, 5)).astype(np.float32)
    np.testing.assert_array_equal(got, want)


def test_calling_an_initializer_fills_an_array():
    arr = np.zeros((3, 4), np.float32)
    ms.set_seed(11)
    assert Normal(0.5)(arr) is None
    ms.set_seed(11)
    np.testing.assert_array_equal(arr, initializer(Normal(0.5), (3, 4)).asnumpy())
    scalar = np.zeros((), np.float32)
    assert _assignment(scalar, 3.0) is scalar and scalar == 3.0


def test_fans_and_missing_initialize():
    assert _calculate_fan_in_and_fan_out((3, 4)) == (4, 3)
    assert _calculate_fan_in_and_fan_out((2, 3, 4, 5)) == (60, 40)
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        _calculate_fan_in_and_fan_out((5,))
    with pytest.raises(NotImplementedError, match="_initialize"):
        initializer(Initializer(), (2,)).asnumpy()
