"""A Python-condition branch that raises, followed by the function's value: the value must
come back when the branch is not taken (folding the tail into the branch must not leave a
``return`` inside a converted branch function), and the error when it is."""
from __future__ import annotations

import numpy as np
import pytest

import graphkiln as ms

X = ms.Tensor(np.array([1.0, -2.0], np.float32))


def raise_then_return(x, flag):
    if flag:
        raise ValueError("flag set")
    return x * 2


def raise_in_else(x, flag):
    if not flag:
        y = x + 1
    else:
        raise ValueError("flag set")
    return y


def raise_in_elif(x, flag):
    if flag > 5:
        return x
    elif flag:
        raise ValueError("flag set")
    return x - 1


def nested_raise(x, flag):
    y = x
    if flag is not None:
        if flag:
            raise ValueError("flag set")
        y = y + 3
    return y


def raise_in_loop(x, flag):
    for i in range(3):
        if flag and i == 1:
            raise ValueError("flag set")
        x = x + i
    return x


def raise_then_tuple(x, flag):
    if flag:
        raise ValueError("flag set")
    a = x + 1
    return a, x


def assert_then_return(x, flag):
    if flag:
        assert False, "flag set"
    return x


CASES = [raise_then_return, raise_in_else, raise_in_elif, nested_raise, raise_in_loop,
         raise_then_tuple, assert_then_return]


def _values(out):
    return [o.asnumpy().tolist() for o in (out if isinstance(out, tuple) else (out,))]


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_value_when_branch_not_taken(fn):
    out = ms.jit(fn)(X, False)
    assert out is not None
    assert _values(out) == _values(fn(X, False))


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_error_when_branch_taken(fn):
    with pytest.raises((ValueError, AssertionError), match="flag set"):
        fn(X, True)
    with pytest.raises((ValueError, AssertionError), match="flag set"):
        ms.jit(fn)(X, True)
