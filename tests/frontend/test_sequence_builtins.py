"""``map`` and tuple slicing inside graphs, and weight writes of a wider type: results and
the error types and key phrases MindSpore 2.10 gives for the same programs (recorded by
running them there, GRAPH_MODE)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


class MapNet(nn.Cell):
    def mul(self, x, y):
        return x * y

    def construct(self, x, y):
        return map(self.mul, x, y)


def test_map_gives_a_list_or_a_tuple():
    assert MapNet()([1, 2], [3, 4]) == [3, 8]
    assert MapNet()((1, 2), (3, 4)) == (3, 8)


@pytest.mark.parametrize("x, y, error, phrase", [
    ([1], (2,), RuntimeError, "The types of arguments in Map must be consistent"),
    ([1], [2, 3], RuntimeError, "For 'Map', the length of lists must be the same"),
    ((1,), (2, 3), RuntimeError, "For 'Map', the length of tuples must be the same"),
    (3, 4, RuntimeError, "Map can only be applied to list, tuple, but got Int64"),
])
def test_map_argument_errors(x, y, error, phrase):
    with pytest.raises(error, match=phrase):
        MapNet()(x, y)


def test_map_needs_a_sequence():
    class OneArg(nn.Cell):
        def construct(self, x):
            return map(abs)

    with pytest.raises(TypeError, match="The Map operator must have at least two arguments"):
        OneArg()(1)


def test_map_over_numpy_arrays_falls_back_to_python():
    @ms.jit
    def add():
        return tuple(map(lambda a, b: a + b, np.array([1, 2]), np.array([10, 20])))

    assert add() == (11, 22)


class SliceNet(nn.Cell):
    def __init__(self, bounds):
        super().__init__()
        self.bounds = bounds
        self.addn = ops.AddN()

    def construct(self, t):
        lo, hi, step = self.bounds
        return self.addn(t[lo:hi:step])


DATA = tuple(Tensor(np.full((2,), k, np.int32)) for k in range(6))


@pytest.mark.parametrize("bounds, expected", [
    ((Tensor([True]), None, None), 15),      # a bool tensor bound counts as 1
    ((2, Tensor([5]), None), 9),             # a one-element int tensor bound
    ((Tensor(1), 6, Tensor(2)), 9),
])
def test_tuple_slice_with_tensor_bounds(bounds, expected):
    np.testing.assert_array_equal(SliceNet(bounds)(DATA).asnumpy(), [expected] * 2)


@pytest.mark.parametrize("bounds, error, phrase", [
    (("str", None, None), TypeError, "Slice indices must be integers or bool. But got a String"),
    ((1.5, None, None), TypeError, "Slice indices must be integers or bool. But got a Float32"),
    ((1, 4, 0), ValueError, "Slice step cannot be zero."),
    ((Tensor(np.ones((2, 2), np.int32)), None, None), TypeError,
     "The input tensor of the MakeSlice operator must contain only one element"),
    ((Tensor(2.0), None, None), TypeError,
     "The input tensor type of the MakeSlice operator must be int or bool, but got Float32"),
])
def test_tuple_slice_errors(bounds, error, phrase):
    with pytest.raises(error, match=phrase):
        SliceNet(bounds)(DATA)


def test_constant_zero_step_on_a_tuple():
    class ZeroStep(nn.Cell):
        def construct(self, t):
            return t[1:4:0]

    with pytest.raises(ValueError, match="Slice step cannot be zero."):
        ZeroStep()(DATA)


class WriteNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.param = Parameter(Tensor(np.zeros(2, np.float32)), name="param")

    def construct(self, x):
        self.param = x
        return self.param


def test_weight_write_of_a_narrower_type_converts_it():
    out = WriteNet()(Tensor(np.array([1.5, 2.5], np.float16)))
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), [1.5, 2.5])


def test_weight_write_of_a_wider_type_is_refused():
    with pytest.raises(TypeError, match="Data type conversion is not supported for a "
                                        "'Parameter'"):
        WriteNet()(Tensor(np.ones(2, np.float64)))
