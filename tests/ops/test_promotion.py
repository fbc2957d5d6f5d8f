"""Type promotion of mixed-dtype and tensor/Python-number arithmetic.

Every table here was produced by running the same calls on MindSpore 2.10 (CPU, PyNative;
``pynative_synchronize=True``) and is checked entry by entry. "E" means MindSpore raised
TypeError. Short names: b=Bool, i8..i64=Int8..Int64, u8=UInt8, f16..f64=Float16..Float64.
"""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

pytestmark = pytest.mark.filterwarnings("error")

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64"]
SHORT = {"b": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
         "u8": "uint8", "f16": "float16", "f32": "float32", "f64": "float64"}


def sample(dtype: str):
    if dtype == "bool":
        return Tensor(np.array([True, False, True]))
    return Tensor(np.array([1, 2, 3], dtype=dtype))


def parse(table: str) -> dict:
    """Rows "i8: ..." of a square table into {(row dtype, column dtype): result}."""
    out = {}
    for line in table.strip().splitlines():
        row, cells = line.split(":")
        for col, cell in zip(DTYPES, cells.split()):
            out[(SHORT[row.strip()], col)] = cell
    return out


# ops.add / ops.Add: row dtype + column dtype (ops.sub, FloorMod, Pow, Minimum give the same
# table; Mul, FloorDiv and Maximum differ only in accepting bool + bool -> bool).
ADD = parse("""
b:   E    i8   i16  i32  i64  u8   f16  f32  f64
i8:  i8   i8   i16  i32  i64  i16  f16  f32  f64
i16: i16  i16  i16  i32  i64  i16  f16  f32  f64
i32: i32  i32  i32  i32  i64  i32  f16  f32  f64
i64: i64  i64  i64  i64  i64  i64  f16  f32  f64
u8:  u8   i16  i16  i32  i64  u8   f16  f32  f64
f16: f16  f16  f16  f16  f16  f16  f16  f32  f64
f32: f32  f32  f32  f32  f32  f32  f32  f32  f64
f64: f64  f64  f64  f64  f64  f64  f64  f64  f64
""")

DIV = parse("""
b:   f32  f32  f32  f32  f32  f32  f16  f32  f64
i8:  f32  f32  f32  f32  f32  f32  f16  f32  f64
i16: f32  f32  f32  f32  f32  f32  f16  f32  f64
i32: f32  f32  f32  f32  f32  f32  f16  f32  f64
i64: f32  f32  f32  f32  f32  f32  f16  f32  f64
u8:  f32  f32  f32  f32  f32  f32  f16  f32  f64
f16: f16  f16  f16  f16  f16  f16  f16  f32  f64
f32: f32  f32  f32  f32  f32  f32  f32  f32  f64
f64: f64  f64  f64  f64  f64  f64  f64  f64  f64
""")

TENSOR_TENSOR = [
    (ops.add, ADD), (ops.Add(), ADD), (ops.sub, ADD), (ops.floor_mod, ADD), (ops.pow, ADD),
    (ops.Minimum(), ADD), (ops.div, DIV), (ops.Div(), DIV),
    (ops.mul, {**ADD, ("bool", "bool"): "b"}), (ops.floor_divide, {**ADD, ("bool", "bool"): "b"}),
    (ops.maximum, {**ADD, ("bool", "bool"): "b"}),
]


@pytest.mark.parametrize("fn,table", TENSOR_TENSOR)
def test_tensor_tensor_promotion(fn, table):
    for (a, b), want in table.items():
        if want == "E":
            with pytest.raises(TypeError, match="Bool"):
                fn(sample(a), sample(b))
        else:
            out = fn(sample(a), sample(b))
            assert out.dtype is ms.dtype.from_numpy(SHORT[want]), (a, b, out.dtype, want)


def test_comparisons_and_logical_ops_always_give_bool():
    for a in DTYPES:
        for b in DTYPES:
            for fn in (ops.less, ops.equal, ops.logical_and):
                assert fn(sample(a), sample(b)).dtype is ms.bool_


# tensor (column dtype) with a Python scalar, scalar on either side (MindSpore gives the same
# dtype for both orders). Row: op, scalar.
SCALAR = """
add True:           E    i8   i16  i32  i64  u8   f16  f32  f64
add 2:              i64  i8   i16  i32  i64  u8   f16  f32  f64
add 2.5:            f32  f32  f32  f32  f32  f32  f16  f32  f64
Add 2:              i64  i8   i16  i32  i64  u8   f16  f32  f64
Add 2.5:            f32  f32  f32  f32  f32  f32  f16  f32  f64
sub True:           E    i8   i16  i32  i64  u8   f16  f32  f64
sub 2:              i64  i8   i16  i32  i64  u8   f16  f32  f64
sub 2.5:            f32  f32  f32  f32  f32  f32  f16  f32  f64
mul True:           b    i8   i16  i32  i64  u8   f16  f32  f64
mul 2:              i64  i8   i16  i32  i64  u8   f16  f32  f64
mul 2.5:            f32  f32  f32  f32  f32  f32  f16  f32  f64
div True:           f32  f32  f32  f32  f32  f32  f16  f32  f64
div 2:              f32  f32  f32  f32  f32  f32  f16  f32  f64
div 2.5:            f32  f32  f32  f32  f32  f32  f16  f32  f64
floor_divide True:  b    i8   i16  i32  i64  u8   f16  f32  f64
floor_divide 2:     i64  i8   i16  i32  i64  u8   f16  f32  f64
floor_divide 2.5:   f32  f32  f32  f32  f32  f32  f16  f32  f64
floor_mod True:     E    i8   i16  i32  i64  u8   f16  f32  f64
floor_mod 2:        i64  i8   i16  i32  i64  u8   f16  f32  f64
floor_mod 2.5:      f32  f32  f32  f32  f32  f32  f16  f32  f64
pow True:           E    i8   i16  i32  i64  u8   f16  f32  f64
pow 2:              i64  i8   i16  i32  i64  u8   f16  f32  f64
pow 2.5:            f32  f32  f32  f32  f32  f32  f16  f32  f64
maximum True:       b    i8   i16  i32  i64  u8   f16  f32  f64
maximum 2:          i64  i8   i16  i32  i64  u8   f16  f32  f64
maximum 2.5:        f32  f32  f32  f32  f32  f32  f16  f32  f64
t%s 2:              i64  i8   i16  i32  i64  u8   f16  f32  f64
t//s 2.5:           f32  f32  f32  f32  f32  f32  f16  f32  f64
t**s 2:             i64  i8   i16  i32  i64  u8   f16  f32  f64
t*s 2.5:            f32  f32  f32  f32  f32  f32  f16  f32  f64
t-s 2:              i64  i8   i16  i32  i64  u8   f16  f32  f64
t/s 2:              f32  f32  f32  f32  f32  f32  f16  f32  f64
"""

OPERATORS = {
    "t%s": lambda a, b: a % b, "t//s": lambda a, b: a // b, "t**s": lambda a, b: a ** b,
    "t*s": lambda a, b: a * b, "t-s": lambda a, b: a - b, "t/s": lambda a, b: a / b,
    "Add": ops.Add(),
}


def _scalar_rows():
    for line in SCALAR.strip().splitlines():
        head, cells = line.split(":")
        name, scalar = head.split()
        yield name, eval(scalar), cells.split()  # noqa: S307 - literal True/2/2.5


@pytest.mark.parametrize("name,scalar,cells", list(_scalar_rows()),
                         ids=[f"{n}-{s!r}" for n, s, _ in _scalar_rows()])
def test_tensor_scalar_promotion(name, scalar, cells):
    fn = OPERATORS.get(name) or getattr(ops, name)
    for dtype, want in zip(DTYPES, cells):
        for args in ((sample(dtype), scalar), (scalar, sample(dtype))):
            if want == "E":
                with pytest.raises(TypeError, match="Bool"):
                    fn(*args)
            else:
                out = fn(*args)
                assert out.dtype is ms.dtype.from_numpy(SHORT[want]), (name, dtype, out.dtype)


def test_scalar_values_follow_the_promoted_type():
    # a Python int never widens an integer tensor: it wraps like a C cast, as on MindSpore
    out = ops.add(Tensor(np.array([100], np.int8)), 300)
    assert out.dtype is ms.int8 and out.asnumpy()[0] == -112
    out = ops.add(Tensor(np.array([1.0, 2.0], np.float32)), 2 ** 40)
    assert out.dtype is ms.float32
    np.testing.assert_allclose(out.asnumpy(), [2 ** 40 + 1, 2 ** 40 + 2], rtol=1e-6)
    out = ops.Sub()(2, Tensor(np.arange(3, dtype=np.float16)))
    assert out.dtype is ms.float16 and out.asnumpy().tolist() == [2, 1, 0]
    out = ops.add(Tensor(np.array([1, 2], np.int32)), 0.5)
    assert out.dtype is ms.float32 and out.asnumpy().tolist() == [1.5, 2.5]
    # two Python numbers make a 0-d tensor of the promoted scalar type
    assert ops.add(2, 3).dtype is ms.int64 and ops.add(2, 3).asnumpy() == 5
    assert ops.add(2, 3.5).dtype is ms.float32


def test_select_promotes_its_branches():
    cond = Tensor(np.array([True, False, True]))
    f, i = Tensor(np.arange(3, dtype=np.float32)), Tensor(np.arange(3, dtype=np.int32))
    assert ops.select(cond, f, i).dtype is ms.float32
    assert ops.select(cond, f, 2).dtype is ms.float32
    assert ops.select(cond, 2, f).dtype is ms.float32
    out = ops.select(cond, 2.5, i)
    assert out.dtype is ms.float32 and out.asnumpy().tolist() == [2.5, 1.0, 2.5]
    assert ops.select(cond, 7, i).dtype is ms.int32


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_a_full_reduction_times_a_python_number_keeps_its_dtype(mode):
    """A full reduction's kernel may give a NumPy scalar, which NumPy 1 combines with a
    Python number in float64: the data must stay the Tensor's float32 (in a compiled graph,
    and in the eager backward of a PyNative gradient)."""
    ms.set_context(mode=mode)
    x = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    y = ms.jit(lambda x: x.sum() * 2)(x)
    assert y.dtype == ms.float32 and y.asnumpy().dtype == np.float32
    g = ms.grad(lambda x: ms.ops.sqrt(ms.ops.square(x).sum()))(x)
    assert g.dtype == ms.float32 and g.asnumpy().dtype == np.float32
    np.testing.assert_allclose(g.asnumpy(), x.asnumpy() / np.sqrt(14.0), rtol=1e-6)
