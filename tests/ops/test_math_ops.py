"""Elementwise math, comparison and logical ops against NumPy, and their errors.

The accepted dtypes and result dtypes were measured on MindSpore 2.10 (CPU, PyNative) with
the same calls; the tables below are that measurement.
"""
import math

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops
from graphkiln.ops.defs.math import erf64

pytestmark = pytest.mark.filterwarnings("error")  # kernels must never warn

RNG = np.random.default_rng(0)
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64"]


def arr(shape, dtype=np.float32, lo=-3.0, hi=3.0):
    return RNG.uniform(lo, hi, shape).astype(dtype)


def sample(dtype: str, shape=(3,)):
    if dtype == "bool":
        return np.array([True, False, True])
    return np.array([1, 2, 3], dtype=dtype)


def check(out, ref, dtype=None, rtol=1e-6, atol=1e-6):
    assert isinstance(out, Tensor)
    ref = np.asarray(ref)
    want = ms.dtype.from_numpy(dtype or ref.dtype)
    assert out.dtype is want, (out.dtype, want)
    assert out.shape == ref.shape
    np.testing.assert_allclose(out.asnumpy().astype(np.float64), ref.astype(np.float64),
                               rtol=rtol, atol=atol)


# ------------------------------------------------------------------ binary

def _np_floor_mod(x, y):
    return np.mod(x, y)


BINARY = {
    # name: (functional, class, numpy reference)
    "Add": (ops.add, ops.Add, np.add),
    "Sub": (ops.sub, ops.Sub, np.subtract),
    "Mul": (ops.mul, ops.Mul, np.multiply),
    "Div": (ops.div, ops.Div, np.true_divide),
    "FloorDiv": (ops.floor_divide, ops.FloorDiv, np.floor_divide),
    "FloorMod": (ops.floor_mod, ops.FloorMod, _np_floor_mod),
    "Pow": (ops.pow, ops.Pow, np.power),
    "Maximum": (ops.maximum, ops.Maximum, np.maximum),
    "Minimum": (ops.minimum, ops.Minimum, np.minimum),
    "Less": (ops.less, ops.Less, np.less),
    "LessEqual": (ops.less_equal, ops.LessEqual, np.less_equal),
    "Greater": (ops.greater, ops.Greater, np.greater),
    "GreaterEqual": (ops.greater_equal, ops.GreaterEqual, np.greater_equal),
    "Equal": (ops.equal, ops.Equal, np.equal),
    "NotEqual": (ops.not_equal, ops.NotEqual, np.not_equal),
    "LogicalAnd": (ops.logical_and, ops.LogicalAnd, np.logical_and),
    "LogicalOr": (ops.logical_or, ops.LogicalOr, np.logical_or),
    "LogicalXor": (ops.logical_xor, ops.LogicalXor, np.logical_xor),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("shapes", [((2, 3), (2, 3)), ((2, 3), (3,)), ((4, 1, 3), (2, 1)),
                                    ((), (2,))])
def test_binary_matches_numpy_with_broadcasting(name, shapes):
    fn, cls, ref = BINARY[name]
    lo = 0.5 if name == "Pow" else -3.0
    x, y = arr(shapes[0], lo=lo), arr(shapes[1], lo=0.5)
    expect = ref(x, y)
    check(fn(Tensor(x), Tensor(y)), expect, rtol=1e-5)
    check(cls()(Tensor(x), Tensor(y)), expect, rtol=1e-5)


@pytest.mark.parametrize("name", ["Add", "Sub", "Mul", "FloorDiv", "FloorMod", "Maximum",
                                  "Minimum", "Less", "Equal"])
def test_binary_on_integers_matches_numpy(name):
    fn, _, ref = BINARY[name]
    x = RNG.integers(-20, 20, (3, 4)).astype(np.int32)
    y = RNG.integers(1, 7, (4,)).astype(np.int32)
    check(fn(Tensor(x), Tensor(y)), ref(x, y))


def test_div_of_integers_is_float32_and_division_by_zero_is_quiet():
    x = np.array([1, 0, -4], np.int32)
    y = np.array([2, 0, 0], np.int32)
    out = ops.div(Tensor(x), Tensor(y)).asnumpy()
    assert out.dtype == np.float32
    assert out[0] == 0.5 and np.isnan(out[1]) and out[2] == -np.inf
    # integer floor division / modulo by zero: no warning, no exception
    ops.floor_divide(Tensor(x), Tensor(y))
    ops.floor_mod(Tensor(x), Tensor(y))


def test_div_rounding_modes():
    x = np.array([7.0, -7.0, 7.0, -7.0], np.float32)
    y = np.array([2.0, 2.0, -2.0, -2.0], np.float32)
    check(ops.div(Tensor(x), Tensor(y), rounding_mode="floor"), np.floor(x / y))
    check(ops.div(Tensor(x), Tensor(y), rounding_mode="trunc"), np.trunc(x / y))
    xi, yi = x.astype(np.int32), y.astype(np.int32)
    check(ops.div(Tensor(xi), Tensor(yi), rounding_mode="trunc"),
          np.trunc(x / y).astype(np.int32))
    with pytest.raises(ValueError, match="For 'div'"):
        ops.div(Tensor(x), Tensor(y), rounding_mode="round")


def test_pow_integer_edge_cases():
    x = np.array([0, 1, -1, 2, -1, 3], np.int32)
    y = np.array([-1, -3, -3, -1, -2, 2], np.int32)
    check(ops.pow(Tensor(x), Tensor(y)), np.array([0, 1, -1, 0, 1, 9], np.int32))
    # int8 overflow wraps, as on MindSpore
    check(ops.pow(Tensor(np.array([2, 3], np.int8)), Tensor(np.array([7, 7], np.int8))),
          np.array([-128, -117], np.int8))


def test_logical_ops_accept_any_dtype():
    x = np.array([0.0, 1.5, -2.0], np.float32)
    y = np.array([3, 0, 1], np.int32)
    check(ops.logical_and(Tensor(x), Tensor(y)), np.logical_and(x, y))
    check(ops.logical_or(Tensor(x), Tensor(y)), np.logical_or(x, y))
    check(ops.logical_xor(Tensor(x), Tensor(y)), np.logical_xor(x, y))
    check(ops.logical_not(Tensor(x)), np.logical_not(x))
    check(ops.LogicalNot()(Tensor(y)), np.logical_not(y))


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_shape_error_names_op_and_both_shapes(name):
    fn, cls, _ = BINARY[name]
    x, y = Tensor(arr((2, 3))), Tensor(arr((4, 3)))
    for call in (lambda: fn(x, y), lambda: cls()(x, y)):
        with pytest.raises(ValueError) as e:
            call()
        msg = str(e.value)
        assert f"For '{name}'" in msg and "[2, 3]" in msg and "[4, 3]" in msg


# Add, Sub, FloorMod, Pow and Minimum refuse bool-with-bool on MindSpore's CPU kernels.
@pytest.mark.parametrize("name", ["Add", "Sub", "FloorMod", "Pow", "Minimum"])
def test_binary_bool_error(name):
    _, cls, _ = BINARY[name]
    b = Tensor(np.array([True, False]))
    with pytest.raises(TypeError, match=f"For '{name}'.*Bool"):
        cls()(b, b)


@pytest.mark.parametrize("name", ["Mul", "FloorDiv", "Maximum"])
def test_binary_bool_with_bool_stays_bool(name):
    fn, _, ref = BINARY[name]
    x, y = np.array([True, False, True]), np.array([True, True, False])
    with np.errstate(divide="ignore"):
        expect = ref(x, y).astype(np.bool_)
    check(fn(Tensor(x), Tensor(y)), expect)


def test_binary_rejects_non_numbers():
    with pytest.raises(TypeError, match="For 'Add'.*str"):
        ops.add(Tensor(arr((2,))), "a")
    with pytest.raises(TypeError, match="For 'Less'"):
        ops.Less()(Tensor(arr((2,))), None)


# ------------------------------------------------------------------ unary

def _np_relu(x):
    return np.where(x > 0, x, 0).astype(x.dtype)


def _np_sigmoid(x):
    return (1 / (1 + np.exp(-x.astype(np.float64)))).astype(x.dtype)


def _np_gelu_tanh(x):
    w = x.astype(np.float64)
    return (0.5 * w * (1 + np.tanh(math.sqrt(2 / math.pi) * (w + 0.044715 * w ** 3)))
            ).astype(x.dtype)


def _np_gelu_erf(x):
    w = x.astype(np.float64)
    return (0.5 * w * (1 + np.vectorize(math.erf)(w / math.sqrt(2)))).astype(x.dtype)


def _np_hswish(x):
    return (x * np.clip(x + 3, 0, 6) / 6).astype(x.dtype)


def _np_softplus(x):
    return np.log1p(np.exp(x.astype(np.float64))).astype(x.dtype)


def _np_erf(x):
    return np.vectorize(math.erf)(x.astype(np.float64)).astype(x.dtype)


UNARY = {
    # name: (functional, class, numpy reference, input domain)
    "Neg": (ops.neg, ops.Neg, np.negative, (-3, 3)),
    "Abs": (ops.abs, ops.Abs, np.abs, (-3, 3)),
    "Square": (ops.square, ops.Square, np.square, (-3, 3)),
    "Exp": (ops.exp, ops.Exp, np.exp, (-3, 3)),
    "Log": (ops.log, ops.Log, np.log, (0.1, 5)),
    "Sqrt": (ops.sqrt, ops.Sqrt, np.sqrt, (0, 5)),
    "Rsqrt": (ops.rsqrt, ops.Rsqrt, lambda x: 1 / np.sqrt(x), (0.1, 5)),
    "Sin": (ops.sin, ops.Sin, np.sin, (-3, 3)),
    "Cos": (ops.cos, ops.Cos, np.cos, (-3, 3)),
    "Tanh": (ops.tanh, ops.Tanh, np.tanh, (-3, 3)),
    "Sigmoid": (ops.sigmoid, ops.Sigmoid, _np_sigmoid, (-5, 5)),
    "ReLU": (ops.relu, ops.ReLU, _np_relu, (-3, 3)),
    "GeLU": (lambda x: ops.gelu(x, approximate="tanh"), ops.GeLU, _np_gelu_tanh, (-4, 4)),
    "HSwish": (ops.hardswish, ops.HSwish, _np_hswish, (-5, 5)),
    "Softplus": (ops.softplus, ops.Softplus, _np_softplus, (-5, 5)),
    "Erf": (ops.erf, ops.Erf, _np_erf, (-3, 3)),
    "LogicalNot": (ops.logical_not, ops.LogicalNot, np.logical_not, (-1, 1)),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_unary_matches_numpy(name, dtype):
    fn, cls, ref, (lo, hi) = UNARY[name]
    x = arr((3, 4), dtype, lo, hi)
    expect = ref(x)
    tol = 2e-3 if dtype == np.float16 else 1e-5
    check(fn(Tensor(x)), expect, rtol=tol, atol=tol)
    check(cls()(Tensor(x)), expect, rtol=tol, atol=tol)


def test_gelu_default_forms():
    x = arr((5,), np.float32, -4, 4)
    check(ops.gelu(Tensor(x)), _np_gelu_erf(x), rtol=1e-6)  # ops.gelu: exact erf form
    check(ops.GeLU()(Tensor(x)), _np_gelu_tanh(x), rtol=1e-6)  # primitive: tanh form
    with pytest.raises(ValueError, match="For 'GeLU'"):
        ops.gelu(Tensor(x), approximate="fast")


def test_softplus_beta_threshold():
    x = arr((6,), np.float32, -5, 5)
    beta, threshold = 2.0, 3.0
    soft = np.log1p(np.exp(beta * x.astype(np.float64))) / beta
    expect = np.where(beta * x > threshold, x, soft).astype(np.float32)
    check(ops.softplus(Tensor(x), beta, threshold), expect, rtol=1e-5)


def test_activations_extreme_inputs_are_quiet_and_finite():
    x = Tensor(np.array([-1e4, -100.0, 0.0, 100.0, 1e4], np.float32))
    check(ops.sigmoid(x), np.array([0, 0, 0.5, 1, 1], np.float32))
    check(ops.softplus(x), np.array([0, 0, math.log(2), 100, 1e4], np.float32))
    check(ops.relu(Tensor(np.array([np.nan, -1.0], np.float32))), np.zeros(2, np.float32))
    out = ops.exp(x).asnumpy()
    assert out[-1] == np.inf
    assert np.isnan(ops.log(Tensor(np.array([-1.0], np.float32))).asnumpy()[0])


def test_integer_unaries():
    x = np.array([-5, -2, -1, 0, 1, 2, 4], np.int32)
    check(ops.hardswish(Tensor(x)), np.trunc(x * np.clip(x + 3, 0, 6) / 6).astype(np.int32))
    check(ops.relu(Tensor(x)), np.maximum(x, 0))
    check(ops.neg(Tensor(np.array([1], np.uint8))), np.array([255], np.uint8))
    check(ops.sqrt(Tensor(np.array([4, 2], np.int32))), np.sqrt([4, 2]).astype(np.float32))


# result dtype per input dtype, measured on MindSpore 2.10; "E" = TypeError
UNARY_DTYPES = {
    "Neg":        "E    i8   i16  i32  i64  u8   f16  f32  f64",
    "Abs":        "b    i8   i16  i32  i64  u8   f16  f32  f64",
    "Exp":        "E    E    E    E    E    E    f16  f32  f64",
    "Log":        "E    E    E    E    E    E    f16  f32  f64",
    "Sqrt":       "f32  f32  f32  f32  f32  f32  f16  f32  f64",
    "Rsqrt":      "E    E    E    E    E    E    f16  f32  f64",
    "Square":     "E    i8   i16  i32  i64  u8   f16  f32  f64",
    "Sin":        "E    E    E    E    E    E    f16  f32  f64",
    "Cos":        "E    E    E    E    E    E    f16  f32  f64",
    "Tanh":       "E    E    E    E    E    E    f16  f32  f64",
    "Sigmoid":    "E    E    E    E    E    E    f16  f32  f64",
    "ReLU":       "b    i8   i16  i32  i64  u8   f16  f32  f64",
    "GeLU":       "E    E    E    E    E    E    f16  f32  f64",
    "HSwish":     "E    i8   i16  i32  i64  E    f16  f32  f64",
    "Softplus":   "E    E    E    E    E    E    f16  f32  f64",
    "Erf":        "E    E    E    E    E    E    f16  f32  f64",
    "LogicalNot": "b    b    b    b    b    b    b    b    b",
}
SHORT = {"b": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
         "u8": "uint8", "f16": "float16", "f32": "float32", "f64": "float64"}


@pytest.mark.parametrize("name", sorted(UNARY_DTYPES))
def test_unary_dtype_table(name):
    cls = UNARY[name][1]
    for dtype, want in zip(DTYPES, UNARY_DTYPES[name].split()):
        x = Tensor(sample(dtype))
        if want == "E":
            with pytest.raises(TypeError, match=f"For '{name}'.*{ms.dtype.from_numpy(dtype)}"):
                cls()(x)
        else:
            assert cls()(x).dtype is ms.dtype.from_numpy(SHORT[want]), (name, dtype)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_rejects_non_tensor(name):
    _, cls, _, _ = UNARY[name]
    with pytest.raises(TypeError, match=f"For '{name}'.*str"):
        cls()("a")


def test_erf_is_accurate_in_float64():
    x = np.concatenate([np.linspace(-8, 8, 20001), np.geomspace(1e-300, 1, 200),
                        -np.geomspace(1e-300, 1, 200), [0.0, 2.0, 6.0, np.inf, -np.inf]])
    ref = np.array([math.erf(v) for v in x])
    got = erf64(x)
    rel = np.abs(got - ref) / np.maximum(np.abs(ref), 1e-300)
    assert rel.max() < 1e-14
    assert np.isnan(erf64(np.array([np.nan]))[0])
    assert erf64(np.array(0.5)).shape == ()


# ------------------------------------------------------------------ matrix products

def test_matmul_forms():
    a, b = arr((2, 3)), arr((3, 4))
    check(ops.matmul(Tensor(a), Tensor(b)), a @ b, rtol=1e-5)
    check(ops.MatMul()(Tensor(a), Tensor(b)), a @ b, rtol=1e-5)
    check(ops.MatMul(True)(Tensor(a.T.copy()), Tensor(b)), a @ b, rtol=1e-5)
    check(ops.MatMul(False, True)(Tensor(a), Tensor(b.T.copy())), a @ b, rtol=1e-5)
    check(Tensor(a) @ Tensor(b), a @ b, rtol=1e-5)
    ai, bi = a.astype(np.int32), b.astype(np.int32)
    check(ops.matmul(Tensor(ai), Tensor(bi)), ai @ bi)


@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((3,), (3, 4)), ((2, 3), (3,)),
                                   ((5, 2, 3), (3, 4)), ((5, 1, 2, 3), (4, 3, 4)),
                                   ((2, 3), (6, 3, 4))])
def test_matmul_numpy_semantics(sa, sb):
    a, b = arr(sa), arr(sb)
    check(ops.matmul(Tensor(a), Tensor(b)), np.matmul(a, b), rtol=1e-5)


def test_batch_matmul():
    a, b = arr((5, 2, 3)), arr((5, 3, 4))
    check(ops.BatchMatMul()(Tensor(a), Tensor(b)), a @ b, rtol=1e-5)
    check(ops.bmm(Tensor(a), Tensor(b)), a @ b, rtol=1e-5)
    at, bt = np.swapaxes(a, -1, -2).copy(), np.swapaxes(b, -1, -2).copy()
    check(ops.BatchMatMul(True, True)(Tensor(at), Tensor(bt)), a @ b, rtol=1e-5)
    c = arr((3, 4))  # batch dimensions broadcast (MindSpore's Ascend behaviour)
    check(ops.BatchMatMul()(Tensor(a), Tensor(c)), a @ c, rtol=1e-5)


def test_matmul_errors():
    with pytest.raises(ValueError, match=r"For 'MatMul'.*'x1_col': 3.*'x2_row': 4.*\[2, 3\]"
                                         r".*\[4, 4\]"):
        ops.MatMul()(Tensor(arr((2, 3))), Tensor(arr((4, 4))))
    with pytest.raises(ValueError, match=r"For 'MatMul'.*rank"):
        ops.MatMul()(Tensor(arr((5, 2, 3))), Tensor(arr((3, 4))))
    with pytest.raises(TypeError, match=r"For 'MatMul'.*Float32.*Int32"):
        ops.MatMul()(Tensor(arr((2, 3))), Tensor(arr((3, 4), np.int32)))
    with pytest.raises(ValueError, match=r"For 'BatchMatMul'.*\[5\].*\[4\]"):
        ops.BatchMatMul()(Tensor(arr((5, 2, 3))), Tensor(arr((4, 3, 4))))
    with pytest.raises(ValueError, match=r"For 'BatchMatMul'.*'x1_col'"):
        ops.BatchMatMul()(Tensor(arr((5, 2, 3))), Tensor(arr((5, 4, 4))))
    with pytest.raises(ValueError, match=r"For 'BatchMatMul'.*at least 2"):
        ops.BatchMatMul()(Tensor(arr((3,))), Tensor(arr((3, 4))))


def test_matmul_infer_does_not_allocate():
    from graphkiln.ir.abstract import AbstractTensor
    from graphkiln.ir.primitive import REGISTRY
    big = AbstractTensor(ms.float32, (1 << 20, 1 << 20, 1 << 10))
    out = REGISTRY["BatchMatMul"].infer(big, AbstractTensor(ms.float32, (1, 1 << 10, 7)))
    assert out.shape == (1 << 20, 1 << 20, 7)
    out = REGISTRY["MatMul"].infer(AbstractTensor(ms.float32, (1 << 40, 3)),
                                   AbstractTensor(ms.float32, (3, 1 << 40)))
    assert out.shape == (1 << 40, 1 << 40)


# ------------------------------------------------------------------ float-status register

def test_kernels_report_real_float_errors_only():
    from graphkiln.common import float_status
    float_status.clear()
    big = Tensor(np.array([-1e4, 0.0, 1e4], np.float32))
    ops.sigmoid(big)
    ops.softplus(big)
    ops.GeLU()(Tensor(np.array([1e30, -1e30], np.float32)))
    ops.erf(Tensor(np.array([np.nan, 30.0], np.float32)))
    ops.add(Tensor(np.array([100], np.int8)), 300)
    ops.softmax(Tensor(np.array([[1e30, -1e30]], np.float32)))
    assert not float_status.status().any()  # stable kernels raise no spurious flag
    ops.exp(Tensor(np.array([100.0], np.float32)))  # overflows float32
    assert float_status.status().any()
    float_status.clear()
    ops.div(Tensor(np.array([1.0], np.float32)), 0.0)
    assert float_status.status().any()
    float_status.clear()


def test_tensor_operators_use_these_ops():
    x = Tensor(np.array([[1.0, -2.0], [3.0, 4.0]], np.float32))
    check((x + 1) * 2 - x / 2, (x.asnumpy() + 1) * 2 - x.asnumpy() / 2)
    check(x // 2 + x % 3, x.asnumpy() // 2 + x.asnumpy() % 3)
    check(2 ** x, 2 ** x.asnumpy(), rtol=1e-6)
    check(-x, -x.asnumpy())
    check(abs(x), np.abs(x.asnumpy()))
    check(x > 0, x.asnumpy() > 0)
    check((x > 0) & (x < 4), (x.asnumpy() > 0) & (x.asnumpy() < 4))
    check(~(x > 0), ~(x.asnumpy() > 0))
    check(x.exp(), np.exp(x.asnumpy()))
    check(x.astype(ms.int32), x.asnumpy().astype(np.int32))
