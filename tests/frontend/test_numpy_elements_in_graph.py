"""Elements read from a NumPy array argument in graph code are Python numbers, as in
MindSpore 2.10 (outputs below recorded by hand on it), so ``mutable`` accepts them."""
import numpy as np
import pytest

from graphkiln import jit, mutable


@jit
def _sum_mutable_elements(a):
    r = 0
    for x in a:
        x = mutable(x)
        r = r + x
    return r


@jit
def _elements(a):
    x = a[1]
    i = 2
    return x, x * 1.5, a[i], a[1:], isinstance(x, int)


def test_iterated_elements_can_be_mutable():
    assert _sum_mutable_elements(np.array([1, 2, 3])) == 6


def test_indexed_elements_are_python_numbers():
    x, scaled, by_name, rest, is_int = _elements(np.array([1, 2, 3]))
    assert (x, scaled, by_name, is_int) == (2, 3.0, 3, True)
    assert type(x) is int and type(scaled) is float
    np.testing.assert_array_equal(rest, [2, 3])  # a sub-array stays a NumPy array


def test_the_array_itself_cannot_be_mutable():
    with pytest.raises(TypeError, match="For 'mutable'.*ndarray"):
        jit(lambda a: mutable(a))(np.array([1, 2, 3]))
