"""Gradients of real-valued functions of complex tensors against finite differences:
MindSpore's convention gives ``df/da + i df/db`` for ``z = a + bi``; a complex value
built from real inputs sends back the real part (``Complex``'s rule); GRAPH == PYNATIVE."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

EPS = 1e-6
Z = np.array([1 + 2j, 0.5 - 1j, -2 + 0.25j])


def _fd(fn, z):
    """``df/da + i df/db`` of the real function ``fn`` (NumPy) at every element of ``z``
    (or of a scalar ``z``)."""
    da = (fn(z + EPS) - fn(z - EPS)) / (2 * EPS)
    db = (fn(z + 1j * EPS) - fn(z - 1j * EPS)) / (2 * EPS)
    return da + 1j * db


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("name, op, ref", [
    ("abs", ops.abs, np.abs), ("angle", ops.angle, np.angle),
    ("real", ops.real, np.real), ("imag", ops.imag, np.imag),
    ("abs_of_conj_times_2", lambda z: ops.abs(ops.conj(z) * 2), lambda z: np.abs(np.conj(z) * 2)),
    ("abs_of_tanh", lambda z: ops.abs(ops.tanh(z)), lambda z: np.abs(np.tanh(z))),
])
def test_complex_gradients_match_finite_differences(mode, name, op, ref):
    ms.set_context(mode=mode)
    try:
        g = ops.GradOperation()(op)(Tensor(Z.astype(np.complex128)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert g.dtype == ms.complex128
    np.testing.assert_allclose(g.asnumpy(), _fd(ref, Z), rtol=1e-6, atol=1e-8, err_msg=name)


def test_complex_of_real_inputs_gradient_is_the_real_part():
    a, b = np.array([0.5, -1.5]), np.array([2.0, 0.25])
    w = np.array([2 - 1j, 3 + 0.5j])

    def f(x, y):
        return ops.real(ops.Complex()(x, y) * Tensor(w))  # real(w) x - imag(w) y

    ga, gb = ops.GradOperation(get_all=True)(f)(Tensor(a), Tensor(b))
    np.testing.assert_allclose(ga.asnumpy(), w.real)
    np.testing.assert_allclose(gb.asnumpy(), -w.imag)


@pytest.mark.parametrize("name, op, ref", [
    ("mul", lambda z, w: ops.abs(z * w), lambda z, w: np.abs(z * w)),
    ("div", lambda z, w: ops.angle(z / w), lambda z, w: np.angle(z / w)),
    ("matmul", lambda z, w: ops.real(ops.matmul(z.reshape(1, 3), w.reshape(3, 1))),
     lambda z, w: np.real(z @ w)),
])
def test_complex_products_gradients_match_finite_differences(name, op, ref):
    w = np.array([2 - 1j, 3 + 0.5j, -1 - 1j])
    gz, gw = ops.GradOperation(get_all=True)(op)(Tensor(Z), Tensor(w))
    fd_z = np.array([_fd(lambda d, k=k: ref(Z + d * (np.arange(3) == k), w).sum(), 0j)
                     for k in range(3)])
    fd_w = np.array([_fd(lambda d, k=k: ref(Z, w + d * (np.arange(3) == k)).sum(), 0j)
                     for k in range(3)])
    np.testing.assert_allclose(gz.asnumpy().ravel(), fd_z, rtol=1e-6, atol=1e-8, err_msg=name)
    np.testing.assert_allclose(gw.asnumpy().ravel(), fd_w, rtol=1e-6, atol=1e-8, err_msg=name)
