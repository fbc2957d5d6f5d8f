"""``mutable(seq, dynamic_len=True)`` sequences (one compile for every length), ``mutable``
bools and dict items written at run time. MindSpore's results for the same features are
checked in test_ms_programs.py (``mutseq_*`` programs)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops
from graphkiln.compile.call_cache import compiled_graph_count


def f32(v):
    return Tensor(np.asarray(v, np.float32))


def dyn(*values, dtype=np.float32):
    return ms.mutable([Tensor(np.asarray(v, dtype)) for v in values], True)


def test_a_new_length_reuses_one_compile():
    @ms.jit
    def total(seq):
        s = f32(0.0)
        for item in seq:
            s = s + item * len(seq)
        return s

    for n in range(1, 6):
        values = np.arange(n, dtype=np.float32)
        assert float(total(dyn(*values)).asnumpy()) == pytest.approx(values.sum() * n)
    assert total._cache.compiles == 1
    total(dyn(1, 2, dtype=np.int32))  # another item type is another signature
    assert total._cache.compiles == 2


def test_list_methods_match_python_lists():
    @ms.jit
    def edit(seq, y, i):
        seq.append(y)
        seq.insert(i, y * 2)
        last = seq.pop()
        first = seq.pop(0)
        seq.reverse()
        seq.extend(ms.mutable([y + 1], True))
        return seq, last, first

    for values, i in (([1.0, 2.0, 3.0], 1), ([4.0, 5.0], -1), ([7.0], 0)):
        want = list(values)
        want.append(9.0)
        want.insert(i, 18.0)
        last, first = want.pop(), want.pop(0)
        want.reverse()
        want.append(10.0)
        seq, got_last, got_first = edit(dyn(*values), f32(9.0), ms.mutable(i))
        assert isinstance(seq, list)
        assert [float(t.asnumpy()) for t in seq] == want
        assert (float(got_last.asnumpy()), float(got_first.asnumpy())) == (last, first)
    assert edit._cache.compiles == 1


def test_a_tensor_loop_carries_a_growing_list():
    @ms.jit
    def doubled(seq):
        out = ms.mutable([f32(0.0)], True)
        for item in seq:
            out.append(item * 2)
        if len(out) > 3:
            out.append(f32(-1.0))
        return out

    got = [float(t.asnumpy()) for t in doubled(dyn(1.0, 2.0, 3.0))]
    assert got == [0.0, 2.0, 4.0, 6.0, -1.0]
    got = [float(t.asnumpy()) for t in doubled(dyn(5.0))]
    assert got == [0.0, 10.0]
    assert doubled._cache.compiles == 1


def test_tuples_of_numbers_are_numbers_at_run_time():
    @ms.jit
    def f(seq, n):
        return seq + (n,), seq[0] * n, n in seq

    out, prod, has = f(ms.mutable((2, 3), True), ms.mutable(3))
    assert out == (2, 3, 3) and type(out) is tuple
    assert (prod, has) == (6, True)
    out, prod, has = f(ms.mutable((5,), True), ms.mutable(4))
    assert (out, prod, has) == ((5, 4), 20, False)
    assert f._cache.compiles == 1


def test_addn_of_a_dynamic_length_list():
    @ms.jit
    def f(seq):
        return ops.addn(seq)

    np.testing.assert_allclose(f(dyn([1.0, 2.0], [3.0, 4.0], [5.0, 6.0])).asnumpy(), [9, 12])
    np.testing.assert_allclose(f(dyn([1.0, 1.0])).asnumpy(), [1, 1])
    assert f._cache.compiles == 1


def test_items_must_share_one_type():
    @ms.jit
    def f(seq):
        return len(seq)

    with pytest.raises(ValueError, match="element type of dynamic length array must be the "
                                         "same.*0th element type is: int. The 1th element "
                                         "type is: float"):
        f(ms.mutable([1, 2.0], True))
    with pytest.raises(TypeError, match="element shape of dynamic length array must be the "
                                        "same"):
        f(ms.mutable([f32(1.0), Tensor(np.int32(1))], True))

    @ms.jit
    def append(seq, x):
        seq.append(x)
        return seq

    with pytest.raises(TypeError, match="element type of dynamic length array"):
        append(dyn(1.0, 2.0), 3)


def test_items_of_different_shapes_keep_a_static_length():
    @ms.jit
    def f(seq):
        return len(seq), seq[0] + 1

    n, first = f(ms.mutable([f32([1.0]), f32([[1.0, 2.0]])], True))
    assert n == 2 and first.shape == (1,)


def test_run_time_errors_of_indexing():
    @ms.jit
    def item(seq, i):
        return seq[i]

    with pytest.raises(IndexError, match=r"range\[-2, 2\), but got 5"):
        item(dyn(1.0, 2.0), ms.mutable(5))

    @ms.jit
    def first(seq):
        return seq[0]

    with pytest.raises(RuntimeError, match="empty dynamic length sequence"):
        first(ms.mutable([], True))


def test_builtins_that_need_the_items_are_refused():
    @ms.jit
    def f(seq):
        s = f32(0.0)
        for i, item in enumerate(seq):
            s = s + item * i
        return s

    with pytest.raises(RuntimeError, match="dynamic length input is unsupported"):
        f(dyn(1.0, 2.0))


def test_gradient_with_respect_to_a_dynamic_length_sequence():
    """One cotangent per item (more in test_sequence_grad.py)."""
    def loss(seq):
        return seq[0] * 3

    ms.set_context(mode=ms.GRAPH_MODE)
    got = ms.grad(ms.jit(loss))(dyn(1.0, 2.0))
    assert isinstance(got, list) and [float(t.asnumpy()) for t in got] == [3.0, 0.0]


def test_mutable_bool_is_a_run_time_value():
    @ms.jit
    def f(flag, x):
        if flag:
            return x * 2
        return x - 1

    assert float(f(ms.mutable(True), f32(3.0)).asnumpy()) == 6.0
    assert float(f(ms.mutable(False), f32(3.0)).asnumpy()) == 2.0
    assert f._cache.compiles == 1
    b = ms.mutable(False)
    assert isinstance(b, bool) and not b and repr(b) == "False" and b + 1 == 1


class _Recorder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.last = {"y": None}

    def construct(self, x):
        y = x * 2
        self.last["y"] = y
        self.last["twice"] = self.last["y"] + y
        return y + 1


def test_an_attribute_dict_item_is_written_every_run():
    net = _Recorder()
    compiled = None
    for v in (1.0, 4.0, -2.0):
        out = net(f32(v))
        compiled = compiled or compiled_graph_count()
        assert float(out.asnumpy()) == 2 * v + 1
        assert float(net.last["y"].asnumpy()) == 2 * v
        assert float(net.last["twice"].asnumpy()) == 4 * v
    assert compiled_graph_count() == compiled  # one compile


_TOTALS = {}


@ms.jit
def _remember(x):
    _TOTALS["sum"] = x.sum()
    local = {}
    local["k"] = x * 2
    return local


def test_a_global_dict_item_is_written_at_run_time_and_locals_stay_local():
    out = _remember(f32([1.0, 2.0]))
    assert float(_TOTALS["sum"].asnumpy()) == 3.0
    np.testing.assert_allclose(out["k"].asnumpy(), [2, 4])
    _remember(f32([5.0, 5.0]))
    assert float(_TOTALS["sum"].asnumpy()) == 10.0
    assert _remember._cache.compiles == 1


def test_dict_views_are_returned_as_sequences():
    @ms.jit
    def f(d):
        return d.keys(), d.values(), d.items()

    keys, values, items = f(ms.mutable({"a": f32(1.0), "b": f32(2.0)}))
    assert keys == ("a", "b")
    assert [float(v.asnumpy()) for v in values] == [1.0, 2.0]
    assert [(k, float(v.asnumpy())) for k, v in items] == [("a", 1.0), ("b", 2.0)]


class _KeepsLast(nn.Cell):
    def __init__(self):
        super().__init__()
        self.last = 0

    def construct(self, x):
        self.last = x * 3
        return self.last * x


def test_a_plain_attribute_given_a_graph_value_is_written_at_run_time():
    net = _KeepsLast()
    out = net(f32([2.0]))
    np.testing.assert_allclose(out.asnumpy(), [12.0])
    assert isinstance(net.last, Tensor) and not net.last.is_symbolic
    np.testing.assert_allclose(net.last.asnumpy(), [6.0])
    # MindSpore's graph does not differentiate through the run-time attribute:
    # d(p * x)/dx = p; its PyNative gradient runs Python, so it does: 12 (checked on 2.10)
    ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_allclose(ms.grad(_KeepsLast())(f32([2.0])).asnumpy(), [6.0])
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(ms.grad(_KeepsLast())(f32([2.0])).asnumpy(), [12.0])


class _RunTimeOnly(nn.Cell):
    def construct(self, x):
        return Tensor(x.asnumpy()) * x


def test_an_output_computed_by_python_at_run_time_has_zero_gradient():
    ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_allclose(ms.grad(_RunTimeOnly())(f32([2.0])).asnumpy(), [0.0])
    # PyNative: Tensor(x.asnumpy()) is a constant times x: its value (MindSpore 2.10: 2)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(ms.grad(_RunTimeOnly())(f32([2.0])).asnumpy(), [2.0])


def test_a_constant_tuple_indexed_by_a_graph_value_is_read_at_run_time():
    @ms.jit
    def pick(i, a):
        m = (10, 20, 30, 40)
        rows = [f32(1.0), f32(2.0), f32(3.0)]
        return m[i], rows[a == 2], m[:a]

    assert pick(Tensor(np.array([3], np.int32)), ms.mutable(2))[0] == 40
    first, row, head = pick(Tensor(np.array([0], np.int32)), ms.mutable(1))
    assert first == 10 and float(row.asnumpy()) == 1.0 and head == (10,)
    assert pick._cache.compiles == 1


class _Item(nn.Cell):
    def construct(self, seq, i):
        return seq[i]


def test_gradient_of_a_dynamic_length_sequence_of_numbers_is_zeros():
    ms.set_context(mode=ms.GRAPH_MODE)
    grad = ops.GradOperation(get_all=True, sens_param=True)(_Item())
    assert grad(ms.mutable((1, 2, 3), True), 1, 1) == ((0, 0, 0),)
    assert grad(ms.mutable((1, 2, 3), True), ms.mutable(1), 1) == ((0, 0, 0), 0)


class _MatMulNet(nn.Cell):
    def construct(self, x, y):
        return ops.matmul(x, y)


class _GradOfConstant(nn.Cell):
    def __init__(self):
        super().__init__()
        self.grad = ops.GradOperation()
        self.net = _MatMulNet()

    def construct(self, y):
        x = ms.mutable(f32([[0.5, 0.6], [1.2, 1.3]]))
        return self.grad(self.net)(x, y)


def test_a_constant_made_mutable_in_a_graph_gets_a_gradient():
    ms.set_context(mode=ms.GRAPH_MODE)
    y = f32([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(_GradOfConstant()(y).asnumpy(), [[3.0, 7.0], [3.0, 7.0]])
