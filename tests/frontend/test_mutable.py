"""``mutable`` numbers are run-time scalars of a compiled call (one compile for every
value); gradients with respect to mutable containers have their structure. MindSpore's
results for the same programs are checked in test_ms_programs.py (``mutable_*``,
``grad_of_mutable_*``)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor
from graphkiln.common.symbolic_scalar import SymbolicScalar


def test_new_mutable_values_reuse_one_compile():
    @ms.jit
    def scale(x, s):
        return x * s + s

    x = Tensor(np.ones(2, np.float32))
    outs = [scale(x, ms.mutable(v)).asnumpy() for v in (2, 5, -1)]
    np.testing.assert_allclose(outs, [[4, 4], [10, 10], [-2, -2]])
    assert scale._cache.compiles == 1
    scale(x, ms.mutable(2.5))  # a float is another signature
    assert scale._cache.compiles == 2
    scale(x, 3)  # plain numbers stay constants keyed by value
    scale(x, 4)
    assert scale._cache.compiles == 4


def test_scalar_output_is_a_python_number_of_its_type():
    @ms.jit
    def f(n, m):
        return n * 2, m / 2, n > 3

    a, b, c = f(ms.mutable(4), ms.mutable(3))
    assert (a, b, c) == (8, 1.5, True)
    assert type(a) is int and type(b) is float and type(c) is bool


def test_run_time_scalar_indexes_a_tensor():
    @ms.jit
    def f(x, n):
        return x[n] * 2

    x = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    np.testing.assert_allclose(f(x, ms.mutable(1)).asnumpy(), [4, 6])
    np.testing.assert_allclose(f(x, ms.mutable(-1)).asnumpy(), [8, 10])
    assert f._cache.compiles == 1


def test_run_time_scalar_refuses_python_truth_outside_control_flow():
    @ms.jit
    def f(x, n):
        return [x] * n

    with pytest.raises(TypeError, match="mutable int"):
        f(Tensor(np.ones(3, np.float32)), ms.mutable(2))


class _Probe:
    seen = None


def test_symbolic_scalar_is_what_the_trace_sees():
    probe = _Probe()  # an attribute, not a list: graph code's list writes are undone

    @ms.jit
    def f(x, n):
        probe.seen = n
        return x + n

    f(Tensor(np.ones(2, np.float32)), ms.mutable(1))
    assert type(probe.seen) is SymbolicScalar and probe.seen.kind is int


def test_grad_of_mutable_tuple_matches_finite_differences():
    def f(t):
        return (t[0] * t[1][0] + t[1][1] ** 2).sum()

    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(3).astype(np.float64) for _ in range(3)]
    ms.set_context(mode=ms.GRAPH_MODE)
    g = ms.grad(f)(ms.mutable((Tensor(arrays[0]), [Tensor(arrays[1]), Tensor(arrays[2])])))
    assert isinstance(g, tuple) and isinstance(g[1], list)
    got = [g[0].asnumpy(), g[1][0].asnumpy(), g[1][1].asnumpy()]

    def value(a):
        return float((a[0] * a[1] + a[2] ** 2).sum())

    eps = 1e-6
    for k in range(3):
        fd = np.zeros(3)
        for i in range(3):
            hi = [a.copy() for a in arrays]
            lo = [a.copy() for a in arrays]
            hi[k][i] += eps
            lo[k][i] -= eps
            fd[i] = (value(hi) - value(lo)) / (2 * eps)
        np.testing.assert_allclose(got[k], fd, rtol=1e-6, atol=1e-8)


def test_strict_syntax_returns_a_dict_as_the_tuple_of_its_values(monkeypatch):
    # MindSpore's tests/st/compiler/mutable/test_grad_mutable.py (dict cases) rely on this
    @ms.jit
    def f(x):
        return {"a": x * 2, "b": [x, x + 1]}

    x = Tensor(np.ones(2, np.float32))
    assert isinstance(f(x), dict)
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "0")
    out = f(x)
    assert isinstance(out, tuple) and isinstance(out[1], list)
    np.testing.assert_allclose(out[0].asnumpy(), [2, 2])


def test_mutable_remembers_its_origin_and_set_const_arg_checks_its_flag():
    """As MindSpore 2.10: ``mutable(v).__ms_origin_object__ is v`` (a Tensor is its own),
    ``set_const_arg`` returns the Tensor and wants a bool."""
    t = ms.Tensor(np.ones(2, np.float32))
    for v in ([t], (t, 1), {"a": t}):
        assert ms.mutable(v).__ms_origin_object__ is v
    assert ms.mutable(t).__ms_origin_object__ is t
    assert t.set_const_arg(True) is t and t.set_const_arg(False) is t
    with pytest.raises(TypeError, match="const_arg"):
        t.set_const_arg(1)
