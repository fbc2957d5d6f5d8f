"""Mish, SeLU, SoftShrink, PReLU, MaskedFill, Trunc, TruncateDiv, TruncateMod, Xdivy and
SquareSumAll against
NumPy references; integer division by zero, dtypes and errors as MindSpore 2.10 gives them
(measured by hand); gradients of the float32-only ops against finite differences
(the others are checked in tests/ops/test_bprop.py)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ops import operations as P

X = np.array([-7.5, -2.0, -0.3, 0.0, 0.4, 3.0, 9.25])
SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_activations_match_numpy(dtype):
    x = X.astype(dtype)
    mish = x * np.tanh(np.log1p(np.exp(x)))
    selu = SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(x))
    np.testing.assert_allclose(ops.mish(Tensor(x)).asnumpy(), mish, rtol=1e-6)
    np.testing.assert_allclose(ops.selu(Tensor(x)).asnumpy(), selu, rtol=1e-6)
    if dtype == np.float32:
        shrink = np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0))
        np.testing.assert_array_equal(ops.softshrink(Tensor(x)).asnumpy(), shrink)
    np.testing.assert_array_equal(ops.trunc(Tensor(x)).asnumpy(), np.trunc(x))


def test_truncating_division_of_ints_and_by_zero():
    x = np.array([-7, 7, -7, 7, 1, 0, -1], np.int32)
    y = np.array([2, -2, -2, 2, 0, 0, 0], np.int32)
    q = ops.truncate_div(Tensor(x), Tensor(y)).asnumpy()
    np.testing.assert_array_equal(q, [-3, -3, 3, 3, 2**31 - 1, 0, -2**31])
    r = ops.truncate_mod(Tensor(x), Tensor(y)).asnumpy()
    np.testing.assert_array_equal(r, [-1, 1, -1, 1, 0, 0, 0])
    f = ops.truncate_div(Tensor(np.float32([-7.0, 7.5])), 2.0).asnumpy()
    np.testing.assert_array_equal(f, [-3.0, 3.0])
    xy = ops.xdivy(Tensor(np.float32([0.0, 1.0, 0.0, 3.0])), Tensor(np.float32([0, 0, 1, 2])))
    np.testing.assert_array_equal(xy.asnumpy(), [0.0, np.inf, 0.0, 1.5])


def test_square_sum_all_and_graph_equals_pynative():
    a, b = np.arange(6, dtype=np.float32).reshape(2, 3), np.float32([[1, -2, 3]] * 2)
    got = P.SquareSumAll()(Tensor(a), Tensor(b))
    assert [g.asnumpy() for g in got] == [55.0, 28.0]
    graph = ms.jit(lambda u, v: (ops.mish(u), ops.truncate_mod(u, v)))(Tensor(a), Tensor(b))
    np.testing.assert_array_equal(graph[0].asnumpy(), ops.mish(Tensor(a)).asnumpy())
    np.testing.assert_array_equal(graph[1].asnumpy(), np.fmod(a, b))


def _numeric_grad(f, x, eps=1e-3):
    out = np.zeros_like(x)
    for i in range(x.size):
        hi, lo = x.copy(), x.copy()
        hi.flat[i] += eps
        lo.flat[i] -= eps
        out.flat[i] = (f(hi) - f(lo)) / (2 * eps)
    return out


def test_float32_only_gradients_match_finite_differences():
    x = np.float32([-1.7, -0.2, 0.05, 0.9, 2.5])

    def shrink_sum(v):
        return float(ops.softshrink(Tensor(v), 0.5).sum().asnumpy())
    grad = ms.grad(lambda t: ops.softshrink(t, 0.5).sum())(Tensor(x)).asnumpy()
    np.testing.assert_allclose(grad, _numeric_grad(shrink_sum, x), atol=1e-3)

    def squares(v):
        first, second = P.SquareSumAll()(Tensor(v), Tensor(v * 2))
        return float((first + 3 * second).asnumpy())
    grad = ms.grad(lambda t: sum(w * s for w, s in zip((1, 3), P.SquareSumAll()(t, t * 2))))(
        Tensor(x)).asnumpy()
    np.testing.assert_allclose(grad, _numeric_grad(squares, x), rtol=1e-2)
    dgrad = P.SoftShrinkGrad(0.5)(Tensor(np.ones(5, np.float32)), Tensor(x)).asnumpy()
    np.testing.assert_array_equal(dgrad, [1, 0, 0, 1, 1])


def test_prelu_and_masked_fill_match_numpy_and_prelu_gradient():
    x = np.float32([[[-1.0, 2.0], [3.0, -4.0]], [[-5.0, 6.0], [0.0, -8.0]]])
    w = np.float32([0.1, 0.2])
    want = np.where(x > 0, x, x * w.reshape(1, 2, 1))
    np.testing.assert_allclose(ops.prelu(Tensor(x), Tensor(w)).asnumpy(), want)
    gx, gw = ms.grad(lambda a, b: ops.PReLU()(a, b).sum(), grad_position=(0, 1))(Tensor(x),
                                                                               Tensor(w))
    np.testing.assert_allclose(gx.asnumpy(), np.where(x > 0, 1, w.reshape(1, 2, 1)))
    np.testing.assert_allclose(gw.asnumpy(), [-6.0, -12.0])  # sums of the non-positive x
    mask = np.array([True, False, True])
    filled = ops.masked_fill(Tensor(x[0].T[:1].repeat(2, 0)), Tensor(mask[:2]), 9.0)
    assert filled.shape == (2, 2)
    got = ops.masked_fill(Tensor(np.ones((2, 3), np.int32)), Tensor(mask), Tensor(7, ms.int32))
    np.testing.assert_array_equal(got.asnumpy(), np.where(mask, 7, np.ones((2, 3))))
    gv = ms.grad(lambda v: ops.masked_fill(Tensor(np.ones((2, 3), np.float32)), Tensor(mask),
                                           v).sum())(Tensor(np.float32(2.0)))
    assert gv.asnumpy() == 4.0


@pytest.mark.parametrize("call, error, phrase", [
    (lambda: ops.mish(Tensor(np.ones(3, np.int32))), TypeError, "Float32"),
    (lambda: ops.softshrink(Tensor(np.ones(3)), 0.5), TypeError, "Float16, Float32"),
    (lambda: ops.softshrink(Tensor(np.ones(3, np.float32)), -1.0), RuntimeError, "lambd"),
    (lambda: ops.truncate_mod(Tensor(np.array([True])), Tensor(np.array([True]))), TypeError,
     "promote"),
    (lambda: ops.truncate_mod(Tensor(np.ones(3, np.int32)), Tensor(np.ones(2, np.int32))),
     ValueError, "broadcast"),
    (lambda: ops.xdivy(Tensor(np.ones(2, np.int32)), Tensor(np.ones(2, np.int32))), TypeError,
     "promote"),
    (lambda: P.SquareSumAll()(Tensor(np.ones(2)), Tensor(np.ones(2))), TypeError,
     "Tensor[Float16]"),
    (lambda: ops.prelu(Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones(3, np.float32))),
     ValueError, "number of channels"),
    (lambda: ops.prelu(Tensor(np.ones(2)), Tensor(np.ones(1))), TypeError, "Float16, Float32"),
    (lambda: ops.masked_fill(Tensor(np.ones(3)), Tensor(np.ones(3)), 1.0), TypeError, "{Bool}"),
    (lambda: ops.masked_fill(Tensor(np.ones(3)), Tensor(np.ones(3, np.bool_)),
                             Tensor(np.ones(1))), ValueError, "0-dimensional"),
])
def test_errors(call, error, phrase):
    with pytest.raises(error, match=phrase.replace("[", r"\[").replace("]", r"\]")):
        call()


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8])
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_floor_division_of_ints_by_zero(dtype, mode):
    # MindSpore 2.10 CPU: x // 0 is the dtype's extreme of x's sign (0 for 0 // 0) in both
    # modes; x % 0 is 0 (its PyNative kernel gives INT_MIN for int32/int64, its graph 0)
    ms.set_context(mode=mode)
    vals = [7, 0] if dtype == np.uint8 else [7, -7, 0]
    info = np.iinfo(dtype)
    want = [info.max, 0] if dtype == np.uint8 else [info.max, info.min, 0]

    @ms.jit
    def divide(a, b):
        return a // b, a % b

    fn = divide if mode == ms.GRAPH_MODE else (lambda a, b: (a // b, a % b))
    q, r = fn(Tensor(np.array(vals, dtype)), Tensor(np.zeros(len(vals), dtype)))
    assert q.asnumpy().tolist() == want and r.asnumpy().tolist() == [0] * len(vals)
    q, r = fn(Tensor(np.array([7, -7, 6], np.int32)), Tensor(np.array([2, 2, -4], np.int32)))
    assert q.asnumpy().tolist() == [3, -4, -2] and r.asnumpy().tolist() == [1, 1, -2]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_bool_plus_is_or_and_minus_is_xor(mode):
    # MindSpore 2.10 PyNative (pynative_synchronize too): the operators + and - of bool
    # Tensors (or a Python bool) are their logical or and exclusive or, AddN of bools their
    # or; ops.add/ops.sub and the Add/Sub primitives refuse bools (its graph mode refuses the
    # operators too; graphkiln gives both modes PyNative's answer)
    ms.set_context(mode=mode)
    a = Tensor(np.array([True, True, False]))
    b = Tensor(np.array([True, False, False]))

    def f(a, b):
        return a + b, a - b, ops.addn([a, b]), a + True

    out = (ms.jit(f) if mode == ms.GRAPH_MODE else f)(a, b)
    assert [o.dtype for o in out] == [ms.bool_] * 4
    assert [o.asnumpy().tolist() for o in out] == [
        [True, True, False], [False, True, False], [True, True, False], [True, True, True]]
    for refused in (lambda: ops.add(a, b), lambda: ops.sub(a, b), lambda: -a):
        with pytest.raises(TypeError):
            refused()
