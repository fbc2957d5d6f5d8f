"""``x[index] = value`` on Tensors: in place eagerly, a rebinding ``Setitem`` in graphs
(so tensor branches and loops carry it), gradients against finite differences.
MindSpore's recorded results are in ``fixtures/ms_programs.py`` (setitem_* programs)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gen_programs import graph_vs_eager  # noqa: E402


def f64(a):
    return Tensor(np.asarray(a, np.float64))


@ms.jit
def _masked_fill(x, m, v):
    y = x * 1
    y[m] = v
    return (y * y).sum()


def _fd(fn, args, k, eps=1e-6):
    base = [a.asnumpy() for a in args]
    g = np.zeros_like(base[k])
    for i in np.ndindex(g.shape):
        hi = [b.copy() for b in base]
        lo = [b.copy() for b in base]
        hi[k][i] += eps
        lo[k][i] -= eps
        g[i] = (float(fn(*map(Tensor, hi)).asnumpy()) -
                float(fn(*map(Tensor, lo)).asnumpy())) / (2 * eps)
    return g


def test_mask_known_only_at_run_time_gradients_match_finite_differences():
    x = f64([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
    v = f64([0.7])
    m = Tensor(x.asnumpy() > 0.8)
    gx, gv = ms.grad(_masked_fill, grad_position=(0, 2))(x, m, v)

    def fn(a, b):
        return _masked_fill(a, m, b)
    np.testing.assert_allclose(gx.asnumpy(), _fd(fn, [x, v], 0), atol=1e-6)
    np.testing.assert_allclose(gv.asnumpy(), _fd(fn, [x, v], 1), atol=1e-6)


def test_slice_value_gradient_matches_finite_differences():
    @ms.jit
    def f(x, v):
        x[1:, ::2] = v * 3
        return (x * x).sum()

    x = f64(np.arange(12.0).reshape(3, 4))
    v = f64([1.0, -2.0])
    gx, gv = ms.grad(f, grad_position=(0, 1))(x, v)
    np.testing.assert_allclose(gx.asnumpy(), _fd(f, [x, v], 0), atol=1e-5)
    np.testing.assert_allclose(gv.asnumpy(), _fd(f, [x, v], 1), atol=1e-5)


@ms.jit
def _branch_and_list(x, c):
    acc = [x, x]
    if c > 0:
        x[0] = c
    else:
        x[-1] = -c
    acc[1] = x * 2
    return acc[0] + acc[1]


@pytest.mark.parametrize("c", [1.5, -2.0])
def test_setitem_in_tensor_if_and_list_item_graph_equals_pynative(c):
    # eagerly x[0] = c writes the caller's tensor too (as in MindSpore's PyNative), and
    # acc[0] is that tensor; the graph rebinds x and leaves acc[0] as it was
    x = Tensor(np.ones((3, 2), np.float32))
    out = _branch_and_list(x, Tensor(c, ms.float32))
    want = np.ones((3, 2), np.float32) * 3
    want[0 if c > 0 else 2] = 1 + 2 * abs(c)
    np.testing.assert_allclose(out.asnumpy(), want)


def test_value_that_does_not_fit_raises_value_error_in_both_modes():
    @ms.jit
    def f(x):
        x[0:2] = Tensor(np.ones(3, np.float32))
        return x

    assert graph_vs_eager(f, Tensor(np.zeros((3, 2), np.float32))) is None
    with pytest.raises(ValueError, match="cannot be broadcast to the indexed shape"):
        f(Tensor(np.zeros((3, 2), np.float32)))
