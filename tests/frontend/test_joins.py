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


def _returns_number_or_tensor(x):
    if x > 1:
        return x * 2
    return 0


def _assigns_number_or_tensor(x):
    if x > 1:
        a = x * 2
    else:
        a = 0.5
    return a


def _while_returns_tensor_else_number(x):
    while x < 10:
        return x * 2
    return 0


@pytest.mark.parametrize("fn, lines", [
    (_returns_number_or_tensor, ("return x * 2", "return 0")),
    (_assigns_number_or_tensor, ("a = x * 2", "a = 0.5")),
    (_while_returns_tensor_else_number, ("return x * 2", "return 0")),
])
def test_tensor_joined_with_a_number_set_in_a_branch_is_refused(fn, lines):
    """MindSpore 2.10 refuses these joins (TypeError, AbstractTensor vs AbstractScalar)
    and quotes each branch's line; PYNATIVE runs them as Python."""
    assert fn(Tensor(2.0, ms.float32)) is not None  # PYNATIVE: plain Python
    with pytest.raises(TypeError) as info:
        ms.jit(fn)(Tensor(2.0, ms.float32))
    msg = str(info.value)
    assert "Cannot join the return values of different branches" in msg
    assert "Type Join Failed: Abstract type Abstract" in msg
    for line in lines:
        assert line in msg


def test_number_held_before_the_if_still_joins_with_a_tensor():
    """graphkiln keeps accepting an accumulator that starts as a Python number (MindSpore
    2.10 refuses it; many programs rely on it): the number becomes a tensor."""
    @ms.jit
    def f(x):
        out = 0
        if x > 1:
            out = out + x
        while x < 4:
            out = out + x
            x = x + 1
        return out

    assert float(f(Tensor(2.0, ms.float32)).asnumpy()) == 7.0
    assert float(f(Tensor(0.5, ms.float32)).asnumpy()) == 8.0
