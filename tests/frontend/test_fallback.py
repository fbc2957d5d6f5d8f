"""The run-time fallback: Python on graph values runs when the graph runs (``PyExecute``).
MindSpore's recorded results: ``fixtures/ms_programs.py::run_time_fallback``."""
from __future__ import annotations

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor


def test_prints_and_run_time_values_come_in_program_order(capsys):
    @ms.jit
    def f(x):
        print("before", x)
        a = (x * 2).asnumpy()
        print("value", a, a.dtype)
        return x + 1

    out = f(Tensor(np.array([1.0, 2.0], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [2.0, 3.0])
    # MindSpore 2.10 prints the same three lines
    assert capsys.readouterr().out.splitlines() == [
        "before", "Tensor(shape=[2], dtype=Float32, value=[ 1.00000000e+00  2.00000000e+00])",
        "value [2. 4.] float32"]


def test_run_time_object_is_returned_as_it_is_and_reruns_every_call():
    @ms.jit
    def f(x):
        return x.asnumpy() * 3, int(x.max())

    for v in ([1.0, 5.0], [7.0, 2.0]):
        arr, m = f(Tensor(np.array(v, np.float32)))
        assert isinstance(arr, np.ndarray) and isinstance(m, int)
        np.testing.assert_allclose(arr, np.array(v) * 3)
        assert m == int(max(v))


def test_graph_op_on_a_run_time_object_is_a_type_error():
    # MindSpore raises TypeError too ("Failed calling Add ... numpy.ndarray")
    @ms.jit
    def f(x):
        return x + x.asnumpy()

    with pytest.raises(TypeError, match="computed when the graph runs"):
        f(Tensor(np.array([1.0], np.float32)))


def test_compile_time_use_of_a_run_time_object_names_the_line():
    @ms.jit
    def f(x):
        for v in x.asnumpy():
            x = x + v
        return x

    with pytest.raises(TypeError, match=r"\(iteration\)(.|\n)*test_fallback.py:\d+"):
        f(Tensor(np.array([3], np.int32)))


def test_deepcopy_of_a_graph_tensor_is_its_value():
    """``copy.deepcopy(x) + x`` in a graph: [2, 4] for [1, 2], as MindSpore 2.10 gives."""
    import copy

    @ms.jit
    def f(x):
        return copy.deepcopy(x) + x

    np.testing.assert_array_equal(f(ms.Tensor(np.array([1, 2]))).asnumpy(), [2, 4])
