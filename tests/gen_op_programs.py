"""Seeded generator of small op-level programs: dtypes, promotion, indexing, builtins.

``generate(seed)`` returns a :class:`gen_programs.Program` whose source defines
``def f(x, y):`` over tensors of mixed dtypes (float32, float16, int32, int64, bool) and
shapes ((), (3,), (2, 3)). Where ``gen_programs`` stresses control flow, these programs
stress what each statement means: type promotion between tensors and Python scalars,
true/floor division and modulo with negative operands, comparisons and bool arithmetic,
reductions with ``axis``/``keepdims``, broadcasting, getitem/setitem with ints, slices,
negative steps, bool masks and tensor indices, tuples and lists, augmented assignment,
``min``/``max``/``abs``/``len``/``isinstance``, closures, tensor ``while``/``if``,
in-place Tensor methods, ``ops.select``/``ops.where`` and ``ms.mutable``.

The generator tracks each value's (dtype, shape) with a simple model of MindSpore's
promotion; where an op needs a float or a nonzero divisor it says so in the program
(``.astype(ms.float32)``, ``ops.abs(d) + 1``). A program the model gets wrong raises in
both modes, which the oracle counts as agreement. Every value stays small (inputs are
multiples of 0.25 in [-3, 3] or ints in [-5, 5]), so float16 results are exact or close.

``python tests/gen_op_programs.py SEED`` prints a program.
"""
from __future__ import annotations

import random
import sys

import numpy as np
from gen_programs import Program

FLOATS = ("float32", "float16")
INTS = ("int32", "int64")
BOOL = "bool_"
SHAPES = ((), (3,), (2, 3))
HEADER = "import graphkiln as ms\nfrom graphkiln import ops\n\n\n"
# forms where MindSpore 2.10 CPU disagrees with itself (PyNative against GRAPH) or fails:
# augmented assignment is in place in PyNative (an alias sees it; the dtype stays) and not
# in GRAPH; in-place Tensor methods have no CPU kernels; setitem with a negative-step slice
# or an ellipsis fails in TensorScatterUpdate or leaves elements unset; getitem with a
# negative step and a negative stop drops elements; a closure reading a variable rebound
# after its ``def`` sees the new value in PyNative, the old one in GRAPH; setitem into a
# bool tensor fails in GRAPH; the sum of an empty mask selection is garbage (seed 769)
MINDSPORE_UNSAFE = ("aug", "inplace", "neg_step", "ellipsis")
_ORDER = {BOOL: 0, "int32": 1, "int64": 2, "float16": 3, "float32": 4}


def promote(a: str, b: str) -> str:
    """The result dtype of a tensor-tensor arithmetic op (the model the generator uses)."""
    if (a in FLOATS) != (b in FLOATS):
        return a if a in FLOATS else b
    return a if _ORDER[a] >= _ORDER[b] else b


def with_scalar(dt: str, kind: str) -> str:
    """The dtype of ``tensor(dt) op python_scalar(kind)``."""
    if kind == "float" and dt not in FLOATS:
        return "float32"
    if kind == "int" and dt == BOOL:
        return "int64"
    return dt


def bshape(a: tuple, b: tuple) -> tuple:
    return tuple(np.broadcast_shapes(a, b))


class _OpGen:
    """Emits the statements of ``f``; ``self.vars`` maps a name to its (dtype, shape), or to
    ``("py", kind)`` for a Python number, or ``("tuple", [types])``."""

    def __init__(self, r: random.Random, x_t: tuple, y_t: tuple, mindspore_safe: bool = False):
        self.r = r
        self.mindspore_safe = mindspore_safe
        self.vars: dict = {"x": x_t, "y": y_t}
        self.lines: list[str] = []
        self.n = 0
        self.returned_numbers: list[str] = []  # Python numbers the program returns

    def fresh(self, prefix: str = "v") -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def emit(self, ind: int, text: str) -> None:
        self.lines.append("    " * ind + text)

    # ------------------------------------------------------------ operands
    def tensors(self, pred=None) -> list:
        return sorted(n for n, t in self.vars.items()
                      if t[0] not in ("py", "tuple") and (pred is None or pred(t)))

    def pick(self, pred=None) -> tuple[str, tuple] | None:
        names = self.tensors(pred)
        if not names:
            return None
        n = self.r.choice(names)
        return n, self.vars[n]

    def const(self, t: tuple) -> str:
        dt, shape = t
        r = self.r
        size = int(np.prod(shape)) if shape else 1
        if dt == BOOL:
            vals = [r.choice(["True", "False"]) for _ in range(size)]
        elif dt in INTS:
            vals = [str(r.randint(-4, 4)) for _ in range(size)]
        else:
            vals = [str(r.randint(-8, 8) / 4) for _ in range(size)]
        if not shape:
            text = vals[0]
        elif len(shape) == 1:
            text = f"[{', '.join(vals)}]"
        else:
            rows = [vals[i * shape[1]:(i + 1) * shape[1]] for i in range(shape[0])]
            text = "[" + ", ".join(f"[{', '.join(row)}]" for row in rows) + "]"
        return f"ms.Tensor({text}, ms.{dt})"

    def py_number(self, kind: str | None = None) -> tuple[str, str]:
        kind = kind or self.r.choice(["int", "int", "float", "bool"])
        py = [n for n, t in self.vars.items() if t == ("py", kind)]
        if py and self.r.random() < 0.4:
            return self.r.choice(py), kind
        if kind == "int":
            return self.r.choice(["2", "3", "-2", "1", "0", "-3"]), kind
        if kind == "float":
            return self.r.choice(["0.5", "-1.5", "2.0", "0.25", "-0.75"]), kind
        return self.r.choice(["True", "False"]), kind

    def operand(self, depth: int, pred=None) -> tuple[str, tuple]:
        """A tensor expression (a variable, a constant, or a nested op)."""
        r = self.r
        if depth > 0 and r.random() < 0.5:
            e = self.expr(depth - 1)
            if pred is None or pred(e[1]):
                return e
        got = self.pick(pred)
        if got is None or r.random() < 0.1:
            types = [(dt, sh) for dt in (*FLOATS, *INTS, BOOL) for sh in SHAPES]
            types = [t for t in types if pred is None or pred(t)] or [("float32", ())]
            t = r.choice(types)
            return self.const(t), t
        return got

    def as_float(self, e: str, t: tuple) -> tuple[str, tuple]:
        if t[0] in FLOATS:
            return e, t
        return f"{e}.astype(ms.float32)", ("float32", t[1])

    def as_numeric(self, e: str, t: tuple) -> tuple[str, tuple]:
        if t[0] != BOOL:
            return e, t
        dt = self.r.choice(["int32", "int64", "float32"])
        return f"{e}.astype(ms.{dt})", (dt, t[1])

    def nonzero(self, dt: str, depth: int, shape: tuple) -> tuple[str, tuple | str]:
        """A divisor that is never 0: a Python number or a shifted tensor; its sign varies."""
        r = self.r
        if r.random() < 0.4:
            if dt in FLOATS and r.random() < 0.5:
                return r.choice(["0.75", "-1.5", "2.0", "-0.5"]), "float"
            return r.choice(["2", "-2", "3", "-3", "1", "-1"]), "int"
        e, t = self.as_numeric(*self.operand(
            depth, lambda t: t[0] != BOOL and _broadcasts(t[1], shape)))
        sign = r.choice(["", "-"])
        return f"({sign}(ops.abs({e}) + 1))", t

    # ------------------------------------------------------------ expressions
    def expr(self, depth: int = 2) -> tuple[str, tuple]:
        r = self.r
        if depth <= 0:
            return self.operand(0)
        kind = r.choice(["arith"] * 3 + ["scalar_arith"] * 2 + [
            "div", "floordiv", "floordiv", "cmp", "cmp", "logic", "unary", "unary", "cast",
            "reduce", "reduce", "getitem", "getitem", "where", "minmax", "pow", "cum",
            "builtin_abs", "scalar_tensor", "builtin_minmax", "chain"])
        return getattr(self, "e_" + kind)(depth - 1)

    def e_arith(self, d: int) -> tuple[str, tuple]:
        a, ta = self.operand(d)
        b, tb = self.operand(d, lambda t: _broadcasts(t[1], ta[1]))
        op = self.r.choice(["+", "-", "*"])
        if ta[0] == BOOL and tb[0] == BOOL:  # bool +/- bool: MindSpore's modes disagree
            op = "*"
        fn = self.r.random() < 0.2
        if fn:
            name = {"+": "ops.add", "-": "ops.sub", "*": "ops.mul"}[op]
            return f"{name}({a}, {b})", (promote(ta[0], tb[0]), bshape(ta[1], tb[1]))
        return f"({a} {op} {b})", (promote(ta[0], tb[0]), bshape(ta[1], tb[1]))

    def e_scalar_arith(self, d: int) -> tuple[str, tuple]:
        a, ta = self.operand(d)
        s, kind = self.py_number()
        op = self.r.choice(["+", "-", "*"])
        if ta[0] == BOOL and kind == "bool":  # (as bool +/- bool)
            op = "*"
        dt = with_scalar(ta[0], kind)
        if ta[0] == BOOL and kind == "bool":
            dt = BOOL if op != "+" else "int64"
        if self.r.random() < 0.5:
            return f"({s} {op} {a})", (dt, ta[1])
        return f"({a} {op} {s})", (dt, ta[1])

    def e_div(self, d: int) -> tuple[str, tuple]:
        a, ta = self.operand(d)
        b, tb = self.nonzero(ta[0], d, ta[1])
        shape = ta[1] if isinstance(tb, str) else bshape(ta[1], tb[1])
        dtb = ta[0] if isinstance(tb, str) else tb[0]
        dt = promote(ta[0], dtb)
        dt = dt if dt in FLOATS else "float32"
        form = self.r.choice(["{a} / {b}", "ops.div({a}, {b})", "ops.true_divide({a}, {b})"])
        if isinstance(tb, str) and form != "{a} / {b}":
            form = "{a} / {b}"
        return "(" + form.format(a=a, b=b) + ")", (dt, shape)

    def e_floordiv(self, d: int) -> tuple[str, tuple]:
        a, ta = self.as_numeric(*self.operand(d))
        b, tb = self.nonzero(ta[0], d, ta[1])
        scalar = isinstance(tb, str)
        shape = ta[1] if scalar else bshape(ta[1], tb[1])
        dt = with_scalar(ta[0], tb) if scalar else promote(ta[0], tb[0])
        forms = ["({a} // {b})", "({a} % {b})"]
        if not scalar:
            forms += ["ops.floor_div({a}, {b})", "ops.floor_mod({a}, {b})",
                      "ops.remainder({a}, {b})",
                      "ops.div({a}, {b}, rounding_mode='floor')",
                      "ops.div({a}, {b}, rounding_mode='trunc')"]
            if dt in INTS:  # (MindSpore's gradient of fmod is not its derivative)
                forms.append("ops.fmod({a}, {b})")
        form = self.r.choice(forms)
        return form.format(a=a, b=b), (dt, shape)

    def e_cmp(self, d: int) -> tuple[str, tuple]:
        a, ta = self.operand(d)
        r = self.r
        if r.random() < 0.4:
            s, _ = self.py_number(r.choice(["int", "float"]))
            return f"({a} {r.choice(['<', '<=', '>', '>=', '==', '!='])} {s})", (BOOL, ta[1])
        b, tb = self.operand(d, lambda t: _broadcasts(t[1], ta[1]))
        op = r.choice(["<", "<=", ">", ">=", "==", "!=", "ops.equal", "ops.ne", "ops.gt",
                       "ops.le"])
        text = f"{op}({a}, {b})" if op.startswith("ops.") else f"({a} {op} {b})"
        return text, (BOOL, bshape(ta[1], tb[1]))

    def e_logic(self, d: int) -> tuple[str, tuple]:
        r = self.r
        a, ta = self.operand(d, lambda t: t[0] == BOOL)
        if ta[0] != BOOL:
            a, ta = f"({a} > 0)", (BOOL, ta[1])
        if r.random() < 0.3:
            return r.choice([f"(~{a})", f"ops.logical_not({a})"]), ta
        b, tb = self.operand(d, lambda t: t[0] == BOOL and _broadcasts(t[1], ta[1]))
        if tb[0] != BOOL:
            b, tb = f"({b} < 1)", (BOOL, tb[1])
        op = r.choice(["&", "|", "^", "ops.logical_and", "ops.logical_or", "ops.logical_xor"])
        text = f"{op}({a}, {b})" if op.startswith("ops.") else f"({a} {op} {b})"
        return text, (BOOL, bshape(ta[1], tb[1]))

    def e_unary(self, d: int) -> tuple[str, tuple]:
        r = self.r
        a, ta = self.operand(d)
        k = r.choice(["neg", "abs", "sign", "square", "float_fn", "round", "relu"])
        if k in ("neg", "abs", "sign", "square"):
            a, ta = self.as_numeric(a, ta)
            text = {"neg": r.choice([f"(-{a})", f"ops.neg({a})"]),
                    "abs": r.choice([f"ops.abs({a})", f"{a}.abs()"]),
                    "sign": f"ops.sign({a})", "square": f"ops.square({a})"}[k]
            return text, ta
        a, ta = self.as_float(a, ta)
        if k == "float_fn":
            fn = r.choice(["ops.tanh", "ops.sigmoid", "ops.sin", "ops.exp"])
            if fn == "ops.exp":
                a = f"ops.tanh({a})"
            return f"{fn}({a})", ta
        if k == "round":
            return f"{r.choice(['ops.floor', 'ops.ceil', 'ops.round', 'ops.trunc'])}({a})", ta
        return f"ops.relu({a})", ta

    def e_cast(self, d: int) -> tuple[str, tuple]:
        a, ta = self.operand(d)
        dt = self.r.choice([*FLOATS, *INTS, BOOL])
        form = self.r.choice(["{a}.astype(ms.{dt})", "ops.cast({a}, ms.{dt})"])
        if dt in ("float32", "int32", "int64") and self.r.random() < 0.3:
            method = {"float32": "float", "int32": "int", "int64": "long"}[dt]
            return f"{a}.{method}()", (dt, ta[1])
        return form.format(a=a, dt=dt), (dt, ta[1])

    def e_reduce(self, d: int) -> tuple[str, tuple]:
        r = self.r
        a, ta = self.operand(d)
        shape = ta[1]
        axis = r.choice([None] + list(range(-len(shape), len(shape))))
        keep = r.random() < 0.4
        if axis is None:
            out = tuple(1 for _ in shape) if keep else ()
        else:
            ax = axis % len(shape)
            out = tuple(1 if i == ax else s for i, s in enumerate(shape)) if keep else \
                tuple(s for i, s in enumerate(shape) if i != ax)
        k = r.choice(["sum", "sum", "max", "min", "mean", "prod", "all", "any", "argmax"])
        if k in ("all", "any"):
            if ta[0] != BOOL:
                a = f"({a} > 0)"
            return f"{a}.{k}({_kw(axis, keep, 'axis', 'keep_dims')})", (BOOL, out)
        if k == "mean":
            a, ta = self.as_float(a, ta)
            fn = r.choice([f"{a}.mean({_kw(axis, keep, 'axis', 'keep_dims')})",
                           f"ops.mean({a}, {_kw(axis, keep, '', 'keep_dims')})"])
            return fn.replace(", )", ")"), (ta[0], out)
        if k == "argmax":
            if axis is None or ta[0] == BOOL:
                return f"{a}.sum()", (_sum_dtype(ta[0]), ())
            return f"ops.argmax({a}, {axis}, {keep})", ("int64", out)
        if k == "sum":
            if r.random() < 0.4:
                text = f"ops.sum({a}, {_kw(axis, keep, '', 'keepdim')})".replace(", )", ")")
                return text, (_sum_dtype(ta[0]), out)
            return f"{a}.sum({_kw(axis, keep, 'axis', 'keepdims')})", (_sum_dtype(ta[0]), out)
        a, ta = self.as_numeric(a, ta)
        if k == "prod":
            return f"{a}.prod({_kw(axis, keep, '', 'keepdim')})", (_sum_dtype(ta[0]), out)
        return f"{a}.{k}({_kw(axis, keep, 'axis', 'keepdims')})", (ta[0], out)

    def e_cum(self, d: int) -> tuple[str, tuple]:
        a, ta = self.as_numeric(*self.operand(d, lambda t: t[1] != ()))
        if ta[1] == ():
            return a, ta
        axis = self.r.choice(range(-len(ta[1]), len(ta[1])))
        return f"ops.cumsum({a}, {axis})", ta

    def e_getitem(self, d: int) -> tuple[str, tuple]:
        r = self.r
        a, ta = self.operand(d, lambda t: t[1] != ())
        shape = ta[1]
        if shape == ():
            return a, ta
        k = r.choice(["int", "slice", "slice", "mask", "tensor", "ellipsis", "none", "scalar_t"])
        n0 = shape[0]
        if k == "int":
            i = r.randint(-n0, n0 - 1)
            return f"{a}[{i}]", (ta[0], shape[1:])
        if k == "slice":
            # (MindSpore 2.10 reads b[-1:-3:-1] and y[1::-1, 1:2] wrongly: with
            # mindspore_safe, only positive steps)
            idx, size = _slice(r, n0, negative=not self.mindspore_safe)
            if len(shape) == 2 and r.random() < 0.5:
                idx2, size2 = _slice(r, shape[1], negative=not self.mindspore_safe)
                return f"{a}[{idx}, {idx2}]", (ta[0], (size, size2))
            return f"{a}[{idx}]", (ta[0], (size,) + shape[1:])
        if k == "ellipsis":
            i = r.randint(-shape[-1], shape[-1] - 1)
            return f"{a}[..., {i}]", (ta[0], shape[:-1])
        if k == "none":
            if len(shape) < 2:
                return f"{a}[None]", (ta[0], (1,) + shape)
            return f"{a}[None][0]", ta
        if k == "mask" and self.mindspore_safe:
            k = "int"
        if k == "int":
            i = r.randint(-n0, n0 - 1)
            return f"{a}[{i}]", (ta[0], shape[1:])
        if k == "mask":  # a dynamic shape: reduce it at once
            m, _ = self.operand(0, lambda t: t[0] == BOOL and t[1] == shape)
            if not m.startswith("(") and self.vars.get(m, ("",))[0] != BOOL:
                m = f"({a} > 0)"
            return f"{a}[{m}].sum()", (_sum_dtype(ta[0]), ())
        if k == "scalar_t":  # a 0-d int tensor index computed from the data
            i, ti = self.as_numeric(*self.operand(0, lambda t: t[0] in INTS and t[1] == ()))
            if ti[0] not in INTS or ti[1] != ():
                return f"{a}[0]", (ta[0], shape[1:])
            return f"{a}[{i} % {n0}]", (ta[0], shape[1:])
        idx = [r.randint(-n0, n0 - 1) for _ in range(r.randint(1, 3))]
        return f"{a}[ms.Tensor({idx})]", (ta[0], (len(idx),) + shape[1:])

    def e_where(self, d: int) -> tuple[str, tuple]:
        r = self.r
        c, tc = self.e_cmp(d)
        a, ta = self.operand(d, lambda t: _broadcasts(t[1], tc[1]))
        b, tb = self.operand(d, lambda t: t[0] == ta[0] and _broadcasts(t[1], bshape(
            ta[1], tc[1])))
        if r.random() < 0.5 or tb[0] != ta[0]:
            if r.random() < 0.3:
                s, kind = self.py_number("float" if ta[0] in FLOATS else "int")
                return f"ops.where({c}, {a}, {s})", (ta[0], bshape(ta[1], tc[1]))
            return f"ops.where({c}, {a}, {b})", (promote(ta[0], tb[0]),
                                                 bshape(bshape(ta[1], tb[1]), tc[1]))
        return f"ops.select({c}, {a}, {b})", (ta[0], bshape(bshape(ta[1], tb[1]), tc[1]))

    def e_minmax(self, d: int) -> tuple[str, tuple]:
        a, ta = self.as_numeric(*self.operand(d))
        b, tb = self.as_numeric(*self.operand(d, lambda t: _broadcasts(t[1], ta[1])))
        fn = self.r.choice(["ops.maximum", "ops.minimum"])
        return f"{fn}({a}, {b})", (promote(ta[0], tb[0]), bshape(ta[1], tb[1]))

    def e_pow(self, d: int) -> tuple[str, tuple]:
        a, ta = self.as_numeric(*self.operand(d))
        k = self.r.choice(["sq", "sq", "half", "tensor"])
        if k == "sq":
            return self.r.choice([f"({a} ** 2)", f"ops.pow({a}, 2)"]), ta
        a, ta = self.as_float(a, ta)
        if k == "half":
            return f"(ops.abs({a}) ** 0.5)", ta
        return f"(2 ** ops.tanh({a}))", ta

    def e_builtin_abs(self, d: int) -> tuple[str, tuple]:
        a, ta = self.as_numeric(*self.operand(d))
        return f"abs({a})", ta

    def e_builtin_minmax(self, d: int) -> tuple[str, tuple]:
        """Python's ``min``/``max`` of 0-d tensors (a comparison picks one)."""
        a, ta = self.as_numeric(*self.operand(d, lambda t: t[1] == () and t[0] != BOOL))
        if ta[1] != ():
            a, ta = f"{a}.sum()", (_sum_dtype(ta[0]), ())
        b, tb = self.operand(d, lambda t: t == ta)
        if tb != ta:
            b = f"ops.cast({b}.sum(), ms.{ta[0]})" if tb[1] else f"ops.cast({b}, ms.{ta[0]})"
        return f"{self.r.choice(['min', 'max'])}({a}, {b})", ta

    def e_chain(self, d: int) -> tuple[str, tuple]:
        """A chained comparison of 0-d tensors, as a bool tensor via a ternary."""
        a, ta = self.as_numeric(*self.operand(d, lambda t: t[1] == ()))
        if ta[1] != ():
            a = f"{a}.sum()"
        lo, _ = self.py_number("int")
        hi, _ = self.py_number("float")
        e, te = self.as_numeric(*self.operand(d))
        op = self.r.choice(["<", "<="])
        return f"({e} if {lo} {op} {a} {op} {hi} else {e} * 2)", te

    def e_scalar_tensor(self, d: int) -> tuple[str, tuple]:
        """A Python scalar from a builtin (len, shape, min/max, isinstance) with a tensor."""
        r = self.r
        a, ta = self.operand(d)
        k = r.choice(["len", "shape", "minmax", "isinstance", "ndim"])
        if k == "len" and ta[1]:
            s = f"len({a})"
        elif k == "shape" and ta[1]:
            s = f"{a}.shape[-1]"
        elif k == "minmax" and ta[1]:
            s = f"{r.choice(['min', 'max'])}({a}.shape[0], 2)"
        elif k == "isinstance":
            s = f"(2 if isinstance({a}, ms.Tensor) else 3)"
        else:
            s = f"({a}.ndim + 1)"
        b, tb = self.operand(d)
        return f"({b} * {s})", (with_scalar(tb[0], "int"), tb[1])

    # ------------------------------------------------------------ statements
    def stmt(self, ind: int, depth: int) -> None:
        kinds = ["assign"] * 5 + ["aug", "aug", "setitem", "setitem", "inplace", "tuple",
                                  "list", "closure", "py_scalar", "mutable"]
        if depth < 2:
            kinds += ["if", "while", "for", "loop_setitem", "list_loop", "mutable_loop",
                      "py_join"]
        kind = self.r.choice(kinds)
        if self.mindspore_safe and kind in MINDSPORE_UNSAFE:
            kind = "assign"
        getattr(self, "s_" + kind)(ind, depth)

    def s_assign(self, ind: int, depth: int) -> None:
        e, t = self.expr(self.r.randint(1, 3))
        v = self.fresh()
        self.emit(ind, f"{v} = {e}")
        self.vars[v] = t

    def s_aug(self, ind: int, depth: int) -> None:
        got = self.pick(lambda t: t[0] != BOOL)
        if got is None:
            return self.s_assign(ind, depth)
        v, tv = got
        r = self.r
        op = r.choice(["+=", "-=", "*=", "/=", "//=", "%="])
        if op in ("//=", "%=", "/="):
            b, tb = self.nonzero(tv[0], 0, tv[1])
        elif r.random() < 0.5:
            b, tb = self.py_number(r.choice(["int", "float"]))
        else:
            b, tb = self.operand(0, lambda t: _broadcasts(t[1], tv[1]) and t[0] != BOOL)
        if isinstance(tb, str):
            dt, shape = with_scalar(tv[0], tb), tv[1]
        else:
            dt, shape = promote(tv[0], tb[0]), bshape(tv[1], tb[1])
        if op == "/=" and dt not in FLOATS:
            dt = "float32"
        w = self.fresh()
        self.emit(ind, f"{w} = {v}")  # an alias: += must not change it (Tensor is immutable)
        self.emit(ind, f"{v} {op} {b}")
        self.vars[v] = (dt, shape)
        self.vars[w] = tv

    def s_setitem(self, ind: int, depth: int) -> None:
        r = self.r
        a, ta = self.operand(0, lambda t: t[1] != ())
        if ta[1] == ():
            return self.s_assign(ind, depth)
        v = self.fresh()
        self.emit(ind, f"{v} = {a}.copy()" if r.random() < 0.5 else f"{v} = {a} * 1")
        tv = ta if "copy" in self.lines[-1] else (with_scalar(ta[0], "int"), ta[1])
        if tv[0] == BOOL and self.mindspore_safe:
            self.emit(ind, f"{v} = {v}.astype(ms.int32)")
            tv = ("int32", tv[1])
        shape = tv[1]
        n0 = shape[0]
        k = r.choice(["int", "slice", "neg_step", "mask", "tensor", "ellipsis"])
        if self.mindspore_safe and k in MINDSPORE_UNSAFE:
            k = "int"
        if k == "int":
            idx, tshape = str(r.randint(-n0, n0 - 1)), shape[1:]
        elif k == "slice":
            idx, size = _slice(r, n0, negative=not self.mindspore_safe)
            tshape = (size,) + shape[1:]
        elif k == "neg_step":
            idx, tshape = "::-1", shape
        elif k == "ellipsis":
            idx, tshape = f"..., {r.randint(-shape[-1], shape[-1] - 1)}", shape[:-1]
        elif k == "mask":
            idx, tshape = f"{v} {r.choice(['>', '<'])} 0", None
        else:
            i = sorted(set(r.randint(0, n0 - 1) for _ in range(2)))
            idx, tshape = f"ms.Tensor({i})", (len(i),) + shape[1:]
        if tshape is None or r.random() < 0.5:
            val, _ = self.py_number("float" if tv[0] in FLOATS else
                                    ("bool" if tv[0] == BOOL else "int"))
        else:
            val, tval = self.operand(0, lambda t: _broadcasts_to(t[1], tshape))
            if not _broadcasts_to(tval[1], tshape):
                val = "1"
        self.emit(ind, f"{v}[{idx}] = {val}")
        self.vars[v] = tv

    def s_inplace(self, ind: int, depth: int) -> None:
        r = self.r
        a, ta = self.as_numeric(*self.operand(0))
        v = self.fresh()
        self.emit(ind, f"{v} = {a}.copy()")
        k = r.choice(["add_", "sub_", "mul_", "fill_", "zero_", "clamp_", "masked_fill_"])
        if k in ("add_", "sub_", "mul_"):
            b, _ = self.operand(0, lambda t: _broadcasts_to(t[1], ta[1]) and t[0] == ta[0])
            if b not in self.vars or self.vars[b][0] != ta[0] or not _broadcasts_to(
                    self.vars[b][1], ta[1]):
                b, _ = self.py_number("int")
            self.emit(ind, f"{v}.{k}({b})")
        elif k == "fill_":
            self.emit(ind, f"{v}.fill_({self.py_number('int')[0]})")
        elif k == "zero_":
            self.emit(ind, f"{v}.zero_()")
        elif k == "clamp_":
            self.emit(ind, f"{v}.clamp_(-1, 2)")
        else:
            self.emit(ind, f"{v}.masked_fill_({v} < 0, 0)")
        self.vars[v] = ta

    def s_tuple(self, ind: int, depth: int) -> None:
        r = self.r
        items = [self.operand(1)]
        for _ in range(r.randint(1, 2)):
            items.append(self.operand(1, lambda t: _broadcasts(t[1], items[0][1][1])))
        t = self.fresh("t")
        self.emit(ind, f"{t} = ({', '.join(e for e, _ in items)},)")
        k = r.choice(["index", "unpack", "concat", "loop", "slice"])
        v = self.fresh()
        if k == "index":
            i = r.randint(-len(items), len(items) - 1)
            self.emit(ind, f"{v} = {t}[{i}]")
            self.vars[v] = items[i][1]
        elif k == "unpack":
            names = [self.fresh() for _ in items]
            self.emit(ind, f"{', '.join(names)} = {t}")
            for n, (_, ti) in zip(names, items):
                self.vars[n] = ti
        elif k == "concat":
            self.emit(ind, f"{v} = ({t} + ({t}[0],))[-1] * len({t})")
            self.vars[v] = (with_scalar(items[0][1][0], "int"), items[0][1][1])
        elif k == "slice":
            self.emit(ind, f"{v} = {t}[1:][0]")
            self.vars[v] = items[1][1]
        else:
            e = self.fresh("e")
            acc, tacc = self.as_numeric(*items[0])
            self.emit(ind, f"{v} = {acc}")
            self.emit(ind, f"for {e} in {t}[1:]:")
            self.emit(ind + 1, f"{v} = {v} + {e}")
            for _, ti in items[1:]:
                tacc = (promote(tacc[0], ti[0]), bshape(tacc[1], ti[1]))
            self.vars[v] = tacc

    def s_list(self, ind: int, depth: int) -> None:
        r = self.r
        (a, ta) = self.operand(1)
        same = self.tensors(lambda t: t == ta)
        items = [a] + [r.choice(same) for _ in range(r.randint(0, 2))] if same else [a]
        lst = self.fresh("l")
        self.emit(ind, f"{lst} = [{', '.join(items)}]")
        self.emit(ind, f"{lst}.append({a} * 2)")
        tv = (with_scalar(ta[0], "int"), ta[1])
        n = len(items) + 1
        v = self.fresh()
        k = r.choice(["stack", "index", "len", "sum"])
        if k == "stack" and ta[0] == tv[0]:
            axis = r.randint(0, len(ta[1]))
            self.emit(ind, f"{v} = ops.stack({lst}, {axis})")
            self.vars[v] = (ta[0], ta[1][:axis] + (n,) + ta[1][axis:])
        elif k == "len":
            self.emit(ind, f"{v} = {a} * len({lst})")
            self.vars[v] = tv
        elif k == "sum":
            self.emit(ind, f"{v} = {lst}[0] + {lst}[-1]")
            self.vars[v] = (promote(ta[0], tv[0]), ta[1])
        else:
            self.emit(ind, f"{lst}[0] = {lst}[-1]")
            self.emit(ind, f"{v} = {lst}[0]")
            self.vars[v] = tv

    def s_closure(self, ind: int, depth: int) -> None:
        r = self.r
        g = self.fresh("g")
        captured, tc = self.operand(0)
        cap = self.fresh()
        self.emit(ind, f"{cap} = {captured}")
        self.vars[cap] = tc
        arg, targ = self.operand(0, lambda t: _broadcasts(t[1], tc[1]))
        u = self.fresh("u")
        saved = dict(self.vars)
        self.vars[u] = targ
        self.lines.append("    " * ind + f"def {g}({u}):")
        body, tb = self.expr(2)
        self.vars = saved
        self.emit(ind + 1, f"return {body}")
        v = self.fresh()
        if r.random() < 0.3 and not self.mindspore_safe:
            self.emit(ind, f"{cap} = {cap} * 2")  # read by g at call time, as in Python
            self.vars[cap] = (with_scalar(tc[0], "int"), tc[1])
            self.emit(ind, f"{v} = {g}({arg})")
            # the closure's type was computed against the old type of cap: recompute cheaply
            self.emit(ind, f"{v} = {v}.astype(ms.float32)")
            self.vars[v] = ("float32", tb[1])
            return None
        self.emit(ind, f"{v} = {g}({arg})")
        self.vars[v] = tb
        return None

    def s_py_scalar(self, ind: int, depth: int) -> None:
        r = self.r
        a, ta = self.operand(0)
        n = self.fresh("n")
        k = r.choice(["len", "max", "abs", "float"])
        if k == "len" and ta[1]:
            self.emit(ind, f"{n} = len({a}) - 4")
            self.vars[n] = ("py", "int")
        elif k == "max":
            self.emit(ind, f"{n} = max({a}.ndim, 1) * -2")
            self.vars[n] = ("py", "int")
        elif k == "abs":
            self.emit(ind, f"{n} = abs(-{a}.ndim - 2) // -3")
            self.vars[n] = ("py", "int")
        else:
            self.emit(ind, f"{n} = {a}.ndim / 4 - 1.5")
            self.vars[n] = ("py", "float")

    def s_mutable(self, ind: int, depth: int) -> None:
        n = self.fresh("n")
        val, kind = self.py_number(self.r.choice(["int", "float"]))
        self.emit(ind, f"{n} = ms.mutable({val})")
        self.vars[n] = ("py", kind)

    def s_loop_setitem(self, ind: int, depth: int) -> None:
        """Setitem of a fresh tensor in a loop: Python ``for`` over its rows, or a tensor
        ``while`` with a tensor index."""
        r = self.r
        a, ta = self.as_numeric(*self.operand(0, lambda t: t[1] != () and t[0] != BOOL))
        if ta[1] == ():
            return self.s_assign(ind, depth)
        v, n0 = self.fresh(), ta[1][0]
        self.emit(ind, f"{v} = {a}.copy()")
        s, _ = self.py_number("int")
        if r.random() < 0.5:
            i = self.fresh("i")
            self.emit(ind, f"for {i} in range({r.randint(1, n0)}):")
            self.emit(ind + 1, f"{v}[{i}] = {v}[{i} - 1] * 2 + {s}")
        else:
            w = self.fresh("w")
            self.emit(ind, f"{w} = ops.abs({v}).sum().astype(ms.int64) % 2")
            self.emit(ind, f"while {w} < {n0}:")
            self.emit(ind + 1, f"{v}[{w}] = {v}[{w}] - {s}")
            self.emit(ind + 1, f"{w} = {w} + 1")
        self.vars[v] = ta
        return None

    def s_list_loop(self, ind: int, depth: int) -> None:
        """A list grown in a Python loop, then stacked or summed."""
        r = self.r
        a, ta = self.as_numeric(*self.operand(0, lambda t: t[0] != BOOL))
        lst, i, v = self.fresh("l"), self.fresh("i"), self.fresh()
        n = r.randint(1, 3)
        self.emit(ind, f"{lst} = []")
        self.emit(ind, f"for {i} in range({n}):")
        self.emit(ind + 1, f"{lst}.append({a} * {i} - {i})")
        if r.random() < 0.5:
            self.emit(ind, f"{v} = ops.stack({lst})")
            self.vars[v] = (ta[0], (n,) + ta[1])
        else:
            self.emit(ind, f"{v} = {lst}[-1] + len({lst})")
            self.vars[v] = ta

    def s_mutable_loop(self, ind: int, depth: int) -> None:
        """A ``mutable`` counter updated in a loop, then used with a tensor."""
        n, i = self.fresh("n"), self.fresh("i")
        self.emit(ind, f"{n} = ms.mutable({self.r.choice([0, 1, -2])})")
        self.emit(ind, f"for {i} in range({self.r.randint(0, 3)}):")
        self.emit(ind + 1, f"{n} = {n} + {i} * 2")
        a, ta = self.as_numeric(*self.operand(0))
        v = self.fresh()
        self.emit(ind, f"{v} = {a} * {n}")
        self.vars[v] = ta
        self.vars[n] = ("py", "int")

    def s_py_join(self, ind: int, depth: int) -> None:
        """A Python number set by both branches of a tensor ``if`` (or counted in a tensor
        ``while``): a Python number after it, in GRAPH as in PyNative."""
        r = self.r
        n = self.fresh("n")
        kind = r.choice(["int", "float"])
        start = r.choice(["1", "-2", "3"] if kind == "int" else ["0.5", "-1.5"])
        self.emit(ind, f"{n} = {start}")
        c, tc = self.e_cmp(1)
        if tc[1] != ():
            c = f"({c}).{r.choice(['any', 'all'])}()"
        if r.random() < 0.6:
            self.emit(ind, f"if {c}:")
            step, factor = (("1", "2"), ("2", "-1")) if kind == "int" else \
                (("0.5", "1.5"), ("2.0", "-1.0"))
            self.emit(ind + 1, f"{n} = {n} + {r.choice(step)}")
            self.emit(ind, "else:")
            self.emit(ind + 1, f"{n} = {n} * {r.choice(factor)}")
        else:
            w = self.fresh("w")
            self.emit(ind, f"{w} = ms.Tensor(0)")
            self.emit(ind, f"while {w} < 2 and {c}:")
            self.emit(ind + 1, f"{w} = {w} + 1")
            self.emit(ind + 1, f"{n} = {n} * 2 - 1")
        self.vars[n] = ("py", kind)
        self.returned_numbers.append(n)

    def _fixed(self, v: str, t: tuple, depth: int) -> str:
        """An expression of exactly type ``t`` (dtype by a cast, shape by broadcasting)."""
        e, te = self.expr(depth)
        if not _broadcasts_to(te[1], t[1]):
            e, te = self.operand(0, lambda u: _broadcasts_to(u[1], t[1]))
            if not _broadcasts_to(te[1], t[1]):
                e, te = v, t
        if te[1] != t[1]:
            e = f"ops.broadcast_to({e}, {t[1]})"
        return f"ops.cast({e}, ms.{t[0]})"

    def _pin(self, ind: int, v: str, t: tuple) -> None:
        """``v = ops.cast(v, dtype)`` before a tensor if/loop that reassigns ``v``: the
        branches then agree on its type even where the generator's model of it is wrong."""
        self.emit(ind, f"{v} = ops.cast({v}, ms.{t[0]})")

    def s_if(self, ind: int, depth: int) -> None:
        r = self.r
        c, tc = self.e_cmp(1)
        if tc[1] != ():
            c = f"({c}).{r.choice(['any', 'all'])}()"
        v, tv = self.pick()
        self._pin(ind, v, tv)
        self.emit(ind, f"if {c}:")
        self.emit(ind + 1, f"{v} = {self._fixed(v, tv, 2)}")
        if r.random() < 0.3:
            saved = dict(self.vars)
            # a statement that only makes new names (they stay inside the branch)
            kind = r.choice(["assign", "setitem", "inplace", "tuple", "list"])
            kind = "assign" if self.mindspore_safe and kind in MINDSPORE_UNSAFE else kind
            getattr(self, "s_" + kind)(ind + 1, depth + 1)
            self.vars = saved
        self.vars[v] = tv
        if r.random() < 0.7:
            self.emit(ind, "else:")
            self.emit(ind + 1, f"{v} = {self._fixed(v, tv, 2)}")

    def s_while(self, ind: int, depth: int) -> None:
        r = self.r
        w = self.fresh("w")
        i, ti = self.operand(0, lambda t: t[0] in INTS)
        start = f"ops.abs({i}).sum() % 3" if ti[0] in INTS else "ms.Tensor(0)"
        self.emit(ind, f"{w} = {start}")
        v, tv = self.pick(lambda t: t[0] != BOOL) or self.pick()
        self._pin(ind, v, tv)
        cond = f"{w} < 3"
        if r.random() < 0.4:
            cond += f" and {v}.sum() < 20"
        self.emit(ind, f"while {cond}:")
        self.emit(ind + 1, f"{w} = {w} + 1")
        self.emit(ind + 1, f"{v} = {self._fixed(v, tv, 1)}")
        if r.random() < 0.3:
            self.emit(ind + 1, f"if {w} == 2:")
            self.emit(ind + 2, r.choice(["break", "continue"]))
        self.vars[v] = tv

    def s_for(self, ind: int, depth: int) -> None:
        r = self.r
        v, tv = self.pick()
        self._pin(ind, v, tv)
        e = self.fresh("e")
        if tv[1] and r.random() < 0.5:
            self.emit(ind, f"for {e} in {v}:")
            self.vars[e] = (tv[0], tv[1][1:])
        else:
            self.emit(ind, f"for {e} in range({r.randint(0, 3)}):")
            self.vars[e] = ("py", "int")
        self.emit(ind + 1, f"{v} = {self._fixed(v, tv, 1)}")
        del self.vars[e]
        self.vars[v] = tv


def _broadcasts(a: tuple, b: tuple) -> bool:
    try:
        np.broadcast_shapes(a, b)
    except ValueError:
        return False
    return True


def _broadcasts_to(a: tuple, b: tuple) -> bool:
    return _broadcasts(a, b) and bshape(a, b) == tuple(b)


def _sum_dtype(dt: str) -> str:
    return "int64" if dt == BOOL else dt


def _kw(axis, keep: bool, axis_name: str, keep_name: str) -> str:
    """Reduction arguments: ``axis`` by keyword (or by position when ``axis_name`` is
    empty), ``keep`` by keyword."""
    parts = [] if axis is None else [f"{axis_name}={axis}" if axis_name else str(axis)]
    return ", ".join(parts + ([f"{keep_name}=True"] if keep else []))


def _slice(r: random.Random, n: int, negative: bool = True) -> tuple[str, int]:
    """A slice text over an axis of length ``n`` and the length it selects (``negative``:
    the step may be negative)."""
    start = r.choice([None, 0, 1, -1, -2])
    stop = r.choice([None, None, 2, -1, n])
    step = r.choice([None, None, 1, 2, -1, -2] if negative else [None, None, 1, 2])
    if not range(n)[slice(start, stop, step)]:
        start, stop = (None, None)  # never an empty axis
    text = ":".join("" if v is None else str(v) for v in (start, stop, step))
    if text.endswith(":"):
        text = text[:-1]
    return text or ":", len(range(n)[slice(start, stop, step)])


def _random_type(r: random.Random) -> tuple:
    dt = r.choice(["float32", "float32", "float32", "float16", "int32", "int64", BOOL])
    return dt, r.choice(SHAPES)


def _input(r: random.Random, t: tuple) -> np.ndarray:
    dt, shape = t
    size = int(np.prod(shape)) if shape else 1
    if dt == BOOL:
        vals = [r.random() < 0.5 for _ in range(size)]
    elif dt in INTS:
        vals = [r.randint(-5, 5) for _ in range(size)]
    else:
        vals = [r.randint(-12, 12) / 4 for _ in range(size)]
    return np.array(vals, {BOOL: np.bool_}.get(dt, dt)).reshape(shape)


def generate(seed: int, mindspore_safe: bool = False) -> Program:
    """The op-level program for ``seed`` (deterministic); ``mindspore_safe`` leaves out the
    forms of ``MINDSPORE_UNSAFE``."""
    r = random.Random(seed)
    x_t, y_t = _random_type(r), _random_type(r)
    g = _OpGen(r, x_t, y_t, mindspore_safe)
    g.emit(0, "def f(x, y):")
    g.emit(1, f"# x: {x_t[0]}{list(x_t[1])}, y: {y_t[0]}{list(y_t[1])}")
    for _ in range(r.randint(2, 5)):
        g.stmt(1, 0)
    outs = g.tensors(lambda t: True)
    fresh = [v for v in outs if v not in ("x", "y")]
    chosen = sorted(set(fresh[-2:] + r.sample(outs, min(len(outs), r.randint(0, 2)))
                        + g.returned_numbers[-1:]))
    g.emit(1, f"return {', '.join(chosen)}")
    inputs = [(_input(r, x_t), _input(r, y_t)) for _ in range(3)]
    return Program(seed, HEADER + "\n".join(g.lines) + "\n", x_t, y_t, inputs)


if __name__ == "__main__":
    for s in [a for a in sys.argv[1:] if not a.startswith("--")] or ["0"]:
        print(f"# seed {s}")
        print(generate(int(s)).source)
