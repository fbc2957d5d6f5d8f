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


def _nested_returns_of_different_types(x):
    if x > 0:
        if x > 5:
            return "big"
        return 3
    return x


def test_join_of_a_string_and_an_int_return_quotes_both_returns_and_the_if():
    """MindSpore 2.10 names the scalar types (String, Int64) and points at the inner
    ``if``, not at the end of its block."""
    with pytest.raises(TypeError) as info:
        ms.jit(_nested_returns_of_different_types)(Tensor(2.0, ms.float32))
    msg = str(info.value)
    assert "Type Join Failed: dtype1 = String, dtype2 = Int64." in msg
    for line in ('return "big"', "return 3", "if x > 5:"):
        assert line in msg
    assert "if x > 0:" not in msg


def _while_returns_a_constant_tensor(x):
    while x < 3:
        return Tensor([5.0, 6.0], ms.float32)
    return 1


def test_join_through_a_while_quotes_the_line_of_a_constant_in_its_body():
    with pytest.raises(TypeError) as info:
        ms.jit(_while_returns_a_constant_tensor)(Tensor(2.0, ms.float32))
    assert "return Tensor([5.0, 6.0], ms.float32)" in str(info.value)
    assert "return 1" in str(info.value)


def _halve(x):
    return x / 2


def _pair(x):
    return x, x + 1


class _Doubler(ms.nn.Cell):
    def construct(self, x):
        return x * 2


def test_functions_indexed_by_a_tensor_that_return_different_structures():
    """``funcs[index](x)`` joins every function's result; the error quotes each one's
    return line, cells by their ``construct``."""
    funcs = (_halve, _Doubler(), _pair)

    @ms.jit
    def f(x, i):
        return funcs[i](x)

    with pytest.raises(TypeError) as info:
        f(Tensor(1.0, ms.float32), Tensor(1, ms.int32))
    msg = str(info.value)
    assert msg.startswith("Cannot join the return values of different branches")
    assert "Abstract type AbstractTensor cannot join with AbstractTuple" in msg
    for line in ("return x / 2", "return x * 2", "return x, x + 1"):
        assert line in msg
    ok = (_halve, _Doubler())

    @ms.jit
    def g(x, i):
        return ok[i](x)

    assert float(g(Tensor(3.0, ms.float32), Tensor(1, ms.int32)).asnumpy()) == 6.0
    assert float(g(Tensor(3.0, ms.float32), Tensor(0, ms.int32)).asnumpy()) == 1.5


def test_a_join_failure_inside_an_indexed_function_is_reported_as_its_own():
    def branchy(x):
        if x > 0:
            y = (x, x)
        else:
            y = x
        return y

    funcs = (branchy, _halve)

    @ms.jit
    def f(x, i):
        return funcs[i](x)

    with pytest.raises(TypeError) as info:
        f(Tensor(1.0, ms.float32), Tensor(1, ms.int32))
    msg = str(info.value)
    assert "y = (x, x)" in msg and "if x > 0:" in msg
    assert "return x / 2" not in msg


def test_two_dtypes_are_picked_when_the_graph_runs():
    """MindSpore 2.10 joins two dtypes under a run-time condition (``int32 if x else int64``
    with ``x = mutable(False)`` gives Int64, ``mutable(True)`` Int32); one compile serves both."""
    @ms.jit
    def f(x):
        return ms.int32 if x else ms.int64

    assert f(ms.mutable(False)) == ms.int64
    assert f(ms.mutable(True)) == ms.int32
    assert f._cache.compiles == 1  # the bool is a run-time value

    @ms.jit
    def g(x):
        if x.sum() > 0:
            t = ms.float16
        else:
            t = ms.float32
        return ms.ops.cast(x, ms.float64), t

    assert g(Tensor([1.0], ms.float32))[1] == ms.float16
    assert g(Tensor([-1.0], ms.float32))[1] == ms.float32


def test_two_strings_still_fail_to_join():
    @ms.jit
    def f(x):
        return "a" if x else "b"

    with pytest.raises(TypeError, match="Cannot join the return values of different branches"):
        f(ms.mutable(True))


def test_a_run_time_python_object_joined_with_a_tensor_is_a_user_error():
    """Not a graphkiln bug: describing the branches reads nothing of the run-time object
    (which would record a node in the wrong graph). MindSpore joins the two as a dynamic
    type; graphkiln refuses it with the branches and their lines."""
    @ms.jit
    def f(x, a):
        out = x
        if a > 0:
            out = Tensor(divmod(out.asnumpy(), 2)[1])
        return out

    with pytest.raises(TypeError, match=r"variable 'out': type or rank differs(.|\n)*"
                                        r"true branch:  PyObject(.|\n)*`out = Tensor\(divmod"):
        f(Tensor(np.ones((2, 3), np.float32)), Tensor(1.0, ms.float32))
