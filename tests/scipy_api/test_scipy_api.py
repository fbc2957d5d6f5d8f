"""``mindspore.scipy`` against MindSpore 2.10 (tests/ops/fixtures/api_scipy.json by
tests/ops/fixtures/record_api_cases.py scipy); GRAPH (@jit) == PYNATIVE; the cases where
MindSpore 2.10 fails on valid input against NumPy."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
import graphkiln.scipy.linalg as la
from graphkiln import Tensor

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ops"))
from api_case_check import check_recorded, load  # noqa: E402

FAM = load("scipy")
_OPTIMISERS = sorted(FAM.pynative_only)


@pytest.mark.parametrize("name", _OPTIMISERS)
def test_optimisers_compiled_in_graph_mode_match_mindspore(name):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        check_recorded(FAM, name)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


A = np.array([[2.0, 0.5, -1.0], [0.3, 1.5, 0.7], [-0.4, 0.2, 3.0]])


def test_lu_permute_l_rebuilds_the_matrix():
    # MindSpore 2.10 raises a TypeError (an Int32 matmul); SciPy's p @ l
    pl, u = la.lu(Tensor(A), permute_l=True)
    np.testing.assert_allclose(pl.asnumpy() @ u.asnumpy(), A, atol=1e-12)
    np.testing.assert_array_equal(np.triu(u.asnumpy()), u.asnumpy())


def test_lu_solve_vector_right_hand_side():
    # MindSpore 2.10 raises an IndexError for a 1-D b; SciPy solves it
    b = np.array([1.0, -2.0, 0.5])
    x = la.lu_solve(la.lu_factor(Tensor(A)), Tensor(b))
    np.testing.assert_allclose(x.asnumpy(), np.linalg.solve(A, b), atol=1e-12)
    xt = la.lu_solve(la.lu_factor(Tensor(A)), Tensor(b), trans=1)
    np.testing.assert_allclose(xt.asnumpy(), np.linalg.solve(A.T, b), atol=1e-12)


def test_solve_triangular_with_run_time_shapes_and_gradient():
    net = ms.nn.Cell()
    net.construct = lambda a, b: la.solve_triangular(a, b, lower=True)
    grad = ms.ops.GradOperation(get_all=True, sens_param=True)

    class Grad(ms.nn.Cell):
        def construct(self, a, b, dout):
            return grad(net)(a, b, dout)

    g = Grad()
    spec = Tensor(shape=[None, None], dtype=ms.float64)
    g.set_inputs(spec, spec, spec)
    a, b, dout = A + 2 * np.eye(3), np.ones((3, 2)), np.arange(6.0).reshape(3, 2)
    ga, gb = (t.asnumpy() for t in g(Tensor(a), Tensor(b), Tensor(dout)))
    low = np.tril(a)
    x = np.linalg.solve(low, b)
    want_gb = np.linalg.solve(low.T, dout)
    np.testing.assert_allclose(gb, want_gb, atol=1e-12)
    np.testing.assert_allclose(ga, np.tril(-want_gb @ x.T), atol=1e-12)


def test_eigh_vectors_are_smooth_in_the_input():
    # the sign of each eigenvector is fixed (largest component positive), so a small
    # change of the matrix moves the vectors a little (finite differences rely on it)
    w, v = la.eigh(Tensor(A + A.T))
    w2, v2 = la.eigh(Tensor(A + A.T + 1e-6 * np.eye(3)[::-1]))
    assert np.abs(v.asnumpy() - v2.asnumpy()).max() < 1e-4


def test_dct_with_run_time_length_and_axis_in_a_graph():
    import graphkiln.scipy.fft as fft
    x = Tensor(np.arange(12.0, dtype=np.float32).reshape(3, 4))
    f = ms.jit(lambda v, n, axis: fft.dct(v, n=n, axis=axis))
    got = f(x, ms.mutable(5), ms.mutable(0))
    np.testing.assert_allclose(got.asnumpy(), fft.dct(x, n=5, axis=0).asnumpy(), atol=1e-5)
    g = ms.jit(lambda v, n: ms.grad(lambda u: (fft.idct(u, n=n) ** 2).sum())(v))
    # the orthonormal inverse keeps the norm of what it keeps: d|idct(u, 4)|^2 = 2u
    np.testing.assert_allclose(g(x, ms.mutable(4)).asnumpy(), 2 * x.asnumpy(), atol=1e-4)


def test_bfgs_in_strict_graph_syntax(monkeypatch):
    # STRICT syntax returns a compiled Cell's dict as the tuple of its values (as
    # MindSpore's); the result is the same as in the default syntax
    import graphkiln.scipy.optimize as opt
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "0")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        res = opt.minimize(lambda p: (p[0] ** 2 + p[1] - 11.0) ** 2 + (p[0] + p[1] ** 2 - 7.0)
                           ** 2, Tensor(np.zeros(2)), method="BFGS", options={"gtol": 1e-6})
        search = opt.line_search(lambda v: (v * v).sum(), Tensor(np.ones(2)),
                                 Tensor(-np.ones(2)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert res.success and res.status == 0
    np.testing.assert_allclose(res.x.asnumpy(), [3.0, 2.0], atol=1e-6)
    assert not search.failed and search.a_k == 1.0
