"""``Tensor.assign_value`` (MindSpore 2.10's behaviour: the Tensor takes the value's data,
shape and dtype; graphs refuse it; a bytecode capture breaks there) and the ``Median``
primitive's gradients against finite differences and under vmap (its values and errors are
the recorded family fixtures/api_pijit_s4o1)."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, jit
from graphkiln._c_expression import get_code_extra
from graphkiln.ops.operations.math_ops import Median

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from numeric_grad import numeric_grad  # noqa: E402


def test_assign_value_takes_shape_dtype_and_storage():
    x, y = Tensor(np.ones((2, 3), np.float32)), Tensor(np.arange(4.0))
    assert x.assign_value(y) is x
    assert x.shape == (4,) and x.dtype == ms.float64
    np.testing.assert_array_equal(x.asnumpy(), np.arange(4.0))


def test_assign_value_of_a_parameter_changes_its_shape():
    p = Parameter(Tensor([1.0, 2.0]), name="p")
    Tensor.assign_value(p, Tensor([[5, 6, 7]], ms.int32))
    assert p.shape == (1, 3) and p.dtype == ms.int32
    np.testing.assert_array_equal(p.asnumpy(), [[5, 6, 7]])


def test_assign_value_gradient_flows_to_the_value():
    def g(a, b):
        a = a * 1
        a.assign_value(b * 2)
        return (a * 3).sum()

    ga, gb = ms.grad(g, grad_position=(0, 1))(Tensor([1.0, 2.0]), Tensor([3.0, 4.0]))
    np.testing.assert_array_equal(ga.asnumpy(), [0, 0])
    np.testing.assert_array_equal(gb.asnumpy(), [6, 6])


def test_assign_value_needs_a_tensor():
    with pytest.raises(TypeError, match="'value' must be a Tensor, but got float"):
        Tensor([1.0]).assign_value(3.0)


def test_assign_value_is_refused_in_a_graph():
    @jit
    def f(x, y):
        x.assign_value(y)
        return x

    with pytest.raises(RuntimeError, match="method 'assign_value' is not supported"):
        f(Tensor([1.0]), Tensor([2.0]))


def test_assign_value_breaks_a_bytecode_capture_with_pynative_results():
    @jit(capture_mode="bytecode")
    def f(x, y):
        a = x + y
        x.assign_value(y)
        return a, x + 1

    x = Tensor([1.0])
    a, b = f(x, Tensor([5.0]))
    assert float(a.asnumpy()[0]) == 6 and float(b.asnumpy()[0]) == 6
    assert float(x.asnumpy()[0]) == 5
    a, b = f(x, Tensor([7.0]))
    assert float(a.asnumpy()[0]) == 12 and float(b.asnumpy()[0]) == 8
    assert get_code_extra(f.__wrapped__)["break_count_"] == 1


@pytest.mark.parametrize("args", [(False, 1, False), (False, 0, True), (True,)])
def test_median_gradient_matches_finite_differences(args):
    x = np.array([[3., 1.5, 2., -1.], [5., 6., 4., 0.], [0.5, -2., 7., 8.]])
    med = Median(*args)
    w = Tensor(np.linspace(-1, 2, med(Tensor(x))[0].size).reshape(med(Tensor(x))[0].shape))

    def loss(t):
        return (med(t)[0] * w).sum()

    np.testing.assert_allclose(ms.grad(loss)(Tensor(x)).asnumpy(), numeric_grad(loss, x),
                               atol=1e-6)


def test_median_vmap_matches_each_line():
    x = np.random.RandomState(1).randn(3, 4, 5).astype(np.float32)
    values, indices = ms.vmap(Median(False, 1, False))(Tensor(x))
    for i in range(3):
        want_v, want_i = Median(False, 1, False)(Tensor(x[i]))
        np.testing.assert_array_equal(values.asnumpy()[i], want_v.asnumpy())
        np.testing.assert_array_equal(indices.asnumpy()[i], want_i.asnumpy())


def _write_first(x):
    x[:1] = 5
    return x


def _write_first_by_call(x):
    x.__setitem__(slice(None, 1), 5)
    return x


@pytest.mark.parametrize("fn", [_write_first, _write_first_by_call])
@pytest.mark.parametrize("weight", [False, True])
def test_setitem_in_a_bytecode_capture_writes_the_callers_tensor(fn, weight):
    """As in PyNative (and MindSpore 2.10's bytecode capture): the caller's Tensor or the
    weight is written, and the result is that Tensor."""
    x = Tensor(np.zeros(3, np.float32))
    x = Parameter(x, name="w") if weight else x
    out = jit(fn, capture_mode="bytecode")(x)
    np.testing.assert_array_equal(x.asnumpy(), [5, 0, 0])
    np.testing.assert_array_equal(out.asnumpy(), [5, 0, 0])
    assert get_code_extra(fn)["break_count_"] == 0


def test_setitem_in_a_bytecode_capture_is_seen_by_aliases():
    @jit(capture_mode="bytecode")
    def f(x):
        t = x + 0
        kept = [t]
        t[:] = x * 3
        return kept[0]

    np.testing.assert_array_equal(f(Tensor([1.0, 2.0])).asnumpy(), [3, 6])


def test_setitem_in_ast_jit_leaves_the_callers_tensor():
    x = Tensor(np.zeros(3, np.float32))
    out = jit(_write_first)(x)
    np.testing.assert_array_equal(x.asnumpy(), [0, 0, 0])
    np.testing.assert_array_equal(out.asnumpy(), [5, 0, 0])


def test_explicit_setitem_call_returns_the_tensor():
    x = Tensor([1.0, 2.0])
    assert x.__setitem__(0, 3.0) is x


class _KeepsPair(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = None

    def construct(self, x):
        self.a = (x + 1, x - 1)
        return x * len(self.a)


@pytest.mark.parametrize("capture", ["ast", "bytecode"])
def test_attribute_set_to_a_tuple_of_graph_values_is_written_when_the_graph_runs(capture):
    net = _KeepsPair()
    net.construct = jit(net.construct, capture_mode=capture)
    for v in (1.0, 5.0):
        out = net(Tensor([v]))
        assert type(net.a) is tuple and len(net.a) == 2
        assert not net.a[0].is_symbolic
        np.testing.assert_array_equal(net.a[0].asnumpy(), [v + 1])
        np.testing.assert_array_equal(net.a[1].asnumpy(), [v - 1])
        np.testing.assert_array_equal(out.asnumpy(), [2 * v])


def _pop_first(lst):
    return lst.pop(0) * 2


def _drop_key(d):
    del d["b"]
    return d["a"] + 1


@pytest.mark.parametrize("fn, arg, left", [
    (_pop_first, lambda: [Tensor([1.0]), Tensor([2.0])], 1),
    (_drop_key, lambda: {"a": Tensor([1.0]), "b": Tensor([2.0])}, 1),
])
def test_a_bytecode_capture_writing_an_argument_container_gives_pynative_results(fn, arg,
                                                                                 left):
    """The graph could not write the caller's list or dict: the capture breaks and the call
    runs as Python (MindSpore's PIJit replays the write after its graph)."""
    for _ in range(2):
        given = arg()
        out = jit(fn, capture_mode="bytecode")(given)
        assert len(given) == left
        np.testing.assert_array_equal(out.asnumpy(), fn(arg()).asnumpy())


class _CountsCalls(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = ms.nn.Dense(1, 1)
        self.calls = 0

    def construct(self, x):
        self.calls += 1
        return self.fc(x)


@pytest.mark.parametrize("capture", ["ast", "bytecode"])
def test_a_compiled_call_under_a_pynative_gradient_writes_attributes_once(capture):
    """The backward graph replays the forward without its run-time attribute writes
    (MindSpore 2.10 counts one call too)."""
    net = _CountsCalls()
    net.construct = jit(net.construct, capture_mode=capture)
    x = Tensor(np.array([[1.0], [2.0]], np.float32))
    ms.ops.GradOperation(get_by_list=True)(net, net.trainable_params())(x)
    assert net.calls == 1


def test_tensor_of_dtype_string_keeps_its_datas_type():
    """MindSpore 2.10 ignores ``dtype=mstype.string`` for numeric data (a Float64 Tensor
    of a float64 array)."""
    x = Tensor(np.array([[0.5], [-1.25]]), dtype=ms.string)
    assert x.dtype == ms.float64
    np.testing.assert_array_equal(x.asnumpy(), [[0.5], [-1.25]])
