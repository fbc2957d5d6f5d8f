"""User errors in graph code: clear messages with the user's file, line and source text."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn
from graphkiln.frontend.ast_convert import GraphSyntaxError

COUNTER = 0


def t(*v):
    return ms.Tensor(np.array(v, np.float32))


def _located(msg: str, snippet: str) -> None:
    assert __file__ in msg, msg
    assert snippet in msg, msg


def test_yield_is_rejected():
    @ms.jit
    def gen(x):
        yield x

    with pytest.raises(GraphSyntaxError) as e:
        gen(t(1.0))
    _located(str(e.value), "yield x")
    assert "generator" in str(e.value)


def test_try_is_rejected():
    @ms.jit
    def guarded(x):
        try:
            return x + 1
        except ValueError:
            return x

    with pytest.raises(GraphSyntaxError) as e:
        guarded(t(1.0))
    _located(str(e.value), "try:")


def test_global_write_is_rejected():
    @ms.jit
    def bump(x):
        global COUNTER
        COUNTER = COUNTER + 1
        return x

    with pytest.raises(GraphSyntaxError) as e:
        bump(t(1.0))
    _located(str(e.value), "global COUNTER")


def _bool_outside(x):
    return bool(x > 0)


def test_tensor_as_python_bool_outside_converted_code():
    @ms.jit
    def f(x):
        return x * 2 if _bool_outside(x) else x  # bool() is called in plain Python

    with pytest.raises(TypeError) as e:
        f(t(1.0))
    assert "Python needs a concrete value (bool())" in str(e.value)
    _located(str(e.value), "return bool(x > 0)")


def test_unknown_attribute_names_the_line():
    class Net(nn.Cell):
        def construct(self, x):
            return x + self.missing

    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(AttributeError) as e:
        Net()(t(1.0))
    _located(str(e.value), "return x + self.missing")
    assert "'missing'" in str(e.value)


def test_shape_error_names_the_op_and_the_line():
    @ms.jit
    def f(x, y):
        return x + y

    with pytest.raises(ValueError) as e:
        f(t(1.0, 2.0, 3.0), t(1.0, 2.0))
    msg = str(e.value)
    assert msg.startswith("For 'Add'") and "3" in msg and "2" in msg
    _located(msg, "return x + y")


def test_branch_type_mismatch_names_both_lines():
    @ms.jit
    def f(x):
        if x.sum() > 0:
            y = x * 2
        else:
            y = x.astype(ms.int32)
        return y

    with pytest.raises(TypeError) as e:
        f(t(1.0))
    msg = str(e.value)
    assert "'y'" in msg and "y = x * 2" in msg and "y = x.astype(ms.int32)" in msg


def test_variable_from_one_branch_only():
    @ms.jit
    def f(x):
        if x.sum() > 0:
            z = x * 2
        return z

    with pytest.raises(NameError) as e:
        f(t(1.0))
    assert "'z'" in str(e.value) and "only one branch" in str(e.value)


@pytest.mark.parametrize("args,message", [
    ((5,), "5"), ((), ""), (("x=3",), "'x=3'"), (("a", "b"), "('a', 'b')")])
def test_a_raise_while_compiling_has_mindspores_message(args, message):
    # MindSpore 2.10, the same raises in a jit function: one argument, the repr of the one
    # argument or of the tuple, then the code traceback
    @ms.jit
    def f(x):
        if x.shape[0] > 2:
            raise ValueError(*args)
        return x

    with pytest.raises(ValueError) as info:
        f(ms.Tensor(np.ones(3, np.float32)))
    assert len(info.value.args) == 1
    assert str(info.value).split("\n\n")[0] == message
    assert "The Traceback of Net Construct Code" in str(info.value)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_two_parameters_named_alike_in_one_graph(mode):
    """MindSpore 2.10 (both modes): ValueError "The parameter ... , its name 'n1' already
    exists. Please set a unique name for the parameter."."""
    ms.set_context(mode=mode)

    @ms.jit
    def f(a, b):
        return a * b

    a = ms.Parameter(ms.Tensor(1), name="n1")
    with pytest.raises(ValueError, match="its name 'n1' already exists"):
        f(a, ms.Parameter(ms.Tensor(2), name="n1"))
    assert int(f(a, a).asnumpy()) == 1  # the same Parameter twice is fine


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_layers_weights_named_alike_in_one_graph_run(mode):
    """Two layers' own "weight"s (here two Dense cells in separate CellLists, both named
    "0.weight") are not the user's same-named Parameters: MindSpore 2.10 runs the graph
    (its tests/st/nn/test_duplicate_celllist_rename.py gives 4 everywhere)."""
    ms.set_context(mode=mode)

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.first, self.second = ms.nn.CellList(), ms.nn.CellList()
            self.first.append(ms.nn.Dense(2, 2, weight_init="ones", bias_init="zeros"))
            self.second.append(ms.nn.Dense(2, 2, weight_init="ones", bias_init="zeros"))

        def construct(self, x, y):
            return self.first[0](x) + self.second[0](y)

    ones = ms.ops.ones((2, 2), ms.float32)
    assert (Net()(ones, ones).asnumpy() == 4).all()
