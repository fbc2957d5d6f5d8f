"""Tensor text (str / print / repr / ops.Print) must equal MindSpore 2.10's, character for
character.

How the golden table was produced: the expected strings in GOLDEN at the bottom of this file
were generated once from the real MindSpore 2.10 (with its NumPy 1.26) by running this very
file with MindSpore's interpreter:

    /work/msvenv/bin/python tests/common/test_tensor_format.py > /tmp/golden.txt

which builds every case below with NumPy, wraps it in ``mindspore.Tensor`` (or calls
``mindspore.ops.Print()`` in PYNATIVE_MODE with stdout captured), and prints the
``GOLDEN = {...}`` literal that was pasted below. The tests themselves need no MindSpore.
"""
from __future__ import annotations

import contextlib
import io
import math
import sys

import numpy as np

try:
    import pytest
except ImportError:  # MindSpore's interpreter, used only to regenerate GOLDEN, has no pytest
    pytest = None

NAN = float("nan")
NEG_NAN = math.copysign(NAN, -1.0)
INF = float("inf")

_FLOAT_VALUES = {
    "0": 0.0, "neg0": -0.0, "m1": -1.0, "3": 3.0, "2.5": 2.5, "1e-8": 1e-8, "1e10": 1e10,
    "nan": NAN, "negnan": NEG_NAN, "inf": INF, "minf": -INF, "0.1": 0.1, "third": 1 / 3,
    "123456789": 123456789.0, "65504": 65504.0, "1e-5": 1e-5, "1e-4": 1e-4, "1e16": 1e16,
    "1e15": 1e15, "pi": math.pi, "1e100": 1e100, "tiny": 6e-8,
}
_INT_VALUES = {"0": 0, "m1": -1, "3": 3, "2": 2, "max": None, "min": None}
_FLOAT_DTYPES = ("float16", "float32", "float64")
_INT_DTYPES = ("int8", "int16", "int32", "int64", "uint8")


def _scalar(value, dtype):
    with np.errstate(all="ignore"):
        return np.array(value, dtype=np.float64).astype(dtype)


def _int_scalar(key, dtype):
    info = np.iinfo(dtype)
    value = {"max": info.max, "min": info.min}.get(key, _INT_VALUES[key])
    return np.array(value).astype(dtype)


def _tensor_cases():
    cases = {}
    for dt in _FLOAT_DTYPES:
        for key, v in _FLOAT_VALUES.items():
            cases[f"scalar_{dt}_{key}"] = (lambda v=v, dt=dt: _scalar(v, dt))
    for dt in _INT_DTYPES:
        for key in _INT_VALUES:
            cases[f"scalar_{dt}_{key}"] = (lambda key=key, dt=dt: _int_scalar(key, dt))
    cases["scalar_bool_true"] = lambda: np.array(True)
    cases["scalar_bool_false"] = lambda: np.array(False)
    f32, i32 = np.float32, np.int32
    more = {
        "vec_int64": lambda: np.array([1, 2, 3]),
        "vec_int32_neg": lambda: np.array([-5, 3, 10], i32),
        "vec_int8_range": lambda: np.array([-128, 127], np.int8),
        "vec_uint8": lambda: np.array([255, 0, 7], np.uint8),
        "vec_int16": lambda: np.array([-300, 2, 32767], np.int16),
        "vec_float32": lambda: np.array([1.5, 2.0, -3.25], f32),
        "vec_float64": lambda: np.array([1.0, 2.0]),
        "vec_float16": lambda: np.array([1.0, 2.5, -0.1], np.float16),
        "vec_float32_mixed": lambda: np.array([0.1, 1e10, 1e-8], f32),
        "vec_float32_mixed2": lambda: np.array([1e-3, 1.0, 1000.0, 12345.678], f32),
        "vec_float32_ratio": lambda: np.array([0.5, 600.0, 1.25], f32),
        "vec_float32_1e8": lambda: np.array([1.0, 1.5e7, 2.0], f32),
        "vec_float16_big": lambda: np.array([1421.0, 726.0, 843.5], np.float16),
        "vec_float64_big": lambda: np.array([1e100, -1e-100]),
        "vec_float32_special": lambda: np.array([NAN, INF, -INF, 1.0], f32),
        "vec_float64_negnan": lambda: np.array([NEG_NAN, NAN]),
        "vec_float16_special": lambda: np.array([NAN, -INF, 1.5], np.float16),
        "vec_float32_neg0": lambda: np.array([-0.0, 0.0, 1.0], f32),
        "vec_float32_allnan": lambda: np.array([NAN, NAN], f32),
        "vec_float32_linspace": lambda: np.linspace(0, 1, 30).astype(f32),
        "vec_bool": lambda: np.array([True, False]),
        "vec_bool_true": lambda: np.array([True, True]),
        "vec_bool_one": lambda: np.array([False]),
        "vec_one": lambda: np.array([1]),
        "vec_7": lambda: np.arange(7),
        "vec_int64_100x1000": lambda: np.arange(100) * 1000,
        "vec_int32_30": lambda: np.arange(30).astype(i32),
        "vec_uint8_48": lambda: np.arange(48).astype(np.uint8),
        "vec_float32_60": lambda: np.arange(60).astype(f32),
        "vec_float64_13": lambda: np.arange(13).astype(np.float64),
        "vec_float16_40": lambda: np.arange(40).astype(np.float16),
        "vec_bool_40": lambda: np.arange(40) % 2 == 0,
        "vec_bool_24": lambda: np.ones(24, np.bool_),
        "vec_int64_999": lambda: np.arange(999),
        "vec_int64_1000": lambda: np.arange(1000),
        "vec_int64_1001": lambda: np.arange(1001),
        "vec_int32_2000": lambda: np.arange(2000).astype(i32),
        "vec_float32_2000": lambda: (np.arange(2000) / 7).astype(f32),
        "vec_float64_2000_big": lambda: np.arange(2000) * 1e9,
        "vec_bool_2000": lambda: np.arange(2000) % 2 == 0,
        "vec_int64_hidden_wide": lambda: np.concatenate([np.arange(1000), [123456789],
                                                         np.arange(1000)]),
        "mat_int32": lambda: np.array([[1, 2], [3, 4]], i32),
        "mat_int64_1x1": lambda: np.array([[1]]),
        "mat_float32": lambda: np.array([[1.5, 2.0], [-3.25, 1e-8]], f32),
        "mat_float32_plain": lambda: np.array([[1.5, 2.0], [3.0, 4.0]], f32),
        "mat_float64_mixed": lambda: np.array([[844.0, 75.56, -1427.0], [0.001, 2.0, 3.0]]),
        "mat_bool": lambda: np.array([[True], [False]]),
        "mat_bool_true": lambda: np.array([[True, True]]),
        "mat_2x6": lambda: np.arange(12).reshape(2, 6),
        "mat_6x2": lambda: np.arange(12).reshape(6, 2),
        "mat_2x7": lambda: np.arange(14).reshape(2, 7),
        "mat_7x2": lambda: np.arange(14).reshape(7, 2),
        "mat_1x7": lambda: np.arange(7).reshape(1, 7),
        "mat_7x1": lambda: np.arange(7).reshape(7, 1),
        "mat_1x8_hidden_wide": lambda: np.array([[1, 2, 3, 99999, 5, 6, 7, 8]]),
        "mat_int32_neg_2x8": lambda: np.arange(16).reshape(2, 8).astype(i32) * -1,
        "mat_3x40": lambda: np.arange(120).reshape(3, 40),
        "mat_float32_2x30": lambda: np.arange(60).reshape(2, 30).astype(f32),
        "mat_int32_2x600": lambda: np.arange(1200).reshape(2, 600).astype(i32),
        "mat_int32_600x2": lambda: np.arange(1200).reshape(600, 2).astype(i32),
        "mat_float32_100x100": lambda: np.arange(10000).reshape(100, 100).astype(f32),
        "mat_float16_8x8": lambda: (np.arange(64).reshape(8, 8) / 3).astype(np.float16),
        "t3_int32": lambda: np.arange(24).reshape(2, 3, 4).astype(i32),
        "t3_float32": lambda: (np.arange(12).reshape(2, 3, 2) - 5.5).astype(f32),
        "t3_bool": lambda: np.arange(8).reshape(2, 2, 2) % 3 == 0,
        "t3_int64_2x2x30": lambda: np.arange(120).reshape(2, 2, 30),
        "t3_int32_2x3x200": lambda: np.arange(1200).reshape(2, 3, 200).astype(i32),
        "t3_float16_8x8x20": lambda: np.arange(1280).reshape(8, 8, 20).astype(np.float16),
        "t4_int32": lambda: np.arange(16).reshape(2, 2, 2, 2).astype(i32),
        "t4_int8_6x6x6x6": lambda: np.arange(1296).reshape(6, 6, 6, 6).astype(np.int8),
        "t5_float64_ones": lambda: np.ones((2, 1, 2, 1, 2)),
        "empty_float32": lambda: np.zeros((0,), f32),
        "empty_int32": lambda: np.zeros((0,), i32),
        "empty_bool": lambda: np.zeros((0,), np.bool_),
        "empty_int32_2x0": lambda: np.zeros((2, 0), i32),
        "empty_float32_0x3": lambda: np.zeros((0, 3), f32),
        "empty_float64_1x0": lambda: np.zeros((1, 0)),
        "empty_float32_3x0x2": lambda: np.zeros((3, 0, 2), f32),
    }
    cases.update(more)
    return cases


TENSOR_CASES = _tensor_cases()

# Tensors built from Python values (only conversions both define the same way).
PY_VALUE_CASES = {
    "int": (3, None), "neg_int": (-1, None), "zero": (0, None), "float": (2.5, None),
    "bool": (True, None), "float16_2.5": (2.5, "float16"), "float16_0.1": (0.1, "float16"),
    "float16_minf": (-INF, "float16"), "float32_1e-8": (1e-8, "float32"),
    "float32_1e10": (1e10, "float32"), "float32_nan": (NAN, "float32"),
    "float64_1e10": (1e10, "float64"), "float64_inf": (INF, "float64"),
    "int32_2.5": (2.5, "int32"), "uint8_3": (3, "uint8"), "int64_1e10": (1e10, "int64"),
    "int8_m1": (-1, "int8"), "int16_3": (3, "int16"), "bool_1": (1, "bool_"),
    "bool_0": (0, "bool_"), "list_int": ([1, 2, 3], None), "list_float": ([1, 2.5], None),
    "list_bool": ([[True], [False]], None), "list_float64": ([0.5, 1e-8], "float64"),
}


def _make(ms, name):
    value, dtype = PY_VALUE_CASES[name]
    return ms.Tensor(value, getattr(ms, dtype)) if dtype else ms.Tensor(value)


# ops.Print() arguments; NumPy arrays stand for tensors.
PRINT_CASES = {
    "string": lambda: ["hello"],
    "strings_and_tensor": lambda: ["a", np.array([1, 2, 3]), "b"],
    "tensor_scalar_float": lambda: [np.array(3.5, np.float32)],
    "tensor_scalar_float16": lambda: [np.array(0.1, np.float16)],
    "tensor_scalar_uint8": lambda: [np.array(255, np.uint8)],
    "tensor_scalar_bool": lambda: [np.array(True)],
    "tensor_matrix": lambda: [np.array([[1.5, 2.0], [3.0, 4.0]], np.float32)],
    "tensor_int_matrix": lambda: [np.ones((2, 1), np.int32), np.ones((2, 2), np.int32)],
    "tensor_bool_matrix": lambda: [np.array([[True, True]])],
    "tensor_empty": lambda: [np.zeros((0,), np.float32)],
    "tensor_large_1d": lambda: [np.arange(2000).astype(np.int32)],
    "tensor_large_2d": lambda: [np.arange(10000).reshape(100, 100).astype(np.float32)],
    "tuple_of_tensors": lambda: [(np.array(1), np.array([2, 3]))],
    "tuple_one": lambda: [(np.array(1.5, np.float32),)],
    "tuple_mixed": lambda: [("x", 1.5, np.array([True]))],
    "tuple_nested": lambda: [(1, (2, "s"))],
    "tuple_empty": lambda: [()],
    "list": lambda: [[1, 2]],
    "python_scalars": lambda: [1, 2.5, True, 3.0, 1e10, 0.1, -0.0, 1e-08, 1 / 3],
    "multi": lambda: ["multi", "args", 3],
    "none": lambda: [None],
}

DTYPE_NAMES = ("bool_", "int8", "int16", "int32", "int64", "uint8", "float16", "float32",
               "float64")


# --------------------------------------------------------------------------- regenerate
def _wrap_for_mindspore(ms, v):
    if isinstance(v, np.ndarray):
        return ms.Tensor(v)
    if isinstance(v, tuple):
        return tuple(_wrap_for_mindspore(ms, e) for e in v)
    if isinstance(v, list):
        return [_wrap_for_mindspore(ms, e) for e in v]
    return v


def _literal(s: str, indent: str) -> str:
    """``s`` as a Python literal, split into pieces that keep lines within 100 columns."""
    pieces = []
    for line in s.splitlines(keepends=True):
        while len(line) > 60:
            pieces.append(line[:60])
            line = line[60:]
        pieces.append(line)
    if len(pieces) <= 1:
        return repr(s)
    return "(" + ("\n" + indent + " ").join(repr(p) for p in pieces) + ")"


def _emit_pair(out: list, name: str, t) -> None:
    out.append(f"        {name!r}: (")
    out.append(f"            {_literal(str(t), ' ' * 12)},")
    out.append(f"            {_literal(repr(t), ' ' * 12)}),")


def _regenerate() -> None:  # pragma: no cover - runs under MindSpore's interpreter
    import mindspore as ms
    from mindspore import ops
    ms.set_context(mode=ms.PYNATIVE_MODE)
    out = ["GOLDEN = {", "    'tensor': {"]
    for name, build in TENSOR_CASES.items():
        _emit_pair(out, name, ms.Tensor(build()))
    out.append("    },")
    out.append("    'python_value': {")
    for name in PY_VALUE_CASES:
        _emit_pair(out, name, _make(ms, name))
    out.append("    },")
    out.append("    'print': {")
    for name, build in PRINT_CASES.items():
        args = _wrap_for_mindspore(ms, build())
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            ops.Print()(*args)
        out.append(f"        {name!r}:")
        out.append(f"            {_literal(buf.getvalue(), ' ' * 12)},")
    out.append("    },")
    out.append("    'dtype': {")
    for name in DTYPE_NAMES:
        t = getattr(ms, name)
        out.append(f"        {name!r}: ({str(t)!r}, {repr(t)!r}),")
    out.append("    },")
    out.append("}")
    sys.stdout.write("\n".join(out) + "\n")


# -------------------------------------------------------------------------------- tests
def _params(names):
    return pytest.mark.parametrize("name", list(names)) if pytest else (lambda f: f)


@_params(TENSOR_CASES)
def test_tensor_str_and_repr(name):
    import graphkiln as gk
    expected_str, expected_repr = GOLDEN["tensor"][name]
    t = gk.Tensor(TENSOR_CASES[name]())
    assert str(t) == expected_str
    assert repr(t) == expected_repr


@_params(TENSOR_CASES)
def test_format_functions(name):
    from graphkiln.common import dtype as mstype
    from graphkiln.common.tensor_format import tensor_repr, tensor_str
    a = TENSOR_CASES[name]()
    dt = mstype.from_numpy(a.dtype)
    expected_str, expected_repr = GOLDEN["tensor"][name]
    assert tensor_str(a, dt) == expected_str
    assert tensor_repr(a, dt) == expected_repr


@_params(PY_VALUE_CASES)
def test_tensor_from_python_value(name):
    import graphkiln as gk
    t = _make(gk, name)
    assert (str(t), repr(t)) == GOLDEN["python_value"][name]


def test_print_writes_str(capsys):
    import graphkiln as gk
    t = gk.Tensor(np.array([[1.5, 2.0], [3.0, 4.0]], np.float32))
    print(t)
    assert capsys.readouterr().out == GOLDEN["tensor"]["mat_float32_plain"][0] + "\n"


@_params(PRINT_CASES)
def test_print_values(name, capsys):
    from graphkiln.ops.defs.print_format import print_values
    print_values(PRINT_CASES[name]())
    assert capsys.readouterr().out == GOLDEN["print"][name]


def _wrap_for_graphkiln(gk, v):
    if isinstance(v, np.ndarray):
        return gk.Tensor(v)
    if isinstance(v, tuple):
        return tuple(_wrap_for_graphkiln(gk, e) for e in v)
    if isinstance(v, list):
        return [_wrap_for_graphkiln(gk, e) for e in v]
    return v


@_params([n for n in PRINT_CASES if n != "none"])
def test_ops_print_pynative(name, capsys):
    import graphkiln as gk
    from graphkiln import ops
    gk.set_context(mode=gk.PYNATIVE_MODE)
    ops.Print()(*_wrap_for_graphkiln(gk, PRINT_CASES[name]()))
    assert capsys.readouterr().out == GOLDEN["print"][name]


@_params(DTYPE_NAMES)
def test_dtype_str_and_repr(name, capsys):
    import graphkiln as gk
    t = getattr(gk, name)
    assert (str(t), repr(t)) == GOLDEN["dtype"][name]
    print(t)
    assert capsys.readouterr().out == GOLDEN["dtype"][name][0] + "\n"


if __name__ == "__main__":
    _regenerate()
    sys.exit(0)

# Generated from MindSpore 2.10 by `/work/msvenv/bin/python tests/common/test_tensor_format.py`;
# do not edit by hand.
GOLDEN = {
    'tensor': {
        'scalar_float16_0': (
            '0.0',
            'Tensor(shape=[], dtype=Float16, value= 0)'),
        'scalar_float16_neg0': (
            '-0.0',
            'Tensor(shape=[], dtype=Float16, value= -0)'),
        'scalar_float16_m1': (
            '-1.0',
            'Tensor(shape=[], dtype=Float16, value= -1)'),
        'scalar_float16_3': (
            '3.0',
            'Tensor(shape=[], dtype=Float16, value= 3)'),
        'scalar_float16_2.5': (
            '2.5',
            'Tensor(shape=[], dtype=Float16, value= 2.5)'),
        'scalar_float16_1e-8': (
            '0.0',
            'Tensor(shape=[], dtype=Float16, value= 0)'),
        'scalar_float16_1e10': (
            'inf',
            'Tensor(shape=[], dtype=Float16, value= inf)'),
        'scalar_float16_nan': (
            'nan',
            'Tensor(shape=[], dtype=Float16, value= nan)'),
        'scalar_float16_negnan': (
            'nan',
            'Tensor(shape=[], dtype=Float16, value= -nan)'),
        'scalar_float16_inf': (
            'inf',
            'Tensor(shape=[], dtype=Float16, value= inf)'),
        'scalar_float16_minf': (
            '-inf',
            'Tensor(shape=[], dtype=Float16, value= -inf)'),
        'scalar_float16_0.1': (
            '0.1',
            'Tensor(shape=[], dtype=Float16, value= 0.0999756)'),
        'scalar_float16_third': (
            '0.3333',
            'Tensor(shape=[], dtype=Float16, value= 0.333252)'),
        'scalar_float16_123456789': (
            'inf',
            'Tensor(shape=[], dtype=Float16, value= inf)'),
        'scalar_float16_65504': (
            '65500.0',
            'Tensor(shape=[], dtype=Float16, value= 65504)'),
        'scalar_float16_1e-5': (
            '1e-05',
            'Tensor(shape=[], dtype=Float16, value= 1.00136e-05)'),
        'scalar_float16_1e-4': (
            '0.0001',
            'Tensor(shape=[], dtype=Float16, value= 0.000100017)'),
        'scalar_float16_1e16': (
            'inf',
            'Tensor(shape=[], dtype=Float16, value= inf)'),
        'scalar_float16_1e15': (
            'inf',
            'Tensor(shape=[], dtype=Float16, value= inf)'),
        'scalar_float16_pi': (
            '3.14',
            'Tensor(shape=[], dtype=Float16, value= 3.14062)'),
        'scalar_float16_1e100': (
            'inf',
            'Tensor(shape=[], dtype=Float16, value= inf)'),
        'scalar_float16_tiny': (
            '6e-08',
            'Tensor(shape=[], dtype=Float16, value= 5.96046e-08)'),
        'scalar_float32_0': (
            '0.0',
            'Tensor(shape=[], dtype=Float32, value= 0)'),
        'scalar_float32_neg0': (
            '-0.0',
            'Tensor(shape=[], dtype=Float32, value= -0)'),
        'scalar_float32_m1': (
            '-1.0',
            'Tensor(shape=[], dtype=Float32, value= -1)'),
        'scalar_float32_3': (
            '3.0',
            'Tensor(shape=[], dtype=Float32, value= 3)'),
        'scalar_float32_2.5': (
            '2.5',
            'Tensor(shape=[], dtype=Float32, value= 2.5)'),
        'scalar_float32_1e-8': (
            '1e-08',
            'Tensor(shape=[], dtype=Float32, value= 1e-08)'),
        'scalar_float32_1e10': (
            '10000000000.0',
            'Tensor(shape=[], dtype=Float32, value= 1e+10)'),
        'scalar_float32_nan': (
            'nan',
            'Tensor(shape=[], dtype=Float32, value= nan)'),
        'scalar_float32_negnan': (
            'nan',
            'Tensor(shape=[], dtype=Float32, value= -nan)'),
        'scalar_float32_inf': (
            'inf',
            'Tensor(shape=[], dtype=Float32, value= inf)'),
        'scalar_float32_minf': (
            '-inf',
            'Tensor(shape=[], dtype=Float32, value= -inf)'),
        'scalar_float32_0.1': (
            '0.1',
            'Tensor(shape=[], dtype=Float32, value= 0.1)'),
        'scalar_float32_third': (
            '0.33333334',
            'Tensor(shape=[], dtype=Float32, value= 0.333333)'),
        'scalar_float32_123456789': (
            '123456790.0',
            'Tensor(shape=[], dtype=Float32, value= 1.23457e+08)'),
        'scalar_float32_65504': (
            '65504.0',
            'Tensor(shape=[], dtype=Float32, value= 65504)'),
        'scalar_float32_1e-5': (
            '1e-05',
            'Tensor(shape=[], dtype=Float32, value= 1e-05)'),
        'scalar_float32_1e-4': (
            '1e-04',
            'Tensor(shape=[], dtype=Float32, value= 0.0001)'),
        'scalar_float32_1e16': (
            '1e+16',
            'Tensor(shape=[], dtype=Float32, value= 1e+16)'),
        'scalar_float32_1e15': (
            '1000000000000000.0',
            'Tensor(shape=[], dtype=Float32, value= 1e+15)'),
        'scalar_float32_pi': (
            '3.1415927',
            'Tensor(shape=[], dtype=Float32, value= 3.14159)'),
        'scalar_float32_1e100': (
            'inf',
            'Tensor(shape=[], dtype=Float32, value= inf)'),
        'scalar_float32_tiny': (
            '6e-08',
            'Tensor(shape=[], dtype=Float32, value= 6e-08)'),
        'scalar_float64_0': (
            '0.0',
            'Tensor(shape=[], dtype=Float64, value= 0)'),
        'scalar_float64_neg0': (
            '-0.0',
            'Tensor(shape=[], dtype=Float64, value= -0)'),
        'scalar_float64_m1': (
            '-1.0',
            'Tensor(shape=[], dtype=Float64, value= -1)'),
        'scalar_float64_3': (
            '3.0',
            'Tensor(shape=[], dtype=Float64, value= 3)'),
        'scalar_float64_2.5': (
            '2.5',
            'Tensor(shape=[], dtype=Float64, value= 2.5)'),
        'scalar_float64_1e-8': (
            '1e-08',
            'Tensor(shape=[], dtype=Float64, value= 1e-08)'),
        'scalar_float64_1e10': (
            '10000000000.0',
            'Tensor(shape=[], dtype=Float64, value= 1e+10)'),
        'scalar_float64_nan': (
            'nan',
            'Tensor(shape=[], dtype=Float64, value= nan)'),
        'scalar_float64_negnan': (
            'nan',
            'Tensor(shape=[], dtype=Float64, value= -nan)'),
        'scalar_float64_inf': (
            'inf',
            'Tensor(shape=[], dtype=Float64, value= inf)'),
        'scalar_float64_minf': (
            '-inf',
            'Tensor(shape=[], dtype=Float64, value= -inf)'),
        'scalar_float64_0.1': (
            '0.1',
            'Tensor(shape=[], dtype=Float64, value= 0.1)'),
        'scalar_float64_third': (
            '0.3333333333333333',
            'Tensor(shape=[], dtype=Float64, value= 0.333333)'),
        'scalar_float64_123456789': (
            '123456789.0',
            'Tensor(shape=[], dtype=Float64, value= 1.23457e+08)'),
        'scalar_float64_65504': (
            '65504.0',
            'Tensor(shape=[], dtype=Float64, value= 65504)'),
        'scalar_float64_1e-5': (
            '1e-05',
            'Tensor(shape=[], dtype=Float64, value= 1e-05)'),
        'scalar_float64_1e-4': (
            '0.0001',
            'Tensor(shape=[], dtype=Float64, value= 0.0001)'),
        'scalar_float64_1e16': (
            '1e+16',
            'Tensor(shape=[], dtype=Float64, value= 1e+16)'),
        'scalar_float64_1e15': (
            '1000000000000000.0',
            'Tensor(shape=[], dtype=Float64, value= 1e+15)'),
        'scalar_float64_pi': (
            '3.141592653589793',
            'Tensor(shape=[], dtype=Float64, value= 3.14159)'),
        'scalar_float64_1e100': (
            '1e+100',
            'Tensor(shape=[], dtype=Float64, value= 1e+100)'),
        'scalar_float64_tiny': (
            '6e-08',
            'Tensor(shape=[], dtype=Float64, value= 6e-08)'),
        'scalar_int8_0': (
            '0',
            'Tensor(shape=[], dtype=Int8, value= 0)'),
        'scalar_int8_m1': (
            '-1',
            'Tensor(shape=[], dtype=Int8, value= -1)'),
        'scalar_int8_3': (
            '3',
            'Tensor(shape=[], dtype=Int8, value= 3)'),
        'scalar_int8_2': (
            '2',
            'Tensor(shape=[], dtype=Int8, value= 2)'),
        'scalar_int8_max': (
            '127',
            'Tensor(shape=[], dtype=Int8, value= 127)'),
        'scalar_int8_min': (
            '-128',
            'Tensor(shape=[], dtype=Int8, value= -128)'),
        'scalar_int16_0': (
            '0',
            'Tensor(shape=[], dtype=Int16, value= 0)'),
        'scalar_int16_m1': (
            '-1',
            'Tensor(shape=[], dtype=Int16, value= -1)'),
        'scalar_int16_3': (
            '3',
            'Tensor(shape=[], dtype=Int16, value= 3)'),
        'scalar_int16_2': (
            '2',
            'Tensor(shape=[], dtype=Int16, value= 2)'),
        'scalar_int16_max': (
            '32767',
            'Tensor(shape=[], dtype=Int16, value= 32767)'),
        'scalar_int16_min': (
            '-32768',
            'Tensor(shape=[], dtype=Int16, value= -32768)'),
        'scalar_int32_0': (
            '0',
            'Tensor(shape=[], dtype=Int32, value= 0)'),
        'scalar_int32_m1': (
            '-1',
            'Tensor(shape=[], dtype=Int32, value= -1)'),
        'scalar_int32_3': (
            '3',
            'Tensor(shape=[], dtype=Int32, value= 3)'),
        'scalar_int32_2': (
            '2',
            'Tensor(shape=[], dtype=Int32, value= 2)'),
        'scalar_int32_max': (
            '2147483647',
            'Tensor(shape=[], dtype=Int32, value= 2147483647)'),
        'scalar_int32_min': (
            '-2147483648',
            'Tensor(shape=[], dtype=Int32, value= -2147483648)'),
        'scalar_int64_0': (
            '0',
            'Tensor(shape=[], dtype=Int64, value= 0)'),
        'scalar_int64_m1': (
            '-1',
            'Tensor(shape=[], dtype=Int64, value= -1)'),
        'scalar_int64_3': (
            '3',
            'Tensor(shape=[], dtype=Int64, value= 3)'),
        'scalar_int64_2': (
            '2',
            'Tensor(shape=[], dtype=Int64, value= 2)'),
        'scalar_int64_max': (
            '9223372036854775807',
            'Tensor(shape=[], dtype=Int64, value= 9223372036854775807)'),
        'scalar_int64_min': (
            '-9223372036854775808',
            'Tensor(shape=[], dtype=Int64, value= -9223372036854775808)'),
        'scalar_uint8_0': (
            '0',
            'Tensor(shape=[], dtype=UInt8, value= 0)'),
        'scalar_uint8_m1': (
            '255',
            'Tensor(shape=[], dtype=UInt8, value= 255)'),
        'scalar_uint8_3': (
            '3',
            'Tensor(shape=[], dtype=UInt8, value= 3)'),
        'scalar_uint8_2': (
            '2',
            'Tensor(shape=[], dtype=UInt8, value= 2)'),
        'scalar_uint8_max': (
            '255',
            'Tensor(shape=[], dtype=UInt8, value= 255)'),
        'scalar_uint8_min': (
            '0',
            'Tensor(shape=[], dtype=UInt8, value= 0)'),
        'scalar_bool_true': (
            'True',
            'Tensor(shape=[], dtype=Bool, value= True)'),
        'scalar_bool_false': (
            'False',
            'Tensor(shape=[], dtype=Bool, value= False)'),
        'vec_int64': (
            '[1 2 3]',
            'Tensor(shape=[3], dtype=Int64, value= [1, 2, 3])'),
        'vec_int32_neg': (
            '[-5  3 10]',
            'Tensor(shape=[3], dtype=Int32, value= [-5,  3, 10])'),
        'vec_int8_range': (
            '[-128  127]',
            'Tensor(shape=[2], dtype=Int8, value= [-128,  127])'),
        'vec_uint8': (
            '[255   0   7]',
            'Tensor(shape=[3], dtype=UInt8, value= [255,   0,   7])'),
        'vec_int16': (
            '[ -300     2 32767]',
            'Tensor(shape=[3], dtype=Int16, value= [ -300,     2, 32767])'),
        'vec_float32': (
            '[ 1.5   2.   -3.25]',
            ('Tensor(shape=[3], dtype=Float32, value= [ 1.50000000e+00,  2'
             '.00000000e+00, -3.25000000e+00])')),
        'vec_float64': (
            '[1. 2.]',
            ('Tensor(shape=[2], dtype=Float64, value= [ 1.00000000e+00,  2'
             '.00000000e+00])')),
        'vec_float16': (
            '[ 1.   2.5 -0.1]',
            ('Tensor(shape=[3], dtype=Float16, value= [ 1.0000e+00,  2.500'
             '0e+00, -9.9976e-02])')),
        'vec_float32_mixed': (
            '[1.e-01 1.e+10 1.e-08]',
            ('Tensor(shape=[3], dtype=Float32, value= [ 1.00000001e-01,  1'
             '.00000000e+10,  9.99999994e-09])')),
        'vec_float32_mixed2': (
            '[1.0000000e-03 1.0000000e+00 1.0000000e+03 1.2345678e+04]',
            ('Tensor(shape=[4], dtype=Float32, value= [ 1.00000005e-03,  1'
             '.00000000e+00,  1.00000000e+03,  1.23456777e+04])')),
        'vec_float32_ratio': (
            '[5.00e-01 6.00e+02 1.25e+00]',
            ('Tensor(shape=[3], dtype=Float32, value= [ 5.00000000e-01,  6'
             '.00000000e+02,  1.25000000e+00])')),
        'vec_float32_1e8': (
            '[1.0e+00 1.5e+07 2.0e+00]',
            ('Tensor(shape=[3], dtype=Float32, value= [ 1.00000000e+00,  1'
             '.50000000e+07,  2.00000000e+00])')),
        'vec_float16_big': (
            '[1421.   726.   843.5]',
            ('Tensor(shape=[3], dtype=Float16, value= [ 1.4210e+03,  7.260'
             '0e+02,  8.4350e+02])')),
        'vec_float64_big': (
            '[ 1.e+100 -1.e-100]',
            ('Tensor(shape=[2], dtype=Float64, value= [1.00000000e+100, -1'
             '.00000000e-100])')),
        'vec_float32_special': (
            '[ nan  inf -inf   1.]',
            ('Tensor(shape=[4], dtype=Float32, value= [            nan,   '
             '          inf,            -inf,  1.00000000e+00])')),
        'vec_float64_negnan': (
            '[nan nan]',
            ('Tensor(shape=[2], dtype=Float64, value= [           -nan,   '
             '          nan])')),
        'vec_float16_special': (
            '[ nan -inf  1.5]',
            ('Tensor(shape=[3], dtype=Float16, value= [        nan,       '
             ' -inf,  1.5000e+00])')),
        'vec_float32_neg0': (
            '[-0.  0.  1.]',
            ('Tensor(shape=[3], dtype=Float32, value= [-0.00000000e+00,  0'
             '.00000000e+00,  1.00000000e+00])')),
        'vec_float32_allnan': (
            '[nan nan]',
            ('Tensor(shape=[2], dtype=Float32, value= [            nan,   '
             '          nan])')),
        'vec_float32_linspace': (
            ('[0.         0.03448276 0.06896552 0.10344828 0.13793103 0.17'
             '24138\n'
             ' 0.20689656 0.2413793  0.27586207 0.31034482 0.3448276  0.37'
             '931034\n'
             ' 0.41379312 0.44827586 0.4827586  0.51724136 0.55172414 0.58'
             '62069\n'
             ' 0.62068963 0.6551724  0.6896552  0.7241379  0.7586207  0.79'
             '310346\n'
             ' 0.82758623 0.86206895 0.8965517  0.9310345  0.9655172  1.  '
             '      ]'),
            ('Tensor(shape=[30], dtype=Float32, value= [ 0.00000000e+00,  '
             '3.44827585e-02,  6.89655170e-02,  1.03448279e-01,  1.3793103'
             '4e-01,  1.72413796e-01,  2.06896558e-01,  2.41379306e-01,  2'
             '.75862068e-01,  3.10344815e-01,  3.44827592e-01,  3.79310340'
             'e-01, \n'
             '  4.13793117e-01,  4.48275864e-01,  4.82758611e-01,  5.17241'
             '359e-01,  5.51724136e-01,  5.86206913e-01,  6.20689631e-01, '
             ' 6.55172408e-01,  6.89655185e-01,  7.24137902e-01,  7.586206'
             '79e-01,  7.93103456e-01, \n'
             '  8.27586234e-01,  8.62068951e-01,  8.96551728e-01,  9.31034'
             '505e-01,  9.65517223e-01,  1.00000000e+00])')),
        'vec_bool': (
            '[ True False]',
            'Tensor(shape=[2], dtype=Bool, value= [ True, False])'),
        'vec_bool_true': (
            '[ True  True]',
            'Tensor(shape=[2], dtype=Bool, value= [ True,  True])'),
        'vec_bool_one': (
            '[False]',
            'Tensor(shape=[1], dtype=Bool, value= [False])'),
        'vec_one': (
            '[1]',
            'Tensor(shape=[1], dtype=Int64, value= [1])'),
        'vec_7': (
            '[0 1 2 3 4 5 6]',
            'Tensor(shape=[7], dtype=Int64, value= [0, 1, 2, 3, 4, 5, 6])'),
        'vec_int64_100x1000': (
            ('[    0  1000  2000  3000  4000  5000  6000  7000  8000  9000'
             ' 10000 11000\n'
             ' 12000 13000 14000 15000 16000 17000 18000 19000 20000 21000'
             ' 22000 23000\n'
             ' 24000 25000 26000 27000 28000 29000 30000 31000 32000 33000'
             ' 34000 35000\n'
             ' 36000 37000 38000 39000 40000 41000 42000 43000 44000 45000'
             ' 46000 47000\n'
             ' 48000 49000 50000 51000 52000 53000 54000 55000 56000 57000'
             ' 58000 59000\n'
             ' 60000 61000 62000 63000 64000 65000 66000 67000 68000 69000'
             ' 70000 71000\n'
             ' 72000 73000 74000 75000 76000 77000 78000 79000 80000 81000'
             ' 82000 83000\n'
             ' 84000 85000 86000 87000 88000 89000 90000 91000 92000 93000'
             ' 94000 95000\n'
             ' 96000 97000 98000 99000]'),
            ('Tensor(shape=[100], dtype=Int64, value= [    0,  1000,  2000'
             ',  3000,  4000,  5000,  6000,  7000,  8000,  9000, 10000, 11'
             '000, 12000, 13000, 14000, 15000, 16000, 17000, 18000, 19000,'
             ' 20000, 21000, 22000, 23000, \n'
             ' 24000, 25000, 26000, 27000, 28000, 29000, 30000, 31000, 320'
             '00, 33000, 34000, 35000, 36000, 37000, 38000, 39000, 40000, '
             '41000, 42000, 43000, 44000, 45000, 46000, 47000, \n'
             ' 48000, 49000, 50000, 51000, 52000, 53000, 54000, 55000, 560'
             '00, 57000, 58000, 59000, 60000, 61000, 62000, 63000, 64000, '
             '65000, 66000, 67000, 68000, 69000, 70000, 71000, \n'
             ' 72000, 73000, 74000, 75000, 76000, 77000, 78000, 79000, 800'
             '00, 81000, 82000, 83000, 84000, 85000, 86000, 87000, 88000, '
             '89000, 90000, 91000, 92000, 93000, 94000, 95000, \n'
             ' 96000, 97000, 98000, 99000])')),
        'vec_int32_30': (
            ('[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19'
             ' 20 21 22 23\n'
             ' 24 25 26 27 28 29]'),
            ('Tensor(shape=[30], dtype=Int32, value= [ 0,  1,  2,  3,  4, '
             ' 5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, '
             '20, 21, 22, 23, \n'
             ' 24, 25, 26, 27, 28, 29])')),
        'vec_uint8_48': (
            ('[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19'
             ' 20 21 22 23\n'
             ' 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43'
             ' 44 45 46 47]'),
            ('Tensor(shape=[48], dtype=UInt8, value= [ 0,  1,  2,  3,  4, '
             ' 5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, '
             '20, 21, 22, 23, \n'
             ' 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38,'
             ' 39, 40, 41, 42, 43, 44, 45, 46, 47\n'
             ' ])')),
        'vec_float32_60': (
            ('[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14.'
             ' 15. 16. 17.\n'
             ' 18. 19. 20. 21. 22. 23. 24. 25. 26. 27. 28. 29. 30. 31. 32.'
             ' 33. 34. 35.\n'
             ' 36. 37. 38. 39. 40. 41. 42. 43. 44. 45. 46. 47. 48. 49. 50.'
             ' 51. 52. 53.\n'
             ' 54. 55. 56. 57. 58. 59.]'),
            ('Tensor(shape=[60], dtype=Float32, value= [ 0.00000000e+00,  '
             '1.00000000e+00,  2.00000000e+00,  3.00000000e+00,  4.0000000'
             '0e+00,  5.00000000e+00,  6.00000000e+00,  7.00000000e+00,  8'
             '.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.10000000'
             'e+01, \n'
             '  1.20000000e+01,  1.30000000e+01,  1.40000000e+01,  1.50000'
             '000e+01,  1.60000000e+01,  1.70000000e+01,  1.80000000e+01, '
             ' 1.90000000e+01,  2.00000000e+01,  2.10000000e+01,  2.200000'
             '00e+01,  2.30000000e+01, \n'
             '  2.40000000e+01,  2.50000000e+01,  2.60000000e+01,  2.70000'
             '000e+01,  2.80000000e+01,  2.90000000e+01,  3.00000000e+01, '
             ' 3.10000000e+01,  3.20000000e+01,  3.30000000e+01,  3.400000'
             '00e+01,  3.50000000e+01, \n'
             '  3.60000000e+01,  3.70000000e+01,  3.80000000e+01,  3.90000'
             '000e+01,  4.00000000e+01,  4.10000000e+01,  4.20000000e+01, '
             ' 4.30000000e+01,  4.40000000e+01,  4.50000000e+01,  4.600000'
             '00e+01,  4.70000000e+01, \n'
             '  4.80000000e+01,  4.90000000e+01,  5.00000000e+01,  5.10000'
             '000e+01,  5.20000000e+01,  5.30000000e+01,  5.40000000e+01, '
             ' 5.50000000e+01,  5.60000000e+01,  5.70000000e+01,  5.800000'
             '00e+01,  5.90000000e+01\n'
             ' ])')),
        'vec_float64_13': (
            '[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12.]',
            ('Tensor(shape=[13], dtype=Float64, value= [ 0.00000000e+00,  '
             '1.00000000e+00,  2.00000000e+00,  3.00000000e+00,  4.0000000'
             '0e+00,  5.00000000e+00,  6.00000000e+00,  7.00000000e+00,  8'
             '.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.10000000'
             'e+01, \n'
             '  1.20000000e+01])')),
        'vec_float16_40': (
            ('[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14.'
             ' 15. 16. 17.\n'
             ' 18. 19. 20. 21. 22. 23. 24. 25. 26. 27. 28. 29. 30. 31. 32.'
             ' 33. 34. 35.\n'
             ' 36. 37. 38. 39.]'),
            ('Tensor(shape=[40], dtype=Float16, value= [ 0.0000e+00,  1.00'
             '00e+00,  2.0000e+00,  3.0000e+00,  4.0000e+00,  5.0000e+00, '
             ' 6.0000e+00,  7.0000e+00,  8.0000e+00,  9.0000e+00,  1.0000e'
             '+01,  1.1000e+01, \n'
             '  1.2000e+01,  1.3000e+01,  1.4000e+01,  1.5000e+01,  1.6000'
             'e+01,  1.7000e+01,  1.8000e+01,  1.9000e+01,  2.0000e+01,  2'
             '.1000e+01,  2.2000e+01,  2.3000e+01, \n'
             '  2.4000e+01,  2.5000e+01,  2.6000e+01,  2.7000e+01,  2.8000'
             'e+01,  2.9000e+01,  3.0000e+01,  3.1000e+01,  3.2000e+01,  3'
             '.3000e+01,  3.4000e+01,  3.5000e+01, \n'
             '  3.6000e+01,  3.7000e+01,  3.8000e+01,  3.9000e+01])')),
        'vec_bool_40': (
            ('[ True False  True False  True False  True False  True False'
             '  True False\n'
             '  True False  True False  True False  True False  True False'
             '  True False\n'
             '  True False  True False  True False  True False  True False'
             '  True False\n'
             '  True False  True False]'),
            ('Tensor(shape=[40], dtype=Bool, value= [ True, False,  True, '
             'False,  True, False,  True, False,  True, False,  True, Fals'
             'e, \n'
             '  True, False,  True, False,  True, False,  True, False,  Tr'
             'ue, False,  True, False, \n'
             '  True, False,  True, False,  True, False,  True, False,  Tr'
             'ue, False,  True, False, \n'
             '  True, False,  True, False])')),
        'vec_bool_24': (
            ('[ True  True  True  True  True  True  True  True  True  True'
             '  True  True\n'
             '  True  True  True  True  True  True  True  True  True  True'
             '  True  True]'),
            ('Tensor(shape=[24], dtype=Bool, value= [ True,  True,  True, '
             ' True,  True,  True,  True,  True,  True,  True,  True,  Tru'
             'e, \n'
             '  True,  True,  True,  True,  True,  True,  True,  True,  Tr'
             'ue,  True,  True,  True\n'
             ' ])')),
        'vec_int64_999': (
            ('[  0   1   2   3   4   5   6   7   8   9  10  11  12  13  14'
             '  15  16  17\n'
             '  18  19  20  21  22  23  24  25  26  27  28  29  30  31  32'
             '  33  34  35\n'
             '  36  37  38  39  40  41  42  43  44  45  46  47  48  49  50'
             '  51  52  53\n'
             '  54  55  56  57  58  59  60  61  62  63  64  65  66  67  68'
             '  69  70  71\n'
             '  72  73  74  75  76  77  78  79  80  81  82  83  84  85  86'
             '  87  88  89\n'
             '  90  91  92  93  94  95  96  97  98  99 100 101 102 103 104'
             ' 105 106 107\n'
             ' 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122'
             ' 123 124 125\n'
             ' 126 127 128 129 130 131 132 133 134 135 136 137 138 139 140'
             ' 141 142 143\n'
             ' 144 145 146 147 148 149 150 151 152 153 154 155 156 157 158'
             ' 159 160 161\n'
             ' 162 163 164 165 166 167 168 169 170 171 172 173 174 175 176'
             ' 177 178 179\n'
             ' 180 181 182 183 184 185 186 187 188 189 190 191 192 193 194'
             ' 195 196 197\n'
             ' 198 199 200 201 202 203 204 205 206 207 208 209 210 211 212'
             ' 213 214 215\n'
             ' 216 217 218 219 220 221 222 223 224 225 226 227 228 229 230'
             ' 231 232 233\n'
             ' 234 235 236 237 238 239 240 241 242 243 244 245 246 247 248'
             ' 249 250 251\n'
             ' 252 253 254 255 256 257 258 259 260 261 262 263 264 265 266'
             ' 267 268 269\n'
             ' 270 271 272 273 274 275 276 277 278 279 280 281 282 283 284'
             ' 285 286 287\n'
             ' 288 289 290 291 292 293 294 295 296 297 298 299 300 301 302'
             ' 303 304 305\n'
             ' 306 307 308 309 310 311 312 313 314 315 316 317 318 319 320'
             ' 321 322 323\n'
             ' 324 325 326 327 328 329 330 331 332 333 334 335 336 337 338'
             ' 339 340 341\n'
             ' 342 343 344 345 346 347 348 349 350 351 352 353 354 355 356'
             ' 357 358 359\n'
             ' 360 361 362 363 364 365 366 367 368 369 370 371 372 373 374'
             ' 375 376 377\n'
             ' 378 379 380 381 382 383 384 385 386 387 388 389 390 391 392'
             ' 393 394 395\n'
             ' 396 397 398 399 400 401 402 403 404 405 406 407 408 409 410'
             ' 411 412 413\n'
             ' 414 415 416 417 418 419 420 421 422 423 424 425 426 427 428'
             ' 429 430 431\n'
             ' 432 433 434 435 436 437 438 439 440 441 442 443 444 445 446'
             ' 447 448 449\n'
             ' 450 451 452 453 454 455 456 457 458 459 460 461 462 463 464'
             ' 465 466 467\n'
             ' 468 469 470 471 472 473 474 475 476 477 478 479 480 481 482'
             ' 483 484 485\n'
             ' 486 487 488 489 490 491 492 493 494 495 496 497 498 499 500'
             ' 501 502 503\n'
             ' 504 505 506 507 508 509 510 511 512 513 514 515 516 517 518'
             ' 519 520 521\n'
             ' 522 523 524 525 526 527 528 529 530 531 532 533 534 535 536'
             ' 537 538 539\n'
             ' 540 541 542 543 544 545 546 547 548 549 550 551 552 553 554'
             ' 555 556 557\n'
             ' 558 559 560 561 562 563 564 565 566 567 568 569 570 571 572'
             ' 573 574 575\n'
             ' 576 577 578 579 580 581 582 583 584 585 586 587 588 589 590'
             ' 591 592 593\n'
             ' 594 595 596 597 598 599 600 601 602 603 604 605 606 607 608'
             ' 609 610 611\n'
             ' 612 613 614 615 616 617 618 619 620 621 622 623 624 625 626'
             ' 627 628 629\n'
             ' 630 631 632 633 634 635 636 637 638 639 640 641 642 643 644'
             ' 645 646 647\n'
             ' 648 649 650 651 652 653 654 655 656 657 658 659 660 661 662'
             ' 663 664 665\n'
             ' 666 667 668 669 670 671 672 673 674 675 676 677 678 679 680'
             ' 681 682 683\n'
             ' 684 685 686 687 688 689 690 691 692 693 694 695 696 697 698'
             ' 699 700 701\n'
             ' 702 703 704 705 706 707 708 709 710 711 712 713 714 715 716'
             ' 717 718 719\n'
             ' 720 721 722 723 724 725 726 727 728 729 730 731 732 733 734'
             ' 735 736 737\n'
             ' 738 739 740 741 742 743 744 745 746 747 748 749 750 751 752'
             ' 753 754 755\n'
             ' 756 757 758 759 760 761 762 763 764 765 766 767 768 769 770'
             ' 771 772 773\n'
             ' 774 775 776 777 778 779 780 781 782 783 784 785 786 787 788'
             ' 789 790 791\n'
             ' 792 793 794 795 796 797 798 799 800 801 802 803 804 805 806'
             ' 807 808 809\n'
             ' 810 811 812 813 814 815 816 817 818 819 820 821 822 823 824'
             ' 825 826 827\n'
             ' 828 829 830 831 832 833 834 835 836 837 838 839 840 841 842'
             ' 843 844 845\n'
             ' 846 847 848 849 850 851 852 853 854 855 856 857 858 859 860'
             ' 861 862 863\n'
             ' 864 865 866 867 868 869 870 871 872 873 874 875 876 877 878'
             ' 879 880 881\n'
             ' 882 883 884 885 886 887 888 889 890 891 892 893 894 895 896'
             ' 897 898 899\n'
             ' 900 901 902 903 904 905 906 907 908 909 910 911 912 913 914'
             ' 915 916 917\n'
             ' 918 919 920 921 922 923 924 925 926 927 928 929 930 931 932'
             ' 933 934 935\n'
             ' 936 937 938 939 940 941 942 943 944 945 946 947 948 949 950'
             ' 951 952 953\n'
             ' 954 955 956 957 958 959 960 961 962 963 964 965 966 967 968'
             ' 969 970 971\n'
             ' 972 973 974 975 976 977 978 979 980 981 982 983 984 985 986'
             ' 987 988 989\n'
             ' 990 991 992 993 994 995 996 997 998]'),
            ('Tensor(shape=[999], dtype=Int64, value= [  0,   1,   2,   3,'
             '   4,   5,   6,   7,   8,   9,  10,  11,  12,  13,  14,  15,'
             '  16,  17,  18,  19,  20,  21,  22,  23, \n'
             '  24,  25,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,'
             '  36,  37,  38,  39,  40,  41,  42,  43,  44,  45,  46,  47,'
             ' \n'
             '  48,  49,  50,  51,  52,  53,  54,  55,  56,  57,  58,  59,'
             '  60,  61,  62,  63,  64,  65,  66,  67,  68,  69,  70,  71,'
             ' \n'
             '  72,  73,  74,  75,  76,  77,  78,  79,  80,  81,  82,  83,'
             '  84,  85,  86,  87,  88,  89,  90,  91,  92,  93,  94,  95,'
             ' \n'
             '  96,  97,  98,  99, 100, 101, 102, 103, 104, 105, 106, 107,'
             ' 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119,'
             ' \n'
             ' 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131,'
             ' 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143,'
             ' \n'
             ' 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155,'
             ' 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167,'
             ' \n'
             ' 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179,'
             ' 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191,'
             ' \n'
             ' 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203,'
             ' 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215,'
             ' \n'
             ' 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227,'
             ' 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239,'
             ' \n'
             ' 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251,'
             ' 252, 253, 254, 255, 256, 257, 258, 259, 260, 261, 262, 263,'
             ' \n'
             ' 264, 265, 266, 267, 268, 269, 270, 271, 272, 273, 274, 275,'
             ' 276, 277, 278, 279, 280, 281, 282, 283, 284, 285, 286, 287,'
             ' \n'
             ' 288, 289, 290, 291, 292, 293, 294, 295, 296, 297, 298, 299,'
             ' 300, 301, 302, 303, 304, 305, 306, 307, 308, 309, 310, 311,'
             ' \n'
             ' 312, 313, 314, 315, 316, 317, 318, 319, 320, 321, 322, 323,'
             ' 324, 325, 326, 327, 328, 329, 330, 331, 332, 333, 334, 335,'
             ' \n'
             ' 336, 337, 338, 339, 340, 341, 342, 343, 344, 345, 346, 347,'
             ' 348, 349, 350, 351, 352, 353, 354, 355, 356, 357, 358, 359,'
             ' \n'
             ' 360, 361, 362, 363, 364, 365, 366, 367, 368, 369, 370, 371,'
             ' 372, 373, 374, 375, 376, 377, 378, 379, 380, 381, 382, 383,'
             ' \n'
             ' 384, 385, 386, 387, 388, 389, 390, 391, 392, 393, 394, 395,'
             ' 396, 397, 398, 399, 400, 401, 402, 403, 404, 405, 406, 407,'
             ' \n'
             ' 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 418, 419,'
             ' 420, 421, 422, 423, 424, 425, 426, 427, 428, 429, 430, 431,'
             ' \n'
             ' 432, 433, 434, 435, 436, 437, 438, 439, 440, 441, 442, 443,'
             ' 444, 445, 446, 447, 448, 449, 450, 451, 452, 453, 454, 455,'
             ' \n'
             ' 456, 457, 458, 459, 460, 461, 462, 463, 464, 465, 466, 467,'
             ' 468, 469, 470, 471, 472, 473, 474, 475, 476, 477, 478, 479,'
             ' \n'
             ' 480, 481, 482, 483, 484, 485, 486, 487, 488, 489, 490, 491,'
             ' 492, 493, 494, 495, 496, 497, 498, 499, 500, 501, 502, 503,'
             ' \n'
             ' 504, 505, 506, 507, 508, 509, 510, 511, 512, 513, 514, 515,'
             ' 516, 517, 518, 519, 520, 521, 522, 523, 524, 525, 526, 527,'
             ' \n'
             ' 528, 529, 530, 531, 532, 533, 534, 535, 536, 537, 538, 539,'
             ' 540, 541, 542, 543, 544, 545, 546, 547, 548, 549, 550, 551,'
             ' \n'
             ' 552, 553, 554, 555, 556, 557, 558, 559, 560, 561, 562, 563,'
             ' 564, 565, 566, 567, 568, 569, 570, 571, 572, 573, 574, 575,'
             ' \n'
             ' 576, 577, 578, 579, 580, 581, 582, 583, 584, 585, 586, 587,'
             ' 588, 589, 590, 591, 592, 593, 594, 595, 596, 597, 598, 599,'
             ' \n'
             ' 600, 601, 602, 603, 604, 605, 606, 607, 608, 609, 610, 611,'
             ' 612, 613, 614, 615, 616, 617, 618, 619, 620, 621, 622, 623,'
             ' \n'
             ' 624, 625, 626, 627, 628, 629, 630, 631, 632, 633, 634, 635,'
             ' 636, 637, 638, 639, 640, 641, 642, 643, 644, 645, 646, 647,'
             ' \n'
             ' 648, 649, 650, 651, 652, 653, 654, 655, 656, 657, 658, 659,'
             ' 660, 661, 662, 663, 664, 665, 666, 667, 668, 669, 670, 671,'
             ' \n'
             ' 672, 673, 674, 675, 676, 677, 678, 679, 680, 681, 682, 683,'
             ' 684, 685, 686, 687, 688, 689, 690, 691, 692, 693, 694, 695,'
             ' \n'
             ' 696, 697, 698, 699, 700, 701, 702, 703, 704, 705, 706, 707,'
             ' 708, 709, 710, 711, 712, 713, 714, 715, 716, 717, 718, 719,'
             ' \n'
             ' 720, 721, 722, 723, 724, 725, 726, 727, 728, 729, 730, 731,'
             ' 732, 733, 734, 735, 736, 737, 738, 739, 740, 741, 742, 743,'
             ' \n'
             ' 744, 745, 746, 747, 748, 749, 750, 751, 752, 753, 754, 755,'
             ' 756, 757, 758, 759, 760, 761, 762, 763, 764, 765, 766, 767,'
             ' \n'
             ' 768, 769, 770, 771, 772, 773, 774, 775, 776, 777, 778, 779,'
             ' 780, 781, 782, 783, 784, 785, 786, 787, 788, 789, 790, 791,'
             ' \n'
             ' 792, 793, 794, 795, 796, 797, 798, 799, 800, 801, 802, 803,'
             ' 804, 805, 806, 807, 808, 809, 810, 811, 812, 813, 814, 815,'
             ' \n'
             ' 816, 817, 818, 819, 820, 821, 822, 823, 824, 825, 826, 827,'
             ' 828, 829, 830, 831, 832, 833, 834, 835, 836, 837, 838, 839,'
             ' \n'
             ' 840, 841, 842, 843, 844, 845, 846, 847, 848, 849, 850, 851,'
             ' 852, 853, 854, 855, 856, 857, 858, 859, 860, 861, 862, 863,'
             ' \n'
             ' 864, 865, 866, 867, 868, 869, 870, 871, 872, 873, 874, 875,'
             ' 876, 877, 878, 879, 880, 881, 882, 883, 884, 885, 886, 887,'
             ' \n'
             ' 888, 889, 890, 891, 892, 893, 894, 895, 896, 897, 898, 899,'
             ' 900, 901, 902, 903, 904, 905, 906, 907, 908, 909, 910, 911,'
             ' \n'
             ' 912, 913, 914, 915, 916, 917, 918, 919, 920, 921, 922, 923,'
             ' 924, 925, 926, 927, 928, 929, 930, 931, 932, 933, 934, 935,'
             ' \n'
             ' 936, 937, 938, 939, 940, 941, 942, 943, 944, 945, 946, 947,'
             ' 948, 949, 950, 951, 952, 953, 954, 955, 956, 957, 958, 959,'
             ' \n'
             ' 960, 961, 962, 963, 964, 965, 966, 967, 968, 969, 970, 971,'
             ' 972, 973, 974, 975, 976, 977, 978, 979, 980, 981, 982, 983,'
             ' \n'
             ' 984, 985, 986, 987, 988, 989, 990, 991, 992, 993, 994, 995,'
             ' 996, 997, 998])')),
        'vec_int64_1000': (
            ('[  0   1   2   3   4   5   6   7   8   9  10  11  12  13  14'
             '  15  16  17\n'
             '  18  19  20  21  22  23  24  25  26  27  28  29  30  31  32'
             '  33  34  35\n'
             '  36  37  38  39  40  41  42  43  44  45  46  47  48  49  50'
             '  51  52  53\n'
             '  54  55  56  57  58  59  60  61  62  63  64  65  66  67  68'
             '  69  70  71\n'
             '  72  73  74  75  76  77  78  79  80  81  82  83  84  85  86'
             '  87  88  89\n'
             '  90  91  92  93  94  95  96  97  98  99 100 101 102 103 104'
             ' 105 106 107\n'
             ' 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122'
             ' 123 124 125\n'
             ' 126 127 128 129 130 131 132 133 134 135 136 137 138 139 140'
             ' 141 142 143\n'
             ' 144 145 146 147 148 149 150 151 152 153 154 155 156 157 158'
             ' 159 160 161\n'
             ' 162 163 164 165 166 167 168 169 170 171 172 173 174 175 176'
             ' 177 178 179\n'
             ' 180 181 182 183 184 185 186 187 188 189 190 191 192 193 194'
             ' 195 196 197\n'
             ' 198 199 200 201 202 203 204 205 206 207 208 209 210 211 212'
             ' 213 214 215\n'
             ' 216 217 218 219 220 221 222 223 224 225 226 227 228 229 230'
             ' 231 232 233\n'
             ' 234 235 236 237 238 239 240 241 242 243 244 245 246 247 248'
             ' 249 250 251\n'
             ' 252 253 254 255 256 257 258 259 260 261 262 263 264 265 266'
             ' 267 268 269\n'
             ' 270 271 272 273 274 275 276 277 278 279 280 281 282 283 284'
             ' 285 286 287\n'
             ' 288 289 290 291 292 293 294 295 296 297 298 299 300 301 302'
             ' 303 304 305\n'
             ' 306 307 308 309 310 311 312 313 314 315 316 317 318 319 320'
             ' 321 322 323\n'
             ' 324 325 326 327 328 329 330 331 332 333 334 335 336 337 338'
             ' 339 340 341\n'
             ' 342 343 344 345 346 347 348 349 350 351 352 353 354 355 356'
             ' 357 358 359\n'
             ' 360 361 362 363 364 365 366 367 368 369 370 371 372 373 374'
             ' 375 376 377\n'
             ' 378 379 380 381 382 383 384 385 386 387 388 389 390 391 392'
             ' 393 394 395\n'
             ' 396 397 398 399 400 401 402 403 404 405 406 407 408 409 410'
             ' 411 412 413\n'
             ' 414 415 416 417 418 419 420 421 422 423 424 425 426 427 428'
             ' 429 430 431\n'
             ' 432 433 434 435 436 437 438 439 440 441 442 443 444 445 446'
             ' 447 448 449\n'
             ' 450 451 452 453 454 455 456 457 458 459 460 461 462 463 464'
             ' 465 466 467\n'
             ' 468 469 470 471 472 473 474 475 476 477 478 479 480 481 482'
             ' 483 484 485\n'
             ' 486 487 488 489 490 491 492 493 494 495 496 497 498 499 500'
             ' 501 502 503\n'
             ' 504 505 506 507 508 509 510 511 512 513 514 515 516 517 518'
             ' 519 520 521\n'
             ' 522 523 524 525 526 527 528 529 530 531 532 533 534 535 536'
             ' 537 538 539\n'
             ' 540 541 542 543 544 545 546 547 548 549 550 551 552 553 554'
             ' 555 556 557\n'
             ' 558 559 560 561 562 563 564 565 566 567 568 569 570 571 572'
             ' 573 574 575\n'
             ' 576 577 578 579 580 581 582 583 584 585 586 587 588 589 590'
             ' 591 592 593\n'
             ' 594 595 596 597 598 599 600 601 602 603 604 605 606 607 608'
             ' 609 610 611\n'
             ' 612 613 614 615 616 617 618 619 620 621 622 623 624 625 626'
             ' 627 628 629\n'
             ' 630 631 632 633 634 635 636 637 638 639 640 641 642 643 644'
             ' 645 646 647\n'
             ' 648 649 650 651 652 653 654 655 656 657 658 659 660 661 662'
             ' 663 664 665\n'
             ' 666 667 668 669 670 671 672 673 674 675 676 677 678 679 680'
             ' 681 682 683\n'
             ' 684 685 686 687 688 689 690 691 692 693 694 695 696 697 698'
             ' 699 700 701\n'
             ' 702 703 704 705 706 707 708 709 710 711 712 713 714 715 716'
             ' 717 718 719\n'
             ' 720 721 722 723 724 725 726 727 728 729 730 731 732 733 734'
             ' 735 736 737\n'
             ' 738 739 740 741 742 743 744 745 746 747 748 749 750 751 752'
             ' 753 754 755\n'
             ' 756 757 758 759 760 761 762 763 764 765 766 767 768 769 770'
             ' 771 772 773\n'
             ' 774 775 776 777 778 779 780 781 782 783 784 785 786 787 788'
             ' 789 790 791\n'
             ' 792 793 794 795 796 797 798 799 800 801 802 803 804 805 806'
             ' 807 808 809\n'
             ' 810 811 812 813 814 815 816 817 818 819 820 821 822 823 824'
             ' 825 826 827\n'
             ' 828 829 830 831 832 833 834 835 836 837 838 839 840 841 842'
             ' 843 844 845\n'
             ' 846 847 848 849 850 851 852 853 854 855 856 857 858 859 860'
             ' 861 862 863\n'
             ' 864 865 866 867 868 869 870 871 872 873 874 875 876 877 878'
             ' 879 880 881\n'
             ' 882 883 884 885 886 887 888 889 890 891 892 893 894 895 896'
             ' 897 898 899\n'
             ' 900 901 902 903 904 905 906 907 908 909 910 911 912 913 914'
             ' 915 916 917\n'
             ' 918 919 920 921 922 923 924 925 926 927 928 929 930 931 932'
             ' 933 934 935\n'
             ' 936 937 938 939 940 941 942 943 944 945 946 947 948 949 950'
             ' 951 952 953\n'
             ' 954 955 956 957 958 959 960 961 962 963 964 965 966 967 968'
             ' 969 970 971\n'
             ' 972 973 974 975 976 977 978 979 980 981 982 983 984 985 986'
             ' 987 988 989\n'
             ' 990 991 992 993 994 995 996 997 998 999]'),
            ('Tensor(shape=[1000], dtype=Int64, value= [  0,   1,   2,   3'
             ',   4,   5,   6,   7,   8,   9,  10,  11,  12,  13,  14,  15'
             ',  16,  17,  18,  19,  20,  21,  22,  23, \n'
             '  24,  25,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,'
             '  36,  37,  38,  39,  40,  41,  42,  43,  44,  45,  46,  47,'
             ' \n'
             '  48,  49,  50,  51,  52,  53,  54,  55,  56,  57,  58,  59,'
             '  60,  61,  62,  63,  64,  65,  66,  67,  68,  69,  70,  71,'
             ' \n'
             '  72,  73,  74,  75,  76,  77,  78,  79,  80,  81,  82,  83,'
             '  84,  85,  86,  87,  88,  89,  90,  91,  92,  93,  94,  95,'
             ' \n'
             '  96,  97,  98,  99, 100, 101, 102, 103, 104, 105, 106, 107,'
             ' 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119,'
             ' \n'
             ' 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131,'
             ' 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143,'
             ' \n'
             ' 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155,'
             ' 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167,'
             ' \n'
             ' 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179,'
             ' 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191,'
             ' \n'
             ' 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203,'
             ' 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215,'
             ' \n'
             ' 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227,'
             ' 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239,'
             ' \n'
             ' 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251,'
             ' 252, 253, 254, 255, 256, 257, 258, 259, 260, 261, 262, 263,'
             ' \n'
             ' 264, 265, 266, 267, 268, 269, 270, 271, 272, 273, 274, 275,'
             ' 276, 277, 278, 279, 280, 281, 282, 283, 284, 285, 286, 287,'
             ' \n'
             ' 288, 289, 290, 291, 292, 293, 294, 295, 296, 297, 298, 299,'
             ' 300, 301, 302, 303, 304, 305, 306, 307, 308, 309, 310, 311,'
             ' \n'
             ' 312, 313, 314, 315, 316, 317, 318, 319, 320, 321, 322, 323,'
             ' 324, 325, 326, 327, 328, 329, 330, 331, 332, 333, 334, 335,'
             ' \n'
             ' 336, 337, 338, 339, 340, 341, 342, 343, 344, 345, 346, 347,'
             ' 348, 349, 350, 351, 352, 353, 354, 355, 356, 357, 358, 359,'
             ' \n'
             ' 360, 361, 362, 363, 364, 365, 366, 367, 368, 369, 370, 371,'
             ' 372, 373, 374, 375, 376, 377, 378, 379, 380, 381, 382, 383,'
             ' \n'
             ' 384, 385, 386, 387, 388, 389, 390, 391, 392, 393, 394, 395,'
             ' 396, 397, 398, 399, 400, 401, 402, 403, 404, 405, 406, 407,'
             ' \n'
             ' 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 418, 419,'
             ' 420, 421, 422, 423, 424, 425, 426, 427, 428, 429, 430, 431,'
             ' \n'
             ' 432, 433, 434, 435, 436, 437, 438, 439, 440, 441, 442, 443,'
             ' 444, 445, 446, 447, 448, 449, 450, 451, 452, 453, 454, 455,'
             ' \n'
             ' 456, 457, 458, 459, 460, 461, 462, 463, 464, 465, 466, 467,'
             ' 468, 469, 470, 471, 472, 473, 474, 475, 476, 477, 478, 479,'
             ' \n'
             ' 480, 481, 482, 483, 484, 485, 486, 487, 488, 489, 490, 491,'
             ' 492, 493, 494, 495, 496, 497, 498, 499, 500, 501, 502, 503,'
             ' \n'
             ' 504, 505, 506, 507, 508, 509, 510, 511, 512, 513, 514, 515,'
             ' 516, 517, 518, 519, 520, 521, 522, 523, 524, 525, 526, 527,'
             ' \n'
             ' 528, 529, 530, 531, 532, 533, 534, 535, 536, 537, 538, 539,'
             ' 540, 541, 542, 543, 544, 545, 546, 547, 548, 549, 550, 551,'
             ' \n'
             ' 552, 553, 554, 555, 556, 557, 558, 559, 560, 561, 562, 563,'
             ' 564, 565, 566, 567, 568, 569, 570, 571, 572, 573, 574, 575,'
             ' \n'
             ' 576, 577, 578, 579, 580, 581, 582, 583, 584, 585, 586, 587,'
             ' 588, 589, 590, 591, 592, 593, 594, 595, 596, 597, 598, 599,'
             ' \n'
             ' 600, 601, 602, 603, 604, 605, 606, 607, 608, 609, 610, 611,'
             ' 612, 613, 614, 615, 616, 617, 618, 619, 620, 621, 622, 623,'
             ' \n'
             ' 624, 625, 626, 627, 628, 629, 630, 631, 632, 633, 634, 635,'
             ' 636, 637, 638, 639, 640, 641, 642, 643, 644, 645, 646, 647,'
             ' \n'
             ' 648, 649, 650, 651, 652, 653, 654, 655, 656, 657, 658, 659,'
             ' 660, 661, 662, 663, 664, 665, 666, 667, 668, 669, 670, 671,'
             ' \n'
             ' 672, 673, 674, 675, 676, 677, 678, 679, 680, 681, 682, 683,'
             ' 684, 685, 686, 687, 688, 689, 690, 691, 692, 693, 694, 695,'
             ' \n'
             ' 696, 697, 698, 699, 700, 701, 702, 703, 704, 705, 706, 707,'
             ' 708, 709, 710, 711, 712, 713, 714, 715, 716, 717, 718, 719,'
             ' \n'
             ' 720, 721, 722, 723, 724, 725, 726, 727, 728, 729, 730, 731,'
             ' 732, 733, 734, 735, 736, 737, 738, 739, 740, 741, 742, 743,'
             ' \n'
             ' 744, 745, 746, 747, 748, 749, 750, 751, 752, 753, 754, 755,'
             ' 756, 757, 758, 759, 760, 761, 762, 763, 764, 765, 766, 767,'
             ' \n'
             ' 768, 769, 770, 771, 772, 773, 774, 775, 776, 777, 778, 779,'
             ' 780, 781, 782, 783, 784, 785, 786, 787, 788, 789, 790, 791,'
             ' \n'
             ' 792, 793, 794, 795, 796, 797, 798, 799, 800, 801, 802, 803,'
             ' 804, 805, 806, 807, 808, 809, 810, 811, 812, 813, 814, 815,'
             ' \n'
             ' 816, 817, 818, 819, 820, 821, 822, 823, 824, 825, 826, 827,'
             ' 828, 829, 830, 831, 832, 833, 834, 835, 836, 837, 838, 839,'
             ' \n'
             ' 840, 841, 842, 843, 844, 845, 846, 847, 848, 849, 850, 851,'
             ' 852, 853, 854, 855, 856, 857, 858, 859, 860, 861, 862, 863,'
             ' \n'
             ' 864, 865, 866, 867, 868, 869, 870, 871, 872, 873, 874, 875,'
             ' 876, 877, 878, 879, 880, 881, 882, 883, 884, 885, 886, 887,'
             ' \n'
             ' 888, 889, 890, 891, 892, 893, 894, 895, 896, 897, 898, 899,'
             ' 900, 901, 902, 903, 904, 905, 906, 907, 908, 909, 910, 911,'
             ' \n'
             ' 912, 913, 914, 915, 916, 917, 918, 919, 920, 921, 922, 923,'
             ' 924, 925, 926, 927, 928, 929, 930, 931, 932, 933, 934, 935,'
             ' \n'
             ' 936, 937, 938, 939, 940, 941, 942, 943, 944, 945, 946, 947,'
             ' 948, 949, 950, 951, 952, 953, 954, 955, 956, 957, 958, 959,'
             ' \n'
             ' 960, 961, 962, 963, 964, 965, 966, 967, 968, 969, 970, 971,'
             ' 972, 973, 974, 975, 976, 977, 978, 979, 980, 981, 982, 983,'
             ' \n'
             ' 984, 985, 986, 987, 988, 989, 990, 991, 992, 993, 994, 995,'
             ' 996, 997, 998, 999])')),
        'vec_int64_1001': (
            '[   0    1    2 ...  998  999 1000]',
            ('Tensor(shape=[1001], dtype=Int64, value= [   0,    1,    2 .'
             '..  998,  999, 1000])')),
        'vec_int32_2000': (
            '[   0    1    2 ... 1997 1998 1999]',
            ('Tensor(shape=[2000], dtype=Int32, value= [   0,    1,    2 .'
             '.. 1997, 1998, 1999])')),
        'vec_float32_2000': (
            ('[0.0000000e+00 1.4285715e-01 2.8571430e-01 ... 2.8528571e+02'
             ' 2.8542856e+02\n'
             ' 2.8557144e+02]'),
            ('Tensor(shape=[2000], dtype=Float32, value= [ 0.00000000e+00,'
             '  1.42857149e-01,  2.85714298e-01 ...  2.85285706e+02,  2.85'
             '428558e+02,  2.85571442e+02])')),
        'vec_float64_2000_big': (
            ('[0.000e+00 1.000e+09 2.000e+09 ... 1.997e+12 1.998e+12 1.999'
             'e+12]'),
            ('Tensor(shape=[2000], dtype=Float64, value= [ 0.00000000e+00,'
             '  1.00000000e+09,  2.00000000e+09 ...  1.99700000e+12,  1.99'
             '800000e+12,  1.99900000e+12])')),
        'vec_bool_2000': (
            '[ True False  True ... False  True False]',
            ('Tensor(shape=[2000], dtype=Bool, value= [ True, False,  True'
             ' ... False,  True, False])')),
        'vec_int64_hidden_wide': (
            '[  0   1   2 ... 997 998 999]',
            ('Tensor(shape=[2001], dtype=Int64, value= [  0,   1,   2 ... '
             '997, 998, 999])')),
        'mat_int32': (
            ('[[1 2]\n'
             ' [3 4]]'),
            ('Tensor(shape=[2, 2], dtype=Int32, value=\n'
             '[[1, 2],\n'
             ' [3, 4]])')),
        'mat_int64_1x1': (
            '[[1]]',
            ('Tensor(shape=[1, 1], dtype=Int64, value=\n'
             '[[1]])')),
        'mat_float32': (
            ('[[ 1.50e+00  2.00e+00]\n'
             ' [-3.25e+00  1.00e-08]]'),
            ('Tensor(shape=[2, 2], dtype=Float32, value=\n'
             '[[ 1.50000000e+00,  2.00000000e+00],\n'
             ' [-3.25000000e+00,  9.99999994e-09]])')),
        'mat_float32_plain': (
            ('[[1.5 2. ]\n'
             ' [3.  4. ]]'),
            ('Tensor(shape=[2, 2], dtype=Float32, value=\n'
             '[[ 1.50000000e+00,  2.00000000e+00],\n'
             ' [ 3.00000000e+00,  4.00000000e+00]])')),
        'mat_float64_mixed': (
            ('[[ 8.440e+02  7.556e+01 -1.427e+03]\n'
             ' [ 1.000e-03  2.000e+00  3.000e+00]]'),
            ('Tensor(shape=[2, 3], dtype=Float64, value=\n'
             '[[ 8.44000000e+02,  7.55600000e+01, -1.42700000e+03],\n'
             ' [ 1.00000000e-03,  2.00000000e+00,  3.00000000e+00]])')),
        'mat_bool': (
            ('[[ True]\n'
             ' [False]]'),
            ('Tensor(shape=[2, 1], dtype=Bool, value=\n'
             '[[ True],\n'
             ' [False]])')),
        'mat_bool_true': (
            '[[ True  True]]',
            ('Tensor(shape=[1, 2], dtype=Bool, value=\n'
             '[[ True,  True]])')),
        'mat_2x6': (
            ('[[ 0  1  2  3  4  5]\n'
             ' [ 6  7  8  9 10 11]]'),
            ('Tensor(shape=[2, 6], dtype=Int64, value=\n'
             '[[ 0,  1,  2,  3,  4,  5],\n'
             ' [ 6,  7,  8,  9, 10, 11]])')),
        'mat_6x2': (
            ('[[ 0  1]\n'
             ' [ 2  3]\n'
             ' [ 4  5]\n'
             ' [ 6  7]\n'
             ' [ 8  9]\n'
             ' [10 11]]'),
            ('Tensor(shape=[6, 2], dtype=Int64, value=\n'
             '[[ 0,  1],\n'
             ' [ 2,  3],\n'
             ' [ 4,  5],\n'
             ' [ 6,  7],\n'
             ' [ 8,  9],\n'
             ' [10, 11]])')),
        'mat_2x7': (
            ('[[ 0  1  2  3  4  5  6]\n'
             ' [ 7  8  9 10 11 12 13]]'),
            ('Tensor(shape=[2, 7], dtype=Int64, value=\n'
             '[[ 0,  1,  2 ...  4,  5,  6],\n'
             ' [ 7,  8,  9 ... 11, 12, 13]])')),
        'mat_7x2': (
            ('[[ 0  1]\n'
             ' [ 2  3]\n'
             ' [ 4  5]\n'
             ' [ 6  7]\n'
             ' [ 8  9]\n'
             ' [10 11]\n'
             ' [12 13]]'),
            ('Tensor(shape=[7, 2], dtype=Int64, value=\n'
             '[[ 0,  1],\n'
             ' [ 2,  3],\n'
             ' [ 4,  5],\n'
             ' ...\n'
             ' [ 8,  9],\n'
             ' [10, 11],\n'
             ' [12, 13]])')),
        'mat_1x7': (
            '[[0 1 2 3 4 5 6]]',
            ('Tensor(shape=[1, 7], dtype=Int64, value=\n'
             '[[0, 1, 2 ... 4, 5, 6]])')),
        'mat_7x1': (
            ('[[0]\n'
             ' [1]\n'
             ' [2]\n'
             ' [3]\n'
             ' [4]\n'
             ' [5]\n'
             ' [6]]'),
            ('Tensor(shape=[7, 1], dtype=Int64, value=\n'
             '[[0],\n'
             ' [1],\n'
             ' [2],\n'
             ' ...\n'
             ' [4],\n'
             ' [5],\n'
             ' [6]])')),
        'mat_1x8_hidden_wide': (
            '[[    1     2     3 99999     5     6     7     8]]',
            ('Tensor(shape=[1, 8], dtype=Int64, value=\n'
             '[[1, 2, 3 ... 6, 7, 8]])')),
        'mat_int32_neg_2x8': (
            ('[[  0  -1  -2  -3  -4  -5  -6  -7]\n'
             ' [ -8  -9 -10 -11 -12 -13 -14 -15]]'),
            ('Tensor(shape=[2, 8], dtype=Int32, value=\n'
             '[[  0,  -1,  -2 ...  -5,  -6,  -7],\n'
             ' [ -8,  -9, -10 ... -13, -14, -15]])')),
        'mat_3x40': (
            ('[[  0   1   2   3   4   5   6   7   8   9  10  11  12  13  1'
             '4  15  16  17\n'
             '   18  19  20  21  22  23  24  25  26  27  28  29  30  31  3'
             '2  33  34  35\n'
             '   36  37  38  39]\n'
             ' [ 40  41  42  43  44  45  46  47  48  49  50  51  52  53  5'
             '4  55  56  57\n'
             '   58  59  60  61  62  63  64  65  66  67  68  69  70  71  7'
             '2  73  74  75\n'
             '   76  77  78  79]\n'
             ' [ 80  81  82  83  84  85  86  87  88  89  90  91  92  93  9'
             '4  95  96  97\n'
             '   98  99 100 101 102 103 104 105 106 107 108 109 110 111 11'
             '2 113 114 115\n'
             '  116 117 118 119]]'),
            ('Tensor(shape=[3, 40], dtype=Int64, value=\n'
             '[[  0,   1,   2 ...  37,  38,  39],\n'
             ' [ 40,  41,  42 ...  77,  78,  79],\n'
             ' [ 80,  81,  82 ... 117, 118, 119]])')),
        'mat_float32_2x30': (
            ('[[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14'
             '. 15. 16. 17.\n'
             '  18. 19. 20. 21. 22. 23. 24. 25. 26. 27. 28. 29.]\n'
             ' [30. 31. 32. 33. 34. 35. 36. 37. 38. 39. 40. 41. 42. 43. 44'
             '. 45. 46. 47.\n'
             '  48. 49. 50. 51. 52. 53. 54. 55. 56. 57. 58. 59.]]'),
            ('Tensor(shape=[2, 30], dtype=Float32, value=\n'
             '[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00 ...  2.7'
             '0000000e+01,  2.80000000e+01,  2.90000000e+01],\n'
             ' [ 3.00000000e+01,  3.10000000e+01,  3.20000000e+01 ...  5.7'
             '0000000e+01,  5.80000000e+01,  5.90000000e+01]])')),
        'mat_int32_2x600': (
            ('[[   0    1    2 ...  597  598  599]\n'
             ' [ 600  601  602 ... 1197 1198 1199]]'),
            ('Tensor(shape=[2, 600], dtype=Int32, value=\n'
             '[[   0,    1,    2 ...  597,  598,  599],\n'
             ' [ 600,  601,  602 ... 1197, 1198, 1199]])')),
        'mat_int32_600x2': (
            ('[[   0    1]\n'
             ' [   2    3]\n'
             ' [   4    5]\n'
             ' ...\n'
             ' [1194 1195]\n'
             ' [1196 1197]\n'
             ' [1198 1199]]'),
            ('Tensor(shape=[600, 2], dtype=Int32, value=\n'
             '[[   0,    1],\n'
             ' [   2,    3],\n'
             ' [   4,    5],\n'
             ' ...\n'
             ' [1194, 1195],\n'
             ' [1196, 1197],\n'
             ' [1198, 1199]])')),
        'mat_float32_100x100': (
            ('[[0.000e+00 1.000e+00 2.000e+00 ... 9.700e+01 9.800e+01 9.90'
             '0e+01]\n'
             ' [1.000e+02 1.010e+02 1.020e+02 ... 1.970e+02 1.980e+02 1.99'
             '0e+02]\n'
             ' [2.000e+02 2.010e+02 2.020e+02 ... 2.970e+02 2.980e+02 2.99'
             '0e+02]\n'
             ' ...\n'
             ' [9.700e+03 9.701e+03 9.702e+03 ... 9.797e+03 9.798e+03 9.79'
             '9e+03]\n'
             ' [9.800e+03 9.801e+03 9.802e+03 ... 9.897e+03 9.898e+03 9.89'
             '9e+03]\n'
             ' [9.900e+03 9.901e+03 9.902e+03 ... 9.997e+03 9.998e+03 9.99'
             '9e+03]]'),
            ('Tensor(shape=[100, 100], dtype=Float32, value=\n'
             '[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00 ...  9.7'
             '0000000e+01,  9.80000000e+01,  9.90000000e+01],\n'
             ' [ 1.00000000e+02,  1.01000000e+02,  1.02000000e+02 ...  1.9'
             '7000000e+02,  1.98000000e+02,  1.99000000e+02],\n'
             ' [ 2.00000000e+02,  2.01000000e+02,  2.02000000e+02 ...  2.9'
             '7000000e+02,  2.98000000e+02,  2.99000000e+02],\n'
             ' ...\n'
             ' [ 9.70000000e+03,  9.70100000e+03,  9.70200000e+03 ...  9.7'
             '9700000e+03,  9.79800000e+03,  9.79900000e+03],\n'
             ' [ 9.80000000e+03,  9.80100000e+03,  9.80200000e+03 ...  9.8'
             '9700000e+03,  9.89800000e+03,  9.89900000e+03],\n'
             ' [ 9.90000000e+03,  9.90100000e+03,  9.90200000e+03 ...  9.9'
             '9700000e+03,  9.99800000e+03,  9.99900000e+03]])')),
        'mat_float16_8x8': (
            ('[[ 0.      0.3333  0.6665  1.      1.333   1.667   2.      2'
             '.334 ]\n'
             ' [ 2.666   3.      3.334   3.666   4.      4.332   4.668   5'
             '.    ]\n'
             ' [ 5.332   5.668   6.      6.332   6.668   7.      7.332   7'
             '.668 ]\n'
             ' [ 8.      8.336   8.664   9.      9.336   9.664  10.     10'
             '.336 ]\n'
             ' [10.664  11.     11.336  11.664  12.     12.336  12.664  13'
             '.    ]\n'
             ' [13.336  13.664  14.     14.336  14.664  15.     15.336  15'
             '.664 ]\n'
             ' [16.     16.33   16.67   17.     17.33   17.67   18.     18'
             '.33  ]\n'
             ' [18.67   19.     19.33   19.67   20.     20.33   20.67   21'
             '.    ]]'),
            ('Tensor(shape=[8, 8], dtype=Float16, value=\n'
             '[[ 0.0000e+00,  3.3325e-01,  6.6650e-01 ...  1.6670e+00,  2.'
             '0000e+00,  2.3340e+00],\n'
             ' [ 2.6660e+00,  3.0000e+00,  3.3340e+00 ...  4.3320e+00,  4.'
             '6680e+00,  5.0000e+00],\n'
             ' [ 5.3320e+00,  5.6680e+00,  6.0000e+00 ...  7.0000e+00,  7.'
             '3320e+00,  7.6680e+00],\n'
             ' ...\n'
             ' [ 1.3336e+01,  1.3664e+01,  1.4000e+01 ...  1.5000e+01,  1.'
             '5336e+01,  1.5664e+01],\n'
             ' [ 1.6000e+01,  1.6328e+01,  1.6672e+01 ...  1.7672e+01,  1.'
             '8000e+01,  1.8328e+01],\n'
             ' [ 1.8672e+01,  1.9000e+01,  1.9328e+01 ...  2.0328e+01,  2.'
             '0672e+01,  2.1000e+01]])')),
        't3_int32': (
            ('[[[ 0  1  2  3]\n'
             '  [ 4  5  6  7]\n'
             '  [ 8  9 10 11]]\n'
             '\n'
             ' [[12 13 14 15]\n'
             '  [16 17 18 19]\n'
             '  [20 21 22 23]]]'),
            ('Tensor(shape=[2, 3, 4], dtype=Int32, value=\n'
             '[[[ 0,  1,  2,  3],\n'
             '  [ 4,  5,  6,  7],\n'
             '  [ 8,  9, 10, 11]],\n'
             ' [[12, 13, 14, 15],\n'
             '  [16, 17, 18, 19],\n'
             '  [20, 21, 22, 23]]])')),
        't3_float32': (
            ('[[[-5.5 -4.5]\n'
             '  [-3.5 -2.5]\n'
             '  [-1.5 -0.5]]\n'
             '\n'
             ' [[ 0.5  1.5]\n'
             '  [ 2.5  3.5]\n'
             '  [ 4.5  5.5]]]'),
            ('Tensor(shape=[2, 3, 2], dtype=Float32, value=\n'
             '[[[-5.50000000e+00, -4.50000000e+00],\n'
             '  [-3.50000000e+00, -2.50000000e+00],\n'
             '  [-1.50000000e+00, -5.00000000e-01]],\n'
             ' [[ 5.00000000e-01,  1.50000000e+00],\n'
             '  [ 2.50000000e+00,  3.50000000e+00],\n'
             '  [ 4.50000000e+00,  5.50000000e+00]]])')),
        't3_bool': (
            ('[[[ True False]\n'
             '  [False  True]]\n'
             '\n'
             ' [[False False]\n'
             '  [ True False]]]'),
            ('Tensor(shape=[2, 2, 2], dtype=Bool, value=\n'
             '[[[ True, False],\n'
             '  [False,  True]],\n'
             ' [[False, False],\n'
             '  [ True, False]]])')),
        't3_int64_2x2x30': (
            ('[[[  0   1   2   3   4   5   6   7   8   9  10  11  12  13  '
             '14  15  16\n'
             '    17  18  19  20  21  22  23  24  25  26  27  28  29]\n'
             '  [ 30  31  32  33  34  35  36  37  38  39  40  41  42  43  '
             '44  45  46\n'
             '    47  48  49  50  51  52  53  54  55  56  57  58  59]]\n'
             '\n'
             ' [[ 60  61  62  63  64  65  66  67  68  69  70  71  72  73  '
             '74  75  76\n'
             '    77  78  79  80  81  82  83  84  85  86  87  88  89]\n'
             '  [ 90  91  92  93  94  95  96  97  98  99 100 101 102 103 1'
             '04 105 106\n'
             '   107 108 109 110 111 112 113 114 115 116 117 118 119]]]'),
            ('Tensor(shape=[2, 2, 30], dtype=Int64, value=\n'
             '[[[  0,   1,   2 ...  27,  28,  29],\n'
             '  [ 30,  31,  32 ...  57,  58,  59]],\n'
             ' [[ 60,  61,  62 ...  87,  88,  89],\n'
             '  [ 90,  91,  92 ... 117, 118, 119]]])')),
        't3_int32_2x3x200': (
            ('[[[   0    1    2 ...  197  198  199]\n'
             '  [ 200  201  202 ...  397  398  399]\n'
             '  [ 400  401  402 ...  597  598  599]]\n'
             '\n'
             ' [[ 600  601  602 ...  797  798  799]\n'
             '  [ 800  801  802 ...  997  998  999]\n'
             '  [1000 1001 1002 ... 1197 1198 1199]]]'),
            ('Tensor(shape=[2, 3, 200], dtype=Int32, value=\n'
             '[[[   0,    1,    2 ...  197,  198,  199],\n'
             '  [ 200,  201,  202 ...  397,  398,  399],\n'
             '  [ 400,  401,  402 ...  597,  598,  599]],\n'
             ' [[ 600,  601,  602 ...  797,  798,  799],\n'
             '  [ 800,  801,  802 ...  997,  998,  999],\n'
             '  [1000, 1001, 1002 ... 1197, 1198, 1199]]])')),
        't3_float16_8x8x20': (
            ('[[[0.000e+00 1.000e+00 2.000e+00 ... 1.700e+01 1.800e+01 1.9'
             '00e+01]\n'
             '  [2.000e+01 2.100e+01 2.200e+01 ... 3.700e+01 3.800e+01 3.9'
             '00e+01]\n'
             '  [4.000e+01 4.100e+01 4.200e+01 ... 5.700e+01 5.800e+01 5.9'
             '00e+01]\n'
             '  ...\n'
             '  [1.000e+02 1.010e+02 1.020e+02 ... 1.170e+02 1.180e+02 1.1'
             '90e+02]\n'
             '  [1.200e+02 1.210e+02 1.220e+02 ... 1.370e+02 1.380e+02 1.3'
             '90e+02]\n'
             '  [1.400e+02 1.410e+02 1.420e+02 ... 1.570e+02 1.580e+02 1.5'
             '90e+02]]\n'
             '\n'
             ' [[1.600e+02 1.610e+02 1.620e+02 ... 1.770e+02 1.780e+02 1.7'
             '90e+02]\n'
             '  [1.800e+02 1.810e+02 1.820e+02 ... 1.970e+02 1.980e+02 1.9'
             '90e+02]\n'
             '  [2.000e+02 2.010e+02 2.020e+02 ... 2.170e+02 2.180e+02 2.1'
             '90e+02]\n'
             '  ...\n'
             '  [2.600e+02 2.610e+02 2.620e+02 ... 2.770e+02 2.780e+02 2.7'
             '90e+02]\n'
             '  [2.800e+02 2.810e+02 2.820e+02 ... 2.970e+02 2.980e+02 2.9'
             '90e+02]\n'
             '  [3.000e+02 3.010e+02 3.020e+02 ... 3.170e+02 3.180e+02 3.1'
             '90e+02]]\n'
             '\n'
             ' [[3.200e+02 3.210e+02 3.220e+02 ... 3.370e+02 3.380e+02 3.3'
             '90e+02]\n'
             '  [3.400e+02 3.410e+02 3.420e+02 ... 3.570e+02 3.580e+02 3.5'
             '90e+02]\n'
             '  [3.600e+02 3.610e+02 3.620e+02 ... 3.770e+02 3.780e+02 3.7'
             '90e+02]\n'
             '  ...\n'
             '  [4.200e+02 4.210e+02 4.220e+02 ... 4.370e+02 4.380e+02 4.3'
             '90e+02]\n'
             '  [4.400e+02 4.410e+02 4.420e+02 ... 4.570e+02 4.580e+02 4.5'
             '90e+02]\n'
             '  [4.600e+02 4.610e+02 4.620e+02 ... 4.770e+02 4.780e+02 4.7'
             '90e+02]]\n'
             '\n'
             ' ...\n'
             '\n'
             ' [[8.000e+02 8.010e+02 8.020e+02 ... 8.170e+02 8.180e+02 8.1'
             '90e+02]\n'
             '  [8.200e+02 8.210e+02 8.220e+02 ... 8.370e+02 8.380e+02 8.3'
             '90e+02]\n'
             '  [8.400e+02 8.410e+02 8.420e+02 ... 8.570e+02 8.580e+02 8.5'
             '90e+02]\n'
             '  ...\n'
             '  [9.000e+02 9.010e+02 9.020e+02 ... 9.170e+02 9.180e+02 9.1'
             '90e+02]\n'
             '  [9.200e+02 9.210e+02 9.220e+02 ... 9.370e+02 9.380e+02 9.3'
             '90e+02]\n'
             '  [9.400e+02 9.410e+02 9.420e+02 ... 9.570e+02 9.580e+02 9.5'
             '90e+02]]\n'
             '\n'
             ' [[9.600e+02 9.610e+02 9.620e+02 ... 9.770e+02 9.780e+02 9.7'
             '90e+02]\n'
             '  [9.800e+02 9.810e+02 9.820e+02 ... 9.970e+02 9.980e+02 9.9'
             '90e+02]\n'
             '  [1.000e+03 1.001e+03 1.002e+03 ... 1.017e+03 1.018e+03 1.0'
             '19e+03]\n'
             '  ...\n'
             '  [1.060e+03 1.061e+03 1.062e+03 ... 1.077e+03 1.078e+03 1.0'
             '79e+03]\n'
             '  [1.080e+03 1.081e+03 1.082e+03 ... 1.097e+03 1.098e+03 1.0'
             '99e+03]\n'
             '  [1.100e+03 1.101e+03 1.102e+03 ... 1.117e+03 1.118e+03 1.1'
             '19e+03]]\n'
             '\n'
             ' [[1.120e+03 1.121e+03 1.122e+03 ... 1.137e+03 1.138e+03 1.1'
             '39e+03]\n'
             '  [1.140e+03 1.141e+03 1.142e+03 ... 1.157e+03 1.158e+03 1.1'
             '59e+03]\n'
             '  [1.160e+03 1.161e+03 1.162e+03 ... 1.177e+03 1.178e+03 1.1'
             '79e+03]\n'
             '  ...\n'
             '  [1.220e+03 1.221e+03 1.222e+03 ... 1.237e+03 1.238e+03 1.2'
             '39e+03]\n'
             '  [1.240e+03 1.241e+03 1.242e+03 ... 1.257e+03 1.258e+03 1.2'
             '59e+03]\n'
             '  [1.260e+03 1.261e+03 1.262e+03 ... 1.277e+03 1.278e+03 1.2'
             '79e+03]]]'),
            ('Tensor(shape=[8, 8, 20], dtype=Float16, value=\n'
             '[[[ 0.0000e+00,  1.0000e+00,  2.0000e+00 ...  1.7000e+01,  1'
             '.8000e+01,  1.9000e+01],\n'
             '  [ 2.0000e+01,  2.1000e+01,  2.2000e+01 ...  3.7000e+01,  3'
             '.8000e+01,  3.9000e+01],\n'
             '  [ 4.0000e+01,  4.1000e+01,  4.2000e+01 ...  5.7000e+01,  5'
             '.8000e+01,  5.9000e+01],\n'
             '  ...\n'
             '  [ 1.0000e+02,  1.0100e+02,  1.0200e+02 ...  1.1700e+02,  1'
             '.1800e+02,  1.1900e+02],\n'
             '  [ 1.2000e+02,  1.2100e+02,  1.2200e+02 ...  1.3700e+02,  1'
             '.3800e+02,  1.3900e+02],\n'
             '  [ 1.4000e+02,  1.4100e+02,  1.4200e+02 ...  1.5700e+02,  1'
             '.5800e+02,  1.5900e+02]],\n'
             ' [[ 1.6000e+02,  1.6100e+02,  1.6200e+02 ...  1.7700e+02,  1'
             '.7800e+02,  1.7900e+02],\n'
             '  [ 1.8000e+02,  1.8100e+02,  1.8200e+02 ...  1.9700e+02,  1'
             '.9800e+02,  1.9900e+02],\n'
             '  [ 2.0000e+02,  2.0100e+02,  2.0200e+02 ...  2.1700e+02,  2'
             '.1800e+02,  2.1900e+02],\n'
             '  ...\n'
             '  [ 2.6000e+02,  2.6100e+02,  2.6200e+02 ...  2.7700e+02,  2'
             '.7800e+02,  2.7900e+02],\n'
             '  [ 2.8000e+02,  2.8100e+02,  2.8200e+02 ...  2.9700e+02,  2'
             '.9800e+02,  2.9900e+02],\n'
             '  [ 3.0000e+02,  3.0100e+02,  3.0200e+02 ...  3.1700e+02,  3'
             '.1800e+02,  3.1900e+02]],\n'
             ' [[ 3.2000e+02,  3.2100e+02,  3.2200e+02 ...  3.3700e+02,  3'
             '.3800e+02,  3.3900e+02],\n'
             '  [ 3.4000e+02,  3.4100e+02,  3.4200e+02 ...  3.5700e+02,  3'
             '.5800e+02,  3.5900e+02],\n'
             '  [ 3.6000e+02,  3.6100e+02,  3.6200e+02 ...  3.7700e+02,  3'
             '.7800e+02,  3.7900e+02],\n'
             '  ...\n'
             '  [ 4.2000e+02,  4.2100e+02,  4.2200e+02 ...  4.3700e+02,  4'
             '.3800e+02,  4.3900e+02],\n'
             '  [ 4.4000e+02,  4.4100e+02,  4.4200e+02 ...  4.5700e+02,  4'
             '.5800e+02,  4.5900e+02],\n'
             '  [ 4.6000e+02,  4.6100e+02,  4.6200e+02 ...  4.7700e+02,  4'
             '.7800e+02,  4.7900e+02]],\n'
             ' ...\n'
             ' [[ 8.0000e+02,  8.0100e+02,  8.0200e+02 ...  8.1700e+02,  8'
             '.1800e+02,  8.1900e+02],\n'
             '  [ 8.2000e+02,  8.2100e+02,  8.2200e+02 ...  8.3700e+02,  8'
             '.3800e+02,  8.3900e+02],\n'
             '  [ 8.4000e+02,  8.4100e+02,  8.4200e+02 ...  8.5700e+02,  8'
             '.5800e+02,  8.5900e+02],\n'
             '  ...\n'
             '  [ 9.0000e+02,  9.0100e+02,  9.0200e+02 ...  9.1700e+02,  9'
             '.1800e+02,  9.1900e+02],\n'
             '  [ 9.2000e+02,  9.2100e+02,  9.2200e+02 ...  9.3700e+02,  9'
             '.3800e+02,  9.3900e+02],\n'
             '  [ 9.4000e+02,  9.4100e+02,  9.4200e+02 ...  9.5700e+02,  9'
             '.5800e+02,  9.5900e+02]],\n'
             ' [[ 9.6000e+02,  9.6100e+02,  9.6200e+02 ...  9.7700e+02,  9'
             '.7800e+02,  9.7900e+02],\n'
             '  [ 9.8000e+02,  9.8100e+02,  9.8200e+02 ...  9.9700e+02,  9'
             '.9800e+02,  9.9900e+02],\n'
             '  [ 1.0000e+03,  1.0010e+03,  1.0020e+03 ...  1.0170e+03,  1'
             '.0180e+03,  1.0190e+03],\n'
             '  ...\n'
             '  [ 1.0600e+03,  1.0610e+03,  1.0620e+03 ...  1.0770e+03,  1'
             '.0780e+03,  1.0790e+03],\n'
             '  [ 1.0800e+03,  1.0810e+03,  1.0820e+03 ...  1.0970e+03,  1'
             '.0980e+03,  1.0990e+03],\n'
             '  [ 1.1000e+03,  1.1010e+03,  1.1020e+03 ...  1.1170e+03,  1'
             '.1180e+03,  1.1190e+03]],\n'
             ' [[ 1.1200e+03,  1.1210e+03,  1.1220e+03 ...  1.1370e+03,  1'
             '.1380e+03,  1.1390e+03],\n'
             '  [ 1.1400e+03,  1.1410e+03,  1.1420e+03 ...  1.1570e+03,  1'
             '.1580e+03,  1.1590e+03],\n'
             '  [ 1.1600e+03,  1.1610e+03,  1.1620e+03 ...  1.1770e+03,  1'
             '.1780e+03,  1.1790e+03],\n'
             '  ...\n'
             '  [ 1.2200e+03,  1.2210e+03,  1.2220e+03 ...  1.2370e+03,  1'
             '.2380e+03,  1.2390e+03],\n'
             '  [ 1.2400e+03,  1.2410e+03,  1.2420e+03 ...  1.2570e+03,  1'
             '.2580e+03,  1.2590e+03],\n'
             '  [ 1.2600e+03,  1.2610e+03,  1.2620e+03 ...  1.2770e+03,  1'
             '.2780e+03,  1.2790e+03]]])')),
        't4_int32': (
            ('[[[[ 0  1]\n'
             '   [ 2  3]]\n'
             '\n'
             '  [[ 4  5]\n'
             '   [ 6  7]]]\n'
             '\n'
             '\n'
             ' [[[ 8  9]\n'
             '   [10 11]]\n'
             '\n'
             '  [[12 13]\n'
             '   [14 15]]]]'),
            ('Tensor(shape=[2, 2, 2, 2], dtype=Int32, value=\n'
             '[[[[ 0,  1],\n'
             '   [ 2,  3]],\n'
             '  [[ 4,  5],\n'
             '   [ 6,  7]]],\n'
             ' [[[ 8,  9],\n'
             '   [10, 11]],\n'
             '  [[12, 13],\n'
             '   [14, 15]]]])')),
        't4_int8_6x6x6x6': (
            ('[[[[   0    1    2    3    4    5]\n'
             '   [   6    7    8    9   10   11]\n'
             '   [  12   13   14   15   16   17]\n'
             '   [  18   19   20   21   22   23]\n'
             '   [  24   25   26   27   28   29]\n'
             '   [  30   31   32   33   34   35]]\n'
             '\n'
             '  [[  36   37   38   39   40   41]\n'
             '   [  42   43   44   45   46   47]\n'
             '   [  48   49   50   51   52   53]\n'
             '   [  54   55   56   57   58   59]\n'
             '   [  60   61   62   63   64   65]\n'
             '   [  66   67   68   69   70   71]]\n'
             '\n'
             '  [[  72   73   74   75   76   77]\n'
             '   [  78   79   80   81   82   83]\n'
             '   [  84   85   86   87   88   89]\n'
             '   [  90   91   92   93   94   95]\n'
             '   [  96   97   98   99  100  101]\n'
             '   [ 102  103  104  105  106  107]]\n'
             '\n'
             '  [[ 108  109  110  111  112  113]\n'
             '   [ 114  115  116  117  118  119]\n'
             '   [ 120  121  122  123  124  125]\n'
             '   [ 126  127 -128 -127 -126 -125]\n'
             '   [-124 -123 -122 -121 -120 -119]\n'
             '   [-118 -117 -116 -115 -114 -113]]\n'
             '\n'
             '  [[-112 -111 -110 -109 -108 -107]\n'
             '   [-106 -105 -104 -103 -102 -101]\n'
             '   [-100  -99  -98  -97  -96  -95]\n'
             '   [ -94  -93  -92  -91  -90  -89]\n'
             '   [ -88  -87  -86  -85  -84  -83]\n'
             '   [ -82  -81  -80  -79  -78  -77]]\n'
             '\n'
             '  [[ -76  -75  -74  -73  -72  -71]\n'
             '   [ -70  -69  -68  -67  -66  -65]\n'
             '   [ -64  -63  -62  -61  -60  -59]\n'
             '   [ -58  -57  -56  -55  -54  -53]\n'
             '   [ -52  -51  -50  -49  -48  -47]\n'
             '   [ -46  -45  -44  -43  -42  -41]]]\n'
             '\n'
             '\n'
             ' [[[ -40  -39  -38  -37  -36  -35]\n'
             '   [ -34  -33  -32  -31  -30  -29]\n'
             '   [ -28  -27  -26  -25  -24  -23]\n'
             '   [ -22  -21  -20  -19  -18  -17]\n'
             '   [ -16  -15  -14  -13  -12  -11]\n'
             '   [ -10   -9   -8   -7   -6   -5]]\n'
             '\n'
             '  [[  -4   -3   -2   -1    0    1]\n'
             '   [   2    3    4    5    6    7]\n'
             '   [   8    9   10   11   12   13]\n'
             '   [  14   15   16   17   18   19]\n'
             '   [  20   21   22   23   24   25]\n'
             '   [  26   27   28   29   30   31]]\n'
             '\n'
             '  [[  32   33   34   35   36   37]\n'
             '   [  38   39   40   41   42   43]\n'
             '   [  44   45   46   47   48   49]\n'
             '   [  50   51   52   53   54   55]\n'
             '   [  56   57   58   59   60   61]\n'
             '   [  62   63   64   65   66   67]]\n'
             '\n'
             '  [[  68   69   70   71   72   73]\n'
             '   [  74   75   76   77   78   79]\n'
             '   [  80   81   82   83   84   85]\n'
             '   [  86   87   88   89   90   91]\n'
             '   [  92   93   94   95   96   97]\n'
             '   [  98   99  100  101  102  103]]\n'
             '\n'
             '  [[ 104  105  106  107  108  109]\n'
             '   [ 110  111  112  113  114  115]\n'
             '   [ 116  117  118  119  120  121]\n'
             '   [ 122  123  124  125  126  127]\n'
             '   [-128 -127 -126 -125 -124 -123]\n'
             '   [-122 -121 -120 -119 -118 -117]]\n'
             '\n'
             '  [[-116 -115 -114 -113 -112 -111]\n'
             '   [-110 -109 -108 -107 -106 -105]\n'
             '   [-104 -103 -102 -101 -100  -99]\n'
             '   [ -98  -97  -96  -95  -94  -93]\n'
             '   [ -92  -91  -90  -89  -88  -87]\n'
             '   [ -86  -85  -84  -83  -82  -81]]]\n'
             '\n'
             '\n'
             ' [[[ -80  -79  -78  -77  -76  -75]\n'
             '   [ -74  -73  -72  -71  -70  -69]\n'
             '   [ -68  -67  -66  -65  -64  -63]\n'
             '   [ -62  -61  -60  -59  -58  -57]\n'
             '   [ -56  -55  -54  -53  -52  -51]\n'
             '   [ -50  -49  -48  -47  -46  -45]]\n'
             '\n'
             '  [[ -44  -43  -42  -41  -40  -39]\n'
             '   [ -38  -37  -36  -35  -34  -33]\n'
             '   [ -32  -31  -30  -29  -28  -27]\n'
             '   [ -26  -25  -24  -23  -22  -21]\n'
             '   [ -20  -19  -18  -17  -16  -15]\n'
             '   [ -14  -13  -12  -11  -10   -9]]\n'
             '\n'
             '  [[  -8   -7   -6   -5   -4   -3]\n'
             '   [  -2   -1    0    1    2    3]\n'
             '   [   4    5    6    7    8    9]\n'
             '   [  10   11   12   13   14   15]\n'
             '   [  16   17   18   19   20   21]\n'
             '   [  22   23   24   25   26   27]]\n'
             '\n'
             '  [[  28   29   30   31   32   33]\n'
             '   [  34   35   36   37   38   39]\n'
             '   [  40   41   42   43   44   45]\n'
             '   [  46   47   48   49   50   51]\n'
             '   [  52   53   54   55   56   57]\n'
             '   [  58   59   60   61   62   63]]\n'
             '\n'
             '  [[  64   65   66   67   68   69]\n'
             '   [  70   71   72   73   74   75]\n'
             '   [  76   77   78   79   80   81]\n'
             '   [  82   83   84   85   86   87]\n'
             '   [  88   89   90   91   92   93]\n'
             '   [  94   95   96   97   98   99]]\n'
             '\n'
             '  [[ 100  101  102  103  104  105]\n'
             '   [ 106  107  108  109  110  111]\n'
             '   [ 112  113  114  115  116  117]\n'
             '   [ 118  119  120  121  122  123]\n'
             '   [ 124  125  126  127 -128 -127]\n'
             '   [-126 -125 -124 -123 -122 -121]]]\n'
             '\n'
             '\n'
             ' [[[-120 -119 -118 -117 -116 -115]\n'
             '   [-114 -113 -112 -111 -110 -109]\n'
             '   [-108 -107 -106 -105 -104 -103]\n'
             '   [-102 -101 -100  -99  -98  -97]\n'
             '   [ -96  -95  -94  -93  -92  -91]\n'
             '   [ -90  -89  -88  -87  -86  -85]]\n'
             '\n'
             '  [[ -84  -83  -82  -81  -80  -79]\n'
             '   [ -78  -77  -76  -75  -74  -73]\n'
             '   [ -72  -71  -70  -69  -68  -67]\n'
             '   [ -66  -65  -64  -63  -62  -61]\n'
             '   [ -60  -59  -58  -57  -56  -55]\n'
             '   [ -54  -53  -52  -51  -50  -49]]\n'
             '\n'
             '  [[ -48  -47  -46  -45  -44  -43]\n'
             '   [ -42  -41  -40  -39  -38  -37]\n'
             '   [ -36  -35  -34  -33  -32  -31]\n'
             '   [ -30  -29  -28  -27  -26  -25]\n'
             '   [ -24  -23  -22  -21  -20  -19]\n'
             '   [ -18  -17  -16  -15  -14  -13]]\n'
             '\n'
             '  [[ -12  -11  -10   -9   -8   -7]\n'
             '   [  -6   -5   -4   -3   -2   -1]\n'
             '   [   0    1    2    3    4    5]\n'
             '   [   6    7    8    9   10   11]\n'
             '   [  12   13   14   15   16   17]\n'
             '   [  18   19   20   21   22   23]]\n'
             '\n'
             '  [[  24   25   26   27   28   29]\n'
             '   [  30   31   32   33   34   35]\n'
             '   [  36   37   38   39   40   41]\n'
             '   [  42   43   44   45   46   47]\n'
             '   [  48   49   50   51   52   53]\n'
             '   [  54   55   56   57   58   59]]\n'
             '\n'
             '  [[  60   61   62   63   64   65]\n'
             '   [  66   67   68   69   70   71]\n'
             '   [  72   73   74   75   76   77]\n'
             '   [  78   79   80   81   82   83]\n'
             '   [  84   85   86   87   88   89]\n'
             '   [  90   91   92   93   94   95]]]\n'
             '\n'
             '\n'
             ' [[[  96   97   98   99  100  101]\n'
             '   [ 102  103  104  105  106  107]\n'
             '   [ 108  109  110  111  112  113]\n'
             '   [ 114  115  116  117  118  119]\n'
             '   [ 120  121  122  123  124  125]\n'
             '   [ 126  127 -128 -127 -126 -125]]\n'
             '\n'
             '  [[-124 -123 -122 -121 -120 -119]\n'
             '   [-118 -117 -116 -115 -114 -113]\n'
             '   [-112 -111 -110 -109 -108 -107]\n'
             '   [-106 -105 -104 -103 -102 -101]\n'
             '   [-100  -99  -98  -97  -96  -95]\n'
             '   [ -94  -93  -92  -91  -90  -89]]\n'
             '\n'
             '  [[ -88  -87  -86  -85  -84  -83]\n'
             '   [ -82  -81  -80  -79  -78  -77]\n'
             '   [ -76  -75  -74  -73  -72  -71]\n'
             '   [ -70  -69  -68  -67  -66  -65]\n'
             '   [ -64  -63  -62  -61  -60  -59]\n'
             '   [ -58  -57  -56  -55  -54  -53]]\n'
             '\n'
             '  [[ -52  -51  -50  -49  -48  -47]\n'
             '   [ -46  -45  -44  -43  -42  -41]\n'
             '   [ -40  -39  -38  -37  -36  -35]\n'
             '   [ -34  -33  -32  -31  -30  -29]\n'
             '   [ -28  -27  -26  -25  -24  -23]\n'
             '   [ -22  -21  -20  -19  -18  -17]]\n'
             '\n'
             '  [[ -16  -15  -14  -13  -12  -11]\n'
             '   [ -10   -9   -8   -7   -6   -5]\n'
             '   [  -4   -3   -2   -1    0    1]\n'
             '   [   2    3    4    5    6    7]\n'
             '   [   8    9   10   11   12   13]\n'
             '   [  14   15   16   17   18   19]]\n'
             '\n'
             '  [[  20   21   22   23   24   25]\n'
             '   [  26   27   28   29   30   31]\n'
             '   [  32   33   34   35   36   37]\n'
             '   [  38   39   40   41   42   43]\n'
             '   [  44   45   46   47   48   49]\n'
             '   [  50   51   52   53   54   55]]]\n'
             '\n'
             '\n'
             ' [[[  56   57   58   59   60   61]\n'
             '   [  62   63   64   65   66   67]\n'
             '   [  68   69   70   71   72   73]\n'
             '   [  74   75   76   77   78   79]\n'
             '   [  80   81   82   83   84   85]\n'
             '   [  86   87   88   89   90   91]]\n'
             '\n'
             '  [[  92   93   94   95   96   97]\n'
             '   [  98   99  100  101  102  103]\n'
             '   [ 104  105  106  107  108  109]\n'
             '   [ 110  111  112  113  114  115]\n'
             '   [ 116  117  118  119  120  121]\n'
             '   [ 122  123  124  125  126  127]]\n'
             '\n'
             '  [[-128 -127 -126 -125 -124 -123]\n'
             '   [-122 -121 -120 -119 -118 -117]\n'
             '   [-116 -115 -114 -113 -112 -111]\n'
             '   [-110 -109 -108 -107 -106 -105]\n'
             '   [-104 -103 -102 -101 -100  -99]\n'
             '   [ -98  -97  -96  -95  -94  -93]]\n'
             '\n'
             '  [[ -92  -91  -90  -89  -88  -87]\n'
             '   [ -86  -85  -84  -83  -82  -81]\n'
             '   [ -80  -79  -78  -77  -76  -75]\n'
             '   [ -74  -73  -72  -71  -70  -69]\n'
             '   [ -68  -67  -66  -65  -64  -63]\n'
             '   [ -62  -61  -60  -59  -58  -57]]\n'
             '\n'
             '  [[ -56  -55  -54  -53  -52  -51]\n'
             '   [ -50  -49  -48  -47  -46  -45]\n'
             '   [ -44  -43  -42  -41  -40  -39]\n'
             '   [ -38  -37  -36  -35  -34  -33]\n'
             '   [ -32  -31  -30  -29  -28  -27]\n'
             '   [ -26  -25  -24  -23  -22  -21]]\n'
             '\n'
             '  [[ -20  -19  -18  -17  -16  -15]\n'
             '   [ -14  -13  -12  -11  -10   -9]\n'
             '   [  -8   -7   -6   -5   -4   -3]\n'
             '   [  -2   -1    0    1    2    3]\n'
             '   [   4    5    6    7    8    9]\n'
             '   [  10   11   12   13   14   15]]]]'),
            ('Tensor(shape=[6, 6, 6, 6], dtype=Int8, value=\n'
             '[[[[   0,    1,    2,    3,    4,    5],\n'
             '   [   6,    7,    8,    9,   10,   11],\n'
             '   [  12,   13,   14,   15,   16,   17],\n'
             '   [  18,   19,   20,   21,   22,   23],\n'
             '   [  24,   25,   26,   27,   28,   29],\n'
             '   [  30,   31,   32,   33,   34,   35]],\n'
             '  [[  36,   37,   38,   39,   40,   41],\n'
             '   [  42,   43,   44,   45,   46,   47],\n'
             '   [  48,   49,   50,   51,   52,   53],\n'
             '   [  54,   55,   56,   57,   58,   59],\n'
             '   [  60,   61,   62,   63,   64,   65],\n'
             '   [  66,   67,   68,   69,   70,   71]],\n'
             '  [[  72,   73,   74,   75,   76,   77],\n'
             '   [  78,   79,   80,   81,   82,   83],\n'
             '   [  84,   85,   86,   87,   88,   89],\n'
             '   [  90,   91,   92,   93,   94,   95],\n'
             '   [  96,   97,   98,   99,  100,  101],\n'
             '   [ 102,  103,  104,  105,  106,  107]],\n'
             '  [[ 108,  109,  110,  111,  112,  113],\n'
             '   [ 114,  115,  116,  117,  118,  119],\n'
             '   [ 120,  121,  122,  123,  124,  125],\n'
             '   [ 126,  127, -128, -127, -126, -125],\n'
             '   [-124, -123, -122, -121, -120, -119],\n'
             '   [-118, -117, -116, -115, -114, -113]],\n'
             '  [[-112, -111, -110, -109, -108, -107],\n'
             '   [-106, -105, -104, -103, -102, -101],\n'
             '   [-100,  -99,  -98,  -97,  -96,  -95],\n'
             '   [ -94,  -93,  -92,  -91,  -90,  -89],\n'
             '   [ -88,  -87,  -86,  -85,  -84,  -83],\n'
             '   [ -82,  -81,  -80,  -79,  -78,  -77]],\n'
             '  [[ -76,  -75,  -74,  -73,  -72,  -71],\n'
             '   [ -70,  -69,  -68,  -67,  -66,  -65],\n'
             '   [ -64,  -63,  -62,  -61,  -60,  -59],\n'
             '   [ -58,  -57,  -56,  -55,  -54,  -53],\n'
             '   [ -52,  -51,  -50,  -49,  -48,  -47],\n'
             '   [ -46,  -45,  -44,  -43,  -42,  -41]]],\n'
             ' [[[ -40,  -39,  -38,  -37,  -36,  -35],\n'
             '   [ -34,  -33,  -32,  -31,  -30,  -29],\n'
             '   [ -28,  -27,  -26,  -25,  -24,  -23],\n'
             '   [ -22,  -21,  -20,  -19,  -18,  -17],\n'
             '   [ -16,  -15,  -14,  -13,  -12,  -11],\n'
             '   [ -10,   -9,   -8,   -7,   -6,   -5]],\n'
             '  [[  -4,   -3,   -2,   -1,    0,    1],\n'
             '   [   2,    3,    4,    5,    6,    7],\n'
             '   [   8,    9,   10,   11,   12,   13],\n'
             '   [  14,   15,   16,   17,   18,   19],\n'
             '   [  20,   21,   22,   23,   24,   25],\n'
             '   [  26,   27,   28,   29,   30,   31]],\n'
             '  [[  32,   33,   34,   35,   36,   37],\n'
             '   [  38,   39,   40,   41,   42,   43],\n'
             '   [  44,   45,   46,   47,   48,   49],\n'
             '   [  50,   51,   52,   53,   54,   55],\n'
             '   [  56,   57,   58,   59,   60,   61],\n'
             '   [  62,   63,   64,   65,   66,   67]],\n'
             '  [[  68,   69,   70,   71,   72,   73],\n'
             '   [  74,   75,   76,   77,   78,   79],\n'
             '   [  80,   81,   82,   83,   84,   85],\n'
             '   [  86,   87,   88,   89,   90,   91],\n'
             '   [  92,   93,   94,   95,   96,   97],\n'
             '   [  98,   99,  100,  101,  102,  103]],\n'
             '  [[ 104,  105,  106,  107,  108,  109],\n'
             '   [ 110,  111,  112,  113,  114,  115],\n'
             '   [ 116,  117,  118,  119,  120,  121],\n'
             '   [ 122,  123,  124,  125,  126,  127],\n'
             '   [-128, -127, -126, -125, -124, -123],\n'
             '   [-122, -121, -120, -119, -118, -117]],\n'
             '  [[-116, -115, -114, -113, -112, -111],\n'
             '   [-110, -109, -108, -107, -106, -105],\n'
             '   [-104, -103, -102, -101, -100,  -99],\n'
             '   [ -98,  -97,  -96,  -95,  -94,  -93],\n'
             '   [ -92,  -91,  -90,  -89,  -88,  -87],\n'
             '   [ -86,  -85,  -84,  -83,  -82,  -81]]],\n'
             ' [[[ -80,  -79,  -78,  -77,  -76,  -75],\n'
             '   [ -74,  -73,  -72,  -71,  -70,  -69],\n'
             '   [ -68,  -67,  -66,  -65,  -64,  -63],\n'
             '   [ -62,  -61,  -60,  -59,  -58,  -57],\n'
             '   [ -56,  -55,  -54,  -53,  -52,  -51],\n'
             '   [ -50,  -49,  -48,  -47,  -46,  -45]],\n'
             '  [[ -44,  -43,  -42,  -41,  -40,  -39],\n'
             '   [ -38,  -37,  -36,  -35,  -34,  -33],\n'
             '   [ -32,  -31,  -30,  -29,  -28,  -27],\n'
             '   [ -26,  -25,  -24,  -23,  -22,  -21],\n'
             '   [ -20,  -19,  -18,  -17,  -16,  -15],\n'
             '   [ -14,  -13,  -12,  -11,  -10,   -9]],\n'
             '  [[  -8,   -7,   -6,   -5,   -4,   -3],\n'
             '   [  -2,   -1,    0,    1,    2,    3],\n'
             '   [   4,    5,    6,    7,    8,    9],\n'
             '   [  10,   11,   12,   13,   14,   15],\n'
             '   [  16,   17,   18,   19,   20,   21],\n'
             '   [  22,   23,   24,   25,   26,   27]],\n'
             '  [[  28,   29,   30,   31,   32,   33],\n'
             '   [  34,   35,   36,   37,   38,   39],\n'
             '   [  40,   41,   42,   43,   44,   45],\n'
             '   [  46,   47,   48,   49,   50,   51],\n'
             '   [  52,   53,   54,   55,   56,   57],\n'
             '   [  58,   59,   60,   61,   62,   63]],\n'
             '  [[  64,   65,   66,   67,   68,   69],\n'
             '   [  70,   71,   72,   73,   74,   75],\n'
             '   [  76,   77,   78,   79,   80,   81],\n'
             '   [  82,   83,   84,   85,   86,   87],\n'
             '   [  88,   89,   90,   91,   92,   93],\n'
             '   [  94,   95,   96,   97,   98,   99]],\n'
             '  [[ 100,  101,  102,  103,  104,  105],\n'
             '   [ 106,  107,  108,  109,  110,  111],\n'
             '   [ 112,  113,  114,  115,  116,  117],\n'
             '   [ 118,  119,  120,  121,  122,  123],\n'
             '   [ 124,  125,  126,  127, -128, -127],\n'
             '   [-126, -125, -124, -123, -122, -121]]],\n'
             ' [[[-120, -119, -118, -117, -116, -115],\n'
             '   [-114, -113, -112, -111, -110, -109],\n'
             '   [-108, -107, -106, -105, -104, -103],\n'
             '   [-102, -101, -100,  -99,  -98,  -97],\n'
             '   [ -96,  -95,  -94,  -93,  -92,  -91],\n'
             '   [ -90,  -89,  -88,  -87,  -86,  -85]],\n'
             '  [[ -84,  -83,  -82,  -81,  -80,  -79],\n'
             '   [ -78,  -77,  -76,  -75,  -74,  -73],\n'
             '   [ -72,  -71,  -70,  -69,  -68,  -67],\n'
             '   [ -66,  -65,  -64,  -63,  -62,  -61],\n'
             '   [ -60,  -59,  -58,  -57,  -56,  -55],\n'
             '   [ -54,  -53,  -52,  -51,  -50,  -49]],\n'
             '  [[ -48,  -47,  -46,  -45,  -44,  -43],\n'
             '   [ -42,  -41,  -40,  -39,  -38,  -37],\n'
             '   [ -36,  -35,  -34,  -33,  -32,  -31],\n'
             '   [ -30,  -29,  -28,  -27,  -26,  -25],\n'
             '   [ -24,  -23,  -22,  -21,  -20,  -19],\n'
             '   [ -18,  -17,  -16,  -15,  -14,  -13]],\n'
             '  [[ -12,  -11,  -10,   -9,   -8,   -7],\n'
             '   [  -6,   -5,   -4,   -3,   -2,   -1],\n'
             '   [   0,    1,    2,    3,    4,    5],\n'
             '   [   6,    7,    8,    9,   10,   11],\n'
             '   [  12,   13,   14,   15,   16,   17],\n'
             '   [  18,   19,   20,   21,   22,   23]],\n'
             '  [[  24,   25,   26,   27,   28,   29],\n'
             '   [  30,   31,   32,   33,   34,   35],\n'
             '   [  36,   37,   38,   39,   40,   41],\n'
             '   [  42,   43,   44,   45,   46,   47],\n'
             '   [  48,   49,   50,   51,   52,   53],\n'
             '   [  54,   55,   56,   57,   58,   59]],\n'
             '  [[  60,   61,   62,   63,   64,   65],\n'
             '   [  66,   67,   68,   69,   70,   71],\n'
             '   [  72,   73,   74,   75,   76,   77],\n'
             '   [  78,   79,   80,   81,   82,   83],\n'
             '   [  84,   85,   86,   87,   88,   89],\n'
             '   [  90,   91,   92,   93,   94,   95]]],\n'
             ' [[[  96,   97,   98,   99,  100,  101],\n'
             '   [ 102,  103,  104,  105,  106,  107],\n'
             '   [ 108,  109,  110,  111,  112,  113],\n'
             '   [ 114,  115,  116,  117,  118,  119],\n'
             '   [ 120,  121,  122,  123,  124,  125],\n'
             '   [ 126,  127, -128, -127, -126, -125]],\n'
             '  [[-124, -123, -122, -121, -120, -119],\n'
             '   [-118, -117, -116, -115, -114, -113],\n'
             '   [-112, -111, -110, -109, -108, -107],\n'
             '   [-106, -105, -104, -103, -102, -101],\n'
             '   [-100,  -99,  -98,  -97,  -96,  -95],\n'
             '   [ -94,  -93,  -92,  -91,  -90,  -89]],\n'
             '  [[ -88,  -87,  -86,  -85,  -84,  -83],\n'
             '   [ -82,  -81,  -80,  -79,  -78,  -77],\n'
             '   [ -76,  -75,  -74,  -73,  -72,  -71],\n'
             '   [ -70,  -69,  -68,  -67,  -66,  -65],\n'
             '   [ -64,  -63,  -62,  -61,  -60,  -59],\n'
             '   [ -58,  -57,  -56,  -55,  -54,  -53]],\n'
             '  [[ -52,  -51,  -50,  -49,  -48,  -47],\n'
             '   [ -46,  -45,  -44,  -43,  -42,  -41],\n'
             '   [ -40,  -39,  -38,  -37,  -36,  -35],\n'
             '   [ -34,  -33,  -32,  -31,  -30,  -29],\n'
             '   [ -28,  -27,  -26,  -25,  -24,  -23],\n'
             '   [ -22,  -21,  -20,  -19,  -18,  -17]],\n'
             '  [[ -16,  -15,  -14,  -13,  -12,  -11],\n'
             '   [ -10,   -9,   -8,   -7,   -6,   -5],\n'
             '   [  -4,   -3,   -2,   -1,    0,    1],\n'
             '   [   2,    3,    4,    5,    6,    7],\n'
             '   [   8,    9,   10,   11,   12,   13],\n'
             '   [  14,   15,   16,   17,   18,   19]],\n'
             '  [[  20,   21,   22,   23,   24,   25],\n'
             '   [  26,   27,   28,   29,   30,   31],\n'
             '   [  32,   33,   34,   35,   36,   37],\n'
             '   [  38,   39,   40,   41,   42,   43],\n'
             '   [  44,   45,   46,   47,   48,   49],\n'
             '   [  50,   51,   52,   53,   54,   55]]],\n'
             ' [[[  56,   57,   58,   59,   60,   61],\n'
             '   [  62,   63,   64,   65,   66,   67],\n'
             '   [  68,   69,   70,   71,   72,   73],\n'
             '   [  74,   75,   76,   77,   78,   79],\n'
             '   [  80,   81,   82,   83,   84,   85],\n'
             '   [  86,   87,   88,   89,   90,   91]],\n'
             '  [[  92,   93,   94,   95,   96,   97],\n'
             '   [  98,   99,  100,  101,  102,  103],\n'
             '   [ 104,  105,  106,  107,  108,  109],\n'
             '   [ 110,  111,  112,  113,  114,  115],\n'
             '   [ 116,  117,  118,  119,  120,  121],\n'
             '   [ 122,  123,  124,  125,  126,  127]],\n'
             '  [[-128, -127, -126, -125, -124, -123],\n'
             '   [-122, -121, -120, -119, -118, -117],\n'
             '   [-116, -115, -114, -113, -112, -111],\n'
             '   [-110, -109, -108, -107, -106, -105],\n'
             '   [-104, -103, -102, -101, -100,  -99],\n'
             '   [ -98,  -97,  -96,  -95,  -94,  -93]],\n'
             '  [[ -92,  -91,  -90,  -89,  -88,  -87],\n'
             '   [ -86,  -85,  -84,  -83,  -82,  -81],\n'
             '   [ -80,  -79,  -78,  -77,  -76,  -75],\n'
             '   [ -74,  -73,  -72,  -71,  -70,  -69],\n'
             '   [ -68,  -67,  -66,  -65,  -64,  -63],\n'
             '   [ -62,  -61,  -60,  -59,  -58,  -57]],\n'
             '  [[ -56,  -55,  -54,  -53,  -52,  -51],\n'
             '   [ -50,  -49,  -48,  -47,  -46,  -45],\n'
             '   [ -44,  -43,  -42,  -41,  -40,  -39],\n'
             '   [ -38,  -37,  -36,  -35,  -34,  -33],\n'
             '   [ -32,  -31,  -30,  -29,  -28,  -27],\n'
             '   [ -26,  -25,  -24,  -23,  -22,  -21]],\n'
             '  [[ -20,  -19,  -18,  -17,  -16,  -15],\n'
             '   [ -14,  -13,  -12,  -11,  -10,   -9],\n'
             '   [  -8,   -7,   -6,   -5,   -4,   -3],\n'
             '   [  -2,   -1,    0,    1,    2,    3],\n'
             '   [   4,    5,    6,    7,    8,    9],\n'
             '   [  10,   11,   12,   13,   14,   15]]]])')),
        't5_float64_ones': (
            ('[[[[[1. 1.]]\n'
             '\n'
             '   [[1. 1.]]]]\n'
             '\n'
             '\n'
             '\n'
             ' [[[[1. 1.]]\n'
             '\n'
             '   [[1. 1.]]]]]'),
            ('Tensor(shape=[2, 1, 2, 1, 2], dtype=Float64, value=\n'
             '[[[[[ 1.00000000e+00,  1.00000000e+00]],\n'
             '   [[ 1.00000000e+00,  1.00000000e+00]]]],\n'
             ' [[[[ 1.00000000e+00,  1.00000000e+00]],\n'
             '   [[ 1.00000000e+00,  1.00000000e+00]]]]])')),
        'empty_float32': (
            '[]',
            'Tensor(shape=[0], dtype=Float32, value= )'),
        'empty_int32': (
            '[]',
            'Tensor(shape=[0], dtype=Int32, value= )'),
        'empty_bool': (
            '[]',
            'Tensor(shape=[0], dtype=Bool, value= )'),
        'empty_int32_2x0': (
            '[]',
            ('Tensor(shape=[2, 0], dtype=Int32, value=\n'
             ')')),
        'empty_float32_0x3': (
            '[]',
            ('Tensor(shape=[0, 3], dtype=Float32, value=\n'
             ')')),
        'empty_float64_1x0': (
            '[]',
            ('Tensor(shape=[1, 0], dtype=Float64, value=\n'
             ')')),
        'empty_float32_3x0x2': (
            '[]',
            ('Tensor(shape=[3, 0, 2], dtype=Float32, value=\n'
             ')')),
    },
    'python_value': {
        'int': (
            '3',
            'Tensor(shape=[], dtype=Int64, value= 3)'),
        'neg_int': (
            '-1',
            'Tensor(shape=[], dtype=Int64, value= -1)'),
        'zero': (
            '0',
            'Tensor(shape=[], dtype=Int64, value= 0)'),
        'float': (
            '2.5',
            'Tensor(shape=[], dtype=Float32, value= 2.5)'),
        'bool': (
            'True',
            'Tensor(shape=[], dtype=Bool, value= True)'),
        'float16_2.5': (
            '2.5',
            'Tensor(shape=[], dtype=Float16, value= 2.5)'),
        'float16_0.1': (
            '0.1',
            'Tensor(shape=[], dtype=Float16, value= 0.0999756)'),
        'float16_minf': (
            '-inf',
            'Tensor(shape=[], dtype=Float16, value= -inf)'),
        'float32_1e-8': (
            '1e-08',
            'Tensor(shape=[], dtype=Float32, value= 1e-08)'),
        'float32_1e10': (
            '10000000000.0',
            'Tensor(shape=[], dtype=Float32, value= 1e+10)'),
        'float32_nan': (
            'nan',
            'Tensor(shape=[], dtype=Float32, value= nan)'),
        'float64_1e10': (
            '10000000000.0',
            'Tensor(shape=[], dtype=Float64, value= 1e+10)'),
        'float64_inf': (
            'inf',
            'Tensor(shape=[], dtype=Float64, value= inf)'),
        'int32_2.5': (
            '2',
            'Tensor(shape=[], dtype=Int32, value= 2)'),
        'uint8_3': (
            '3',
            'Tensor(shape=[], dtype=UInt8, value= 3)'),
        'int64_1e10': (
            '10000000000',
            'Tensor(shape=[], dtype=Int64, value= 10000000000)'),
        'int8_m1': (
            '-1',
            'Tensor(shape=[], dtype=Int8, value= -1)'),
        'int16_3': (
            '3',
            'Tensor(shape=[], dtype=Int16, value= 3)'),
        'bool_1': (
            'True',
            'Tensor(shape=[], dtype=Bool, value= True)'),
        'bool_0': (
            'False',
            'Tensor(shape=[], dtype=Bool, value= False)'),
        'list_int': (
            '[1 2 3]',
            'Tensor(shape=[3], dtype=Int64, value= [1, 2, 3])'),
        'list_float': (
            '[1.  2.5]',
            ('Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2'
             '.50000000e+00])')),
        'list_bool': (
            ('[[ True]\n'
             ' [False]]'),
            ('Tensor(shape=[2, 1], dtype=Bool, value=\n'
             '[[ True],\n'
             ' [False]])')),
        'list_float64': (
            '[5.e-01 1.e-08]',
            ('Tensor(shape=[2], dtype=Float64, value= [ 5.00000000e-01,  1'
             '.00000000e-08])')),
    },
    'print': {
        'string':
            'hello\n',
        'strings_and_tensor':
            ('a\n'
             'Tensor(shape=[3], dtype=Int64, value= [1, 2, 3])\n'
             'b\n'),
        'tensor_scalar_float':
            'Tensor(shape=[], dtype=Float32, value= 3.5)\n',
        'tensor_scalar_float16':
            'Tensor(shape=[], dtype=Float16, value= 0.0999756)\n',
        'tensor_scalar_uint8':
            'Tensor(shape=[], dtype=UInt8, value= 255)\n',
        'tensor_scalar_bool':
            'Tensor(shape=[], dtype=Bool, value= True)\n',
        'tensor_matrix':
            ('Tensor(shape=[2, 2], dtype=Float32, value=\n'
             '[[ 1.50000000e+00,  2.00000000e+00],\n'
             ' [ 3.00000000e+00,  4.00000000e+00]])\n'),
        'tensor_int_matrix':
            ('Tensor(shape=[2, 1], dtype=Int32, value=\n'
             '[[1],\n'
             ' [1]])\n'
             'Tensor(shape=[2, 2], dtype=Int32, value=\n'
             '[[1, 1],\n'
             ' [1, 1]])\n'),
        'tensor_bool_matrix':
            ('Tensor(shape=[1, 2], dtype=Bool, value=\n'
             '[[ True,  True]])\n'),
        'tensor_empty':
            'Tensor(shape=[0], dtype=Float32, value= )\n',
        'tensor_large_1d':
            ('Tensor(shape=[2000], dtype=Int32, value= [   0,    1,    2 .'
             '.. 1997, 1998, 1999])\n'),
        'tensor_large_2d':
            ('Tensor(shape=[100, 100], dtype=Float32, value=\n'
             '[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00 ...  9.7'
             '0000000e+01,  9.80000000e+01,  9.90000000e+01],\n'
             ' [ 1.00000000e+02,  1.01000000e+02,  1.02000000e+02 ...  1.9'
             '7000000e+02,  1.98000000e+02,  1.99000000e+02],\n'
             ' [ 2.00000000e+02,  2.01000000e+02,  2.02000000e+02 ...  2.9'
             '7000000e+02,  2.98000000e+02,  2.99000000e+02],\n'
             ' ...\n'
             ' [ 9.70000000e+03,  9.70100000e+03,  9.70200000e+03 ...  9.7'
             '9700000e+03,  9.79800000e+03,  9.79900000e+03],\n'
             ' [ 9.80000000e+03,  9.80100000e+03,  9.80200000e+03 ...  9.8'
             '9700000e+03,  9.89800000e+03,  9.89900000e+03],\n'
             ' [ 9.90000000e+03,  9.90100000e+03,  9.90200000e+03 ...  9.9'
             '9700000e+03,  9.99800000e+03,  9.99900000e+03]])\n'),
        'tuple_of_tensors':
            ('(Tensor(shape=[], dtype=Int64, value= 1), Tensor(shape=[2], '
             'dtype=Int64, value= [2, 3]))\n'),
        'tuple_one':
            '(Tensor(shape=[], dtype=Float32, value= 1.5),)\n',
        'tuple_mixed':
            "('x', 1.5, Tensor(shape=[1], dtype=Bool, value= [ True]))\n",
        'tuple_nested':
            "(1, (2, 's'))\n",
        'tuple_empty':
            '()\n',
        'list':
            '[1, 2]\n',
        'python_scalars':
            ('1\n'
             '2.5\n'
             'True\n'
             '3.0\n'
             '10000000000.0\n'
             '0.1\n'
             '-0.0\n'
             '1e-08\n'
             '0.3333333333333333\n'),
        'multi':
            ('multi\n'
             'args\n'
             '3\n'),
        'none':
            'None\n',
    },
    'dtype': {
        'bool_': ('Bool', 'mindspore.bool'),
        'int8': ('Int8', 'mindspore.int8'),
        'int16': ('Int16', 'mindspore.int16'),
        'int32': ('Int32', 'mindspore.int32'),
        'int64': ('Int64', 'mindspore.int64'),
        'uint8': ('UInt8', 'mindspore.uint8'),
        'float16': ('Float16', 'mindspore.float16'),
        'float32': ('Float32', 'mindspore.float32'),
        'float64': ('Float64', 'mindspore.float64'),
    },
}
