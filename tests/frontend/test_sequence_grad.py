"""Gradients through ``mutable(seq, dynamic_len=True)`` sequences of Tensors: the backward
rules of the sequence primitives (ops/rules/bprop_sequence.py) checked against central
finite differences of the eager program, PYNATIVE against GRAPH, and MindSpore 2.10's
recorded gradients where its CPU backend computes them (``fixtures/seq_grad_programs.py``,
recorded by ``fixtures/record_ms_programs.py --programs seq_grad_programs --out
ms_seq_grad.json``)."""
import json
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, compat, nn, ops

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "ms_seq_grad.json").read_text())
PROGRAMS = compat.import_mindspore_module(FIXTURES / "seq_grad_programs.py")
RNG = np.random.default_rng(7)


@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"], indirect=True)
@pytest.mark.parametrize("name", sorted(PROGRAMS.PROGRAMS))
def test_mindspore_recorded_gradients(mode, name):
    assert PROGRAMS.run(name) == EXPECTED[mode][name]


# ------------------------------------------------------------------ finite differences

def _values(n, shape=(2,)):
    return [RNG.standard_normal(shape) for _ in range(n)]


def _inputs(arrays, kind=list):
    return ms.mutable(kind(Tensor(a) for a in arrays), True)


def _finite_differences(fn, seq_arrays, tensors, kind, eps=1e-6):
    """d fn / d (each sequence item, then each tensor), fn run eagerly in float64."""
    def call(items, ts):
        return float(fn(_inputs(items, kind), *[Tensor(t) for t in ts]).asnumpy())

    grads = []
    for group, is_seq in ((seq_arrays, True), (tensors, False)):
        for k, base in enumerate(group):
            g = np.zeros_like(base)
            for idx in np.ndindex(base.shape):
                vals = []
                for sign in (1, -1):
                    pert = [a.copy() for a in group]
                    pert[k][idx] += sign * eps
                    vals.append(call(pert, tensors) if is_seq else call(seq_arrays, pert))
                g[idx] = (vals[0] - vals[1]) / (2 * eps)
            grads.append(g)
    return grads


def _check(fn, n, n_tensors=0, kind=list, index=None):
    """``ms.grad`` (compiled) of ``fn(seq, *tensors[, index])`` w.r.t. the sequence and the
    tensors equals finite differences (``index``: a mutable int, a run-time value)."""
    seq_arrays, tensors = _values(n), _values(n_tensors)
    run = fn if index is None else lambda *a: fn(*a, ms.mutable(index))
    want = _finite_differences(run, seq_arrays, tensors, kind)
    positions = tuple(range(1 + n_tensors)) if n_tensors else 0
    grad = ms.jit(ms.grad(fn, grad_position=positions))
    extra = () if index is None else (ms.mutable(index),)
    got = grad(_inputs(seq_arrays, kind), *[Tensor(t) for t in tensors], *extra)
    dseq, dts = (got[0], got[1:]) if n_tensors else (got, ())
    assert isinstance(dseq, kind) and len(dseq) == n
    flat = [t.asnumpy() for t in (*dseq, *dts)]
    np.testing.assert_allclose(np.concatenate([f.ravel() for f in flat]),
                               np.concatenate([w.ravel() for w in want]),
                               rtol=1e-6, atol=1e-8)


def _item_at(x, i):
    return (x[i] * x[0] * 3).sum()


def test_item_at_a_run_time_index():
    _check(_item_at, 4, index=2)
    _check(_item_at, 3, kind=tuple, index=-1)


def test_setitem():
    def f(x, y):
        x[1] = y * x[0]
        x[-1] = x[1] * 2
        return (x[0] * x[1] + x[2] * x[-1]).sum()
    _check(f, 4, n_tensors=1)


def test_slices():
    def f(x):
        y = x[1:]
        z = x[::-2]
        return (y[0] * 3 + y[-1] * z[0] + z[-1]).sum()
    _check(f, 5)


def test_concatenation_with_dynamic_and_static_sequences():
    def f(x, a):
        y = x + ms.mutable([a * 2, x[0]], True)
        z = [a, a * a] + y
        w = z + [a * 3]
        return (w[0] * w[2] + w[-1] * w[-3] + w[-2] * w[3]).sum()
    _check(f, 3, n_tensors=1)


def test_repetition_sums_the_copies():
    def f(x):
        y = x * 3
        return (y[0] * y[-1] + y[len(x)]).sum()
    _check(f, 2)


def test_append_and_extend():
    def f(x, a):
        x.append(a * x[0])
        x.extend(ms.mutable([a * a], True))
        return (x[-1] * x[-2] + x[0]).sum()
    _check(f, 3, n_tensors=1)


@pytest.mark.parametrize("index", [0, 2, -1, -7, 9])
def test_insert(index):
    def f(x, a, i):
        x.insert(i, a * 2)
        return (x[0] * 3 + x[1] * x[-1] + x[2]).sum()
    _check(f, 3, n_tensors=1, index=index)


@pytest.mark.parametrize("index", [0, 1, -2])
def test_pop(index):
    def f(x, i):
        item = x.pop(i)
        return (item * x[0] * 5 + x[-1]).sum()
    _check(f, 3, index=index)


def test_pop_of_the_last_item():
    def f(x):
        item = x.pop()
        return (item * x[0] * 5 + x[-1]).sum()
    _check(f, 3)


def test_pop_of_an_unused_rest():
    _check(lambda x: (x.pop(0) * 2).sum(), 3)


def test_reverse():
    def f(x):
        x.reverse()
        return (x[0] * 5 + x[1] * x[-1]).sum()
    _check(f, 3)


def test_addn_and_a_loop_over_a_growing_list():
    def f(x, a):
        x.append(a * a)
        s = ops.addn(x) * a
        for v in x:
            s = s + v * v
        return s.sum()
    _check(f, 3, n_tensors=1)


def test_a_sequence_built_in_the_graph():
    def f(x, a):
        y = ms.mutable([a, a * 2], True)
        y.append(x[0])
        return (ops.addn(y) * y[1]).sum()
    _check(f, 2, n_tensors=1)


# ------------------------------------------------------------------ interfaces

def test_a_new_length_reuses_the_compiled_gradient():
    grad = ms.jit(ms.grad(lambda x: (ops.addn(x) ** 2).sum()))
    for n in (2, 3, 5):
        got = grad(_inputs([np.ones(2)] * n))
        assert len(got) == n
        np.testing.assert_allclose(got[-1].asnumpy(), [2.0 * n] * 2)
    assert grad._cache.compiles == 1


def test_weights_get_by_list_and_sens():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")

        def construct(self, x):
            x.append(self.w * 2)
            s = x[0] * 0
            for v in x:
                s = s + v * self.w
            return s

    net = Net()
    x = ms.mutable([Tensor(np.array([1.0, 2.0], np.float32)),
                    Tensor(np.array([3.0, 4.0], np.float32))], True)
    by_list = ops.GradOperation(get_by_list=True)(net, net.trainable_params())
    dw = ms.jit(by_list)(x)
    assert isinstance(dw, tuple)  # x + x + 2w * w: 1 + 3 + 4w
    np.testing.assert_allclose(dw[0].asnumpy(), [12.0, 18.0])
    sens = Tensor(np.array([1.0, 10.0], np.float32))
    dx = ms.jit(ops.GradOperation(get_all=True, sens_param=True)(net))(x, sens)
    assert isinstance(dx, tuple) and isinstance(dx[0], list)
    np.testing.assert_allclose([t.asnumpy() for t in dx[0]], [[2.0, 30.0]] * 2)


def test_a_sequence_of_numbers_gets_zeros():
    def f(x, t):
        return (t * x[0] * len(x)).sum()
    grad = ms.jit(ms.grad(f, grad_position=(0, 1)))
    dx, dt = grad(ms.mutable((1.5, 2.5), True), Tensor(np.array([1.0, 2.0], np.float32)))
    assert dx == (0.0, 0.0)
    np.testing.assert_allclose(dt.asnumpy(), [3.0, 3.0])


@pytest.mark.parametrize("n", [0, 2])
def test_a_tensor_while_reading_items(n):
    def f(x, n):
        s = x[0] * 1
        i = 0
        while i < n:
            s = s * x[i + 1]
            i += 1
        return s.sum()
    _check(f, 3, index=n)
