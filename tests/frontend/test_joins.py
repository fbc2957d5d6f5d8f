"""Joins of the two branches of a tensor ``if``: MindSpore's error phrase, and Python
values that cannot be joined fail only where they are used (as in MindSpore's
tests/st/compiler/auto_monad/test_auto_monad_mindtester.py, ``out3_f``)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor


def test_unjoinable_python_values_are_fine_when_unused():
    @ms.jit
    def f(x):
        if x > 0:
            g = lambda a: a + a  # noqa: E731
            y = g(x)
        else:
            g = lambda a: a * 3  # noqa: E731
            y = g(x)
        return y

    assert float(f(Tensor(2.0, ms.float32)).asnumpy()) == 4.0
    assert float(f(Tensor(-1.0, ms.float32)).asnumpy()) == -3.0


def test_unjoinable_python_values_raise_mindspores_join_error_where_used():
    @ms.jit
    def f(x):
        if x > 0:
            g = "positive"
        else:
            g = "negative"
        return x, g

    with pytest.raises(TypeError, match="Cannot join the return values of different branches"):
        f(Tensor(np.ones(1, np.float32)))


def test_differently_typed_branches_give_mindspores_join_error():
    @ms.jit
    def f(x):
        if x > 0:
            y = (x, x)
        else:
            y = x
        return y

    with pytest.raises(TypeError, match="Cannot join the return values of different branches"):
        f(Tensor(1.0, ms.float32))
