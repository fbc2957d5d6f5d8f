"""Seeded generator of random control-flow programs for the graph-vs-eager differential test.

``generate(seed)`` returns a :class:`Program`: the SOURCE TEXT of a module that defines
``def f(x, y):`` (and sometimes a helper ``h0`` that ``f`` calls), plus three input pairs
(``x``, ``y``: float32 or int64 tensors of shape [] or [2]). The programs mix nested
``if``/``elif``/``else``, ``while`` loops with a guaranteed bound (a counter, Python int or
tensor, that grows by one first thing in every iteration, so ``continue`` cannot skip it),
``for`` over Python ranges, tensor ranges (``range(ops.minimum(n, 3))``), tuples/lists and
a tensor's first axis, ``break``/``continue``, early ``return`` (of a tensor or a tuple) in
branches and loops, ternaries, ``and``/``or``/``not`` and chained conditions, with tensor
conditions and Python conditions (on loop counters, Python float loop items and a Python
int accumulator ``k`` that becomes a tensor once a tensor branch or loop updates it). Some
locals get their first value inside a branch or a loop.

Invariants the generator keeps, so that the graph compiler must accept every program:

* every tensor variable has one fixed (dtype, shape) for the whole program, so the two
  branches of a tensor ``if`` and the iterations of a tensor loop always agree;
* a variable is only read where it is defined on every path: after an ``if``, when every
  branch defined it (with ``python_scopes=True``: every branch that does not end in
  ``return``/``break``/``continue``, which is Python's rule); after a loop, when it was
  defined before the loop (a tensor loop may run zero times);
* operands of ``and``/``or`` in conditions are booleans (a tensor ``and`` joins the values
  of its operands, so ``bool_tensor and float_tensor`` is a type error, as in MindSpore);
* counters and Python constants only appear as operands next to a tensor, so every value
  a program computes or returns is a tensor in eager mode too;
* float values stay bounded (``tanh`` or linear updates over few iterations), so results
  agree to rtol 1e-5.

With ``effects=True`` the module also holds a weight ``p`` (float32[2]) that programs read
(``p``, ``p.sum()``), overwrite (``ops.assign``) and accumulate into (``ops.assign_add``,
always through ``tanh`` so it stays bounded), ``ops.print_`` calls, and guards that raise
when a module flag is set (``if DEBUG: raise ValueError(...)``; the flag is off, so the
code after the guard must still run). ``reset()`` restores ``p``; the oracle compares
results, the final ``p`` and the printed text.

The oracle helpers (``load_program``, ``graph_vs_eager``...) are at the end of this file.
Run ``python tests/gen_programs.py SEED [--python-scopes]`` to print a program.
"""
from __future__ import annotations

import random
import re
import sys
from dataclasses import dataclass, field

import numpy as np

F32, I64 = "float32", "int64"
SCALAR, VEC = (), (2,)

HEADER = "import graphkiln as ms\nfrom graphkiln import ops\n\n\n"
EFFECTS_HEADER = (
    "import numpy as np\n\nimport graphkiln as ms\nfrom graphkiln import ops\n\n"
    "DEBUG = False\nP0 = np.array([0.5, -0.25], np.float32)\n"
    "p = ms.Parameter(ms.Tensor(P0), name='p')\n\n\n"
    "def reset():\n    p.set_data(ms.Tensor(P0))\n\n\n")


@dataclass
class Program:
    seed: int
    source: str
    x_type: tuple
    y_type: tuple
    inputs: list = field(default_factory=list)  # [(x ndarray, y ndarray)]
    effects: bool = False

    def tensors(self):
        """The input pairs as graphkiln tensors."""
        import graphkiln as ms
        out = []
        for xa, ya in self.inputs:
            out.append((ms.Tensor(xa, getattr(ms, self.x_type[0])),
                        ms.Tensor(ya, getattr(ms, self.y_type[0]))))
        return out


def _tstr(t) -> str:
    return f"{t[0]}{list(t[1])}"


@dataclass
class _Scope:
    defined: frozenset          # tensor variables defined on every path here
    counters: dict              # name -> "int" | "float": Python-number-like operands
    loop_depth: int = 0         # enclosing loops
    depth: int = 0              # statement nesting depth
    in_fn: str = "f"


class _Gen:
    MAX_DEPTH = 3
    MAX_LOOPS = 2

    def __init__(self, rng: random.Random, types: dict, out_types: list,
                 python_scopes: bool = False, effects: bool = False):
        self.r = rng
        self.effects = effects
        # python_scopes: after an ``if``, a variable counts as defined when every branch
        # that falls through defines it (Python's rule: a branch ending in return/break/
        # continue does not reach the code after the ``if``); otherwise every branch must
        self.python_scopes = python_scopes
        self.jumped = False
        self.types = dict(types)        # variable -> (dtype, shape), fixed for the program
        self.out_types = out_types      # types of the returned value(s)
        self.lines: list[str] = []
        self.n = 0
        self.helpers: list = []         # (name, param types, return type)

    def fresh(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def emit(self, ind: int, text: str) -> None:
        self.lines.append("    " * ind + text)

    # ---------------------------------------------------------------- expressions
    def _vars(self, sc: _Scope, t) -> list[str]:
        return sorted(v for v in sc.defined if self.types[v] == t)

    def atom(self, sc: _Scope, t) -> str:
        dt, shape = t
        cands = list(self._vars(sc, t)) * 3
        if self.effects and dt == F32:
            cands.append("p" if shape == VEC else self.r.choice(["p.sum()", "p[0]"]))
        if shape == SCALAR:
            for v in self._vars(sc, (dt, VEC)):
                cands += [f"{v}.sum()", f"{v}[0]", f"{v}[1]", f"{v}.max()", f"{v}.min()"]
                if dt == F32:
                    cands.append(f"{v}.mean()")
        if dt == F32:
            for v in self._vars(sc, (I64, shape)):
                cands.append(f"{v}.astype(ms.float32)")
            if shape == SCALAR:
                for v in self._vars(sc, (I64, VEC)):
                    cands.append(f"{v}.sum().astype(ms.float32)")
        if not cands:
            raise AssertionError(f"generator bug: no atom of type {_tstr(t)} in {sc.defined}")
        return self.r.choice(cands)

    def _number(self, sc: _Scope, dt: str) -> str:
        """A Python operand: a constant or a counter (a Python int, or a tensor in a graph)."""
        nums = [n for n, k in sc.counters.items() if k == "int" or dt == F32]
        if nums and self.r.random() < 0.4:
            return self.r.choice(nums)
        if dt == F32:
            return self.r.choice(["0.5", "0.25", "1.5", "2.0", "1", "3"])
        return self.r.choice(["1", "2", "3"])

    def expr(self, sc: _Scope, t, depth: int = 2, linear: bool = True) -> str:
        dt, shape = t
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return self.atom(sc, t)
        kinds = ["add", "add", "sub", "scale", "max", "neg", "select", "ternary", "num"]
        if dt == F32:
            kinds += ["tanh", "tanh"]
            if not linear:
                kinds += ["mul", "mul"]
        if shape == SCALAR:
            kinds += ["andor"]
        k = r.choice(kinds)
        d = depth - 1
        if k in ("add", "sub"):
            sub_shape = shape if shape == SCALAR else r.choice([SCALAR, VEC, VEC])
            a, b = self.expr(sc, t, d, linear), self.expr(sc, (dt, sub_shape), d, linear)
            if r.random() < 0.5 and sub_shape == shape:
                a, b = b, a
            return f"({a} {'+' if k == 'add' else '-'} {b})"
        if k == "num":
            op = r.choice(["+", "-", "*"] if not linear else ["+", "-"])
            a, b = self.expr(sc, t, d, linear), self._number(sc, dt)
            return f"({a} {op} {b})" if r.random() < 0.6 else f"({b} {op} {a})"
        if k == "scale":
            c = r.choice(["0.5", "-0.5", "2.0", "-1.0"] if dt == F32 else ["2", "-1", "0"])
            return f"({self.expr(sc, t, d, linear)} * {c})"
        if k == "mul":
            return f"({self.expr(sc, t, d, linear)} * {self.expr(sc, t, d, linear)})"
        if k == "max":
            fn = r.choice(["ops.maximum", "ops.minimum"])
            return f"{fn}({self.expr(sc, t, d, linear)}, {self.expr(sc, t, d, linear)})"
        if k == "neg":
            return f"(-{self.expr(sc, t, d, linear)})"
        if k == "tanh":
            return f"ops.tanh({self.expr(sc, t, d, False)})"
        if k == "select":
            p, q = self.expr(sc, t, d - 1, linear), self.expr(sc, t, d - 1, linear)
            op = r.choice(["<", ">", "<=", ">="])
            return (f"ops.select({p} {op} {q}, {self.expr(sc, t, d, linear)}, "
                    f"{self.expr(sc, t, d, linear)})")
        if k == "ternary":
            return (f"({self.expr(sc, t, d, linear)} if {self.cond(sc, 1)} "
                    f"else {self.expr(sc, t, d, linear)})")
        if k == "andor":
            op = r.choice(["and", "or"])
            return f"({self.expr(sc, t, d, linear)} {op} {self.expr(sc, t, d, linear)})"
        raise AssertionError(k)

    def scalar(self, sc: _Scope, depth: int = 1) -> tuple[str, str]:
        dts = sorted({self.types[v][0] for v in sc.defined})
        dt = self.r.choice(dts)
        return self.expr(sc, (dt, SCALAR), depth), dt

    def cond(self, sc: _Scope, depth: int = 2, bool_only: bool = False) -> str:
        """A condition. Operands of ``and``/``or`` are always booleans (``bool_only``):
        a tensor ``and`` joins its operands' values, so, as in MindSpore, a float operand
        next to a bool one is a type error in graph mode."""
        r = self.r
        kinds = ["cmp", "cmp", "cmp", "cmpc", "cmpc", "chain"]
        if sc.counters:
            kinds += ["py", "py"]
        if depth > 0:
            kinds += ["not", "and", "or"]
        if any(self.types[v][1] == VEC for v in sc.defined):
            kinds += ["all"]
        if not bool_only:
            kinds += ["truth"]
        k = r.choice(kinds)
        op = r.choice(["<", ">", "<=", ">="])
        if k == "cmp":
            a, dt = self.scalar(sc)
            b = self.expr(sc, (dt, SCALAR), 1)
            return f"{a} {op} {b}"
        if k == "chain":
            a, dt = self.scalar(sc)
            lo, hi = ("-0.5", "0.5") if dt == F32 else ("-1", "1")
            return f"{lo} {r.choice(['<', '<='])} {a} {r.choice(['<', '<='])} {hi}"
        if k == "cmpc":
            a, dt = self.scalar(sc)
            c = r.choice(["0", "0.5", "-0.5", "1"]) if dt == F32 else r.choice(["0", "1", "-1"])
            return f"{a} {op} {c}"
        if k == "py":
            name = r.choice(sorted(sc.counters))
            if sc.counters[name] == "float":
                return f"{name} {op} 0"
            return r.choice([f"{name} {op} 1", f"{name} % 2 == 0", f"{name} == 1",
                             f"{name} != 0"])
        if k == "not":
            return f"not ({self.cond(sc, depth - 1)})"
        if k in ("and", "or"):
            return (f"({self.cond(sc, depth - 1, True)}) {k} "
                    f"({self.cond(sc, depth - 1, True)})")
        if k == "all":
            v = r.choice(sorted(v for v in sc.defined if self.types[v][1] == VEC))
            c = "0" if self.types[v][0] == I64 else r.choice(["0", "-0.5", "0.5"])
            return f"({v} {op} {c}).astype(ms.float32).min() > 0"
        if k == "truth":
            a, _ = self.scalar(sc)
            return a
        raise AssertionError(k)

    # ---------------------------------------------------------------- statements
    def assign_rhs(self, sc: _Scope, t) -> str:
        if t[0] == F32 and self.r.random() < 0.5:
            return f"ops.tanh({self.expr(sc, t, 2, False)})"
        return self.expr(sc, t, 2, True)

    def ret_expr(self, sc: _Scope) -> str:
        parts = [self.assign_rhs(sc, t) for t in self.out_types]
        return ", ".join(parts) if len(parts) > 1 else parts[0]

    def block(self, sc: _Scope, ind: int, n: int, jumps: bool = False) -> frozenset:
        """``n`` statements; with ``jumps``, maybe end in break/continue/return."""
        defined = sc.defined
        for _ in range(n):
            defined = self.stmt(_Scope(defined, sc.counters, sc.loop_depth, sc.depth,
                                       sc.in_fn), ind)
        self.jumped = False
        if jumps:
            here = _Scope(defined, sc.counters, sc.loop_depth, sc.depth, sc.in_fn)
            p = self.r.random()
            self.jumped = p < 0.6
            if sc.loop_depth and p < 0.25:
                self.emit(ind, "break")
            elif sc.loop_depth and p < 0.45:
                self.emit(ind, "continue")
            elif p < 0.6:
                self.emit(ind, f"return {self.ret_expr(here)}")
        return defined

    def stmt(self, sc: _Scope, ind: int) -> frozenset:
        r = self.r
        kinds = ["assign"] * 5 + ["aug", "swap"]
        if sc.depth < self.MAX_DEPTH:
            kinds += ["if"] * 4
            if sc.loop_depth < self.MAX_LOOPS:
                kinds += ["while", "while", "for_range", "for_seq", "for_trange"]
                if any(self.types[v][1] == VEC for v in sc.defined):
                    kinds.append("for_axis")
        if self.helpers and sc.in_fn == "f":
            kinds += ["call"]
        if "k" in sc.counters:
            kinds += ["bump"]
        if self.effects:
            kinds += ["effect", "effect", "print", "guard"]
        return getattr(self, "s_" + r.choice(kinds))(sc, ind)

    def _target(self, sc: _Scope) -> str:
        names = [v for v in self.types if not v.startswith(("e", "t")) and v[0] != "_"]
        return self.r.choice(sorted(names))

    def s_assign(self, sc: _Scope, ind: int) -> frozenset:
        v = self._target(sc)
        self.emit(ind, f"{v} = {self.assign_rhs(sc, self.types[v])}")
        return sc.defined | {v}

    def s_aug(self, sc: _Scope, ind: int) -> frozenset:
        cands = [v for v in sorted(sc.defined) if not v.startswith(("e", "t"))]
        v = self.r.choice(cands)
        op = self.r.choice(["+=", "-="])
        self.emit(ind, f"{v} {op} {self.expr(sc, self.types[v], 1, True)}")
        return sc.defined

    def s_swap(self, sc: _Scope, ind: int) -> frozenset:
        a, b = self._target(sc), self._target(sc)
        if a == b or self.types[a] != self.types[b] or not {a, b} <= sc.defined:
            return self.s_assign(sc, ind)
        self.emit(ind, f"{a}, {b} = {b}, {a}")
        return sc.defined

    def s_bump(self, sc: _Scope, ind: int) -> frozenset:
        """Update the Python int accumulator ``k`` (a tensor after a tensor branch/loop)."""
        self.emit(ind, self.r.choice(["k = k + 1", "k += 2", "k = k * 2", "k -= 1"]))
        return sc.defined

    def s_effect(self, sc: _Scope, ind: int) -> frozenset:
        """Write the weight ``p`` (bounded: every value written goes through tanh)."""
        if self.r.random() < 0.5:  # a scalar broadcasts through ``+ p * 0.0``
            value = f"ops.tanh({self.expr(sc, (F32, self.r.choice([SCALAR, VEC])), 1)})"
            self.emit(ind, f"ops.assign(p, {value} + p * 0.0)")
        else:  # AssignAdd wants the variable's shape (as in MindSpore)
            self.emit(ind, f"ops.assign_add(p, ops.tanh({self.expr(sc, (F32, VEC), 1)}) * 0.5)")
        return sc.defined

    def s_print(self, sc: _Scope, ind: int) -> frozenset:
        v = self.r.choice(sorted(sc.defined))
        self.emit(ind, f"ops.print_('at {self.fresh('s')}', {v})")
        return sc.defined

    def s_guard(self, sc: _Scope, ind: int) -> frozenset:
        """A branch that raises when the (off) module flag is set."""
        self.emit(ind, "if DEBUG:")
        self.emit(ind + 1, f"raise ValueError('debug stop {self.fresh('r')}')")
        return sc.defined

    def s_call(self, sc: _Scope, ind: int) -> frozenset:
        name, ptypes, rtype = self.r.choice(self.helpers)
        targets = [v for v in self.types if self.types[v] == rtype
                   and not v.startswith(("e", "t"))]
        args = ", ".join(self.expr(sc, t, 1) for t in ptypes)
        v = self.r.choice(sorted(targets))
        self.emit(ind, f"{v} = {name}({args})")
        return sc.defined | {v}

    def _inner(self, sc: _Scope, **kw) -> _Scope:
        d = dict(defined=sc.defined, counters=dict(sc.counters), loop_depth=sc.loop_depth,
                 depth=sc.depth + 1, in_fn=sc.in_fn)
        d.update(kw)
        return _Scope(**d)

    def s_if(self, sc: _Scope, ind: int) -> frozenset:
        r = self.r
        inner = self._inner(sc)
        self.emit(ind, f"if {self.cond(sc)}:")
        outs = [(self.block(inner, ind + 1, r.randint(1, 2), jumps=r.random() < 0.35),
                 self.jumped)]
        n_elif = r.choice([0, 0, 0, 1, 2])
        for _ in range(n_elif):
            self.emit(ind, f"elif {self.cond(sc)}:")
            outs.append((self.block(inner, ind + 1, r.randint(1, 2), jumps=r.random() < 0.3),
                         self.jumped))
        if r.random() < 0.6:
            self.emit(ind, "else:")
            outs.append((self.block(inner, ind + 1, r.randint(1, 2), jumps=r.random() < 0.2),
                         self.jumped))
        else:
            outs.append((sc.defined, False))
        self.jumped = False
        if self.python_scopes and not all(j for _, j in outs):
            outs = [o for o in outs if not o[1]]
        result = outs[0][0]
        for o, _ in outs[1:]:
            result = result & o
        return result

    def _loop_body(self, sc: _Scope, ind: int, counters: dict, extra: dict | None = None,
                   first: str | None = None) -> None:
        body_defined = sc.defined
        saved = {}
        if extra:
            for k, t in extra.items():
                saved[k] = self.types.get(k)
                self.types[k] = t
            body_defined = body_defined | set(extra)
        inner = self._inner(sc, defined=body_defined, counters={**sc.counters, **counters},
                            loop_depth=sc.loop_depth + 1)
        if first:
            self.emit(ind, first)
        n = self.r.randint(1, 2)
        for _ in range(n):
            if self.r.random() < 0.3:
                # a guarded jump in the middle of the body
                self.emit(ind, f"if {self.cond(inner)}:")
                jin = self._inner(inner)
                self.block(jin, ind + 1, self.r.randint(0, 1), jumps=False)
                self.emit(ind + 1, self.r.choice(["break", "continue", "break",
                                                  f"return {self.ret_expr(jin)}"]))
            inner = _Scope(self.stmt(inner, ind), inner.counters, inner.loop_depth,
                           inner.depth, inner.in_fn)
        for k, old in saved.items():
            if old is None:
                del self.types[k]
            else:
                self.types[k] = old

    def s_while(self, sc: _Scope, ind: int) -> frozenset:
        r = self.r
        w = self.fresh("w")
        bound = r.randint(1, 3)
        if r.random() < 0.6:
            self.emit(ind, f"{w} = 0")
            kind = "int"
        else:
            s, dt = self.scalar(sc)
            self.emit(ind, f"{w} = ops.zeros_like({s})")
            kind = "int" if dt == I64 else "float"
        form = r.choice(["plain", "and", "and", "and_rev", "or_not"])
        guard = f"{w} < {bound}"
        c = self.cond(sc, 1, True)
        test = {"plain": guard, "and": f"{guard} and ({c})", "and_rev": f"({c}) and {guard}",
                "or_not": f"{guard} and not ({c})"}[form]
        self.emit(ind, f"while {test}:")
        inc = r.choice([f"{w} = {w} + 1", f"{w} += 1"])
        self._loop_body(sc, ind + 1, {w: kind}, first=inc)
        return sc.defined

    def s_for_range(self, sc: _Scope, ind: int) -> frozenset:
        i = self.fresh("i")
        rng = self.r.choice(["range(3)", "range(2)", "range(1, 3)", "range(0)", "range(4)"])
        self.emit(ind, f"for {i} in {rng}:")
        self._loop_body(sc, ind + 1, {i: "int"})
        return sc.defined

    def s_for_trange(self, sc: _Scope, ind: int) -> frozenset:
        i = self.fresh("i")
        s, dt = self.scalar(sc)
        if dt == F32:
            s = f"{s}.astype(ms.int64)"
        stop = f"ops.minimum({s}, 3)"
        rng = f"range({stop})" if self.r.random() < 0.7 else f"range(-1, {stop})"
        self.emit(ind, f"for {i} in {rng}:")
        self._loop_body(sc, ind + 1, {i: "int"})
        return sc.defined

    def s_for_seq(self, sc: _Scope, ind: int) -> frozenset:
        r = self.r
        if r.random() < 0.4:
            c = self.fresh("c")
            consts = r.sample(["0.5", "-1.0", "2.0", "-0.25", "1.5"], r.randint(1, 3))
            seq = f"({', '.join(consts)},)" if r.random() < 0.5 else f"[{', '.join(consts)}]"
            self.emit(ind, f"for {c} in {seq}:")
            self._loop_body(sc, ind + 1, {c: "float"})
            return sc.defined
        t = self.fresh("t")
        typ = self.types[r.choice(sorted(sc.defined))]
        items = [self.expr(sc, typ, 1) for _ in range(r.randint(1, 3))]
        seq = f"({', '.join(items)},)" if r.random() < 0.5 else f"[{', '.join(items)}]"
        self.emit(ind, f"for {t} in {seq}:")
        self._loop_body(sc, ind + 1, {}, extra={t: typ})
        return sc.defined

    def s_for_axis(self, sc: _Scope, ind: int) -> frozenset:
        e = self.fresh("e")
        v = self.r.choice(sorted(v for v in sc.defined if self.types[v][1] == VEC))
        self.emit(ind, f"for {e} in {v}:")
        self._loop_body(sc, ind + 1, {}, extra={e: (self.types[v][0], SCALAR)})
        return sc.defined


def _random_type(r: random.Random) -> tuple:
    return (I64 if r.random() < 0.25 else F32, r.choice([SCALAR, VEC]))


def _reachable(types: list) -> list:
    """Types an expression over inputs of ``types`` can have."""
    out = set()
    for dt, shape in types:
        for s in {shape, SCALAR}:
            out.add((dt, s))
            out.add((F32, s))
    return sorted(out)


def _input(r: random.Random, t) -> np.ndarray:
    dt, shape = t
    if dt == I64:
        return np.array(np.asarray([r.randint(-3, 3) for _ in range(2)])[:shape[0]]
                        if shape else r.randint(-3, 3), np.int64)
    vals = [round(r.uniform(-2.0, 2.0), 2) for _ in range(2)]
    if r.random() < 0.1:
        vals = [0.0, 0.0]
    return np.array(vals[:shape[0]] if shape else vals[0], np.float32)


def generate(seed: int, python_scopes: bool = False, effects: bool = False) -> Program:
    """The program for ``seed`` (deterministic). ``python_scopes``: see ``_Gen``;
    ``effects``: see the module docstring."""
    r = random.Random(seed)
    x_t, y_t = _random_type(r), _random_type(r)
    reach = _reachable([x_t, y_t])
    types = {"x": x_t, "y": y_t}
    local_names = ["a", "b", "z"][: r.randint(1, 3)]
    for v in local_names:
        types[v] = r.choice(reach)
    out_types = [r.choice(reach) for _ in range(r.choice([1, 1, 1, 2]))]
    g = _Gen(r, types, out_types, python_scopes, effects)
    chunks = []
    # an optional module-level helper with its own control flow, called from f
    if r.random() < 0.3:
        ptypes = [types[r.choice(sorted(types))], r.choice(reach)]
        saved = g.types
        g.types = {"u": ptypes[0], "v": ptypes[1]}
        g.out_types = [ptypes[0]]
        g.lines = []
        g.emit(0, "def h0(u, v):")
        sc = _Scope(frozenset({"u", "v"}), {}, 0, 1, "h0")
        defined = g.block(sc, 1, r.randint(1, 2))
        g.emit(1, f"return {g.ret_expr(_Scope(defined, {}, 0, 1, 'h0'))}")
        chunks.append("\n".join(g.lines) + "\n\n\n")
        g.types, g.out_types = saved, out_types
        g.helpers.append(("h0", ptypes, ptypes[0]))
    g.lines = []
    g.emit(0, "def f(x, y):")
    g.emit(1, f"# x: {_tstr(x_t)}, y: {_tstr(y_t)}, "
              + ", ".join(f"{v}: {_tstr(types[v])}" for v in local_names))
    sc = _Scope(frozenset({"x", "y"}), {}, 0, 0, "f")
    # the other locals get their first value later, maybe inside a branch or a loop
    early = [v for v in local_names if r.random() < (0.25 if python_scopes else 0.6)]
    for v in early:
        g.emit(1, f"{v} = {g.expr(sc, types[v], 1)}")
    counters = {}
    if r.random() < 0.5:
        g.emit(1, "k = 0")
        counters["k"] = "int"
    sc = _Scope(frozenset({"x", "y", *early}), counters, 0, 1, "f")
    defined = g.block(sc, 1, r.randint(3, 6))
    g.emit(1, f"return {g.ret_expr(_Scope(defined, counters, 0, 1, 'f'))}")
    chunks.append("\n".join(g.lines) + "\n")
    source = (EFFECTS_HEADER if effects else HEADER) + "".join(chunks)
    inputs = [(_input(r, x_t), _input(r, y_t)) for _ in range(3)]
    return Program(seed, source, x_t, y_t, inputs, effects)


# ---------------------------------------------------------------- the oracle

def load_program(prog: Program, directory) -> object:
    """Write ``prog`` to ``directory`` as a real file (the compiler reads function source
    from it) and import it; returns the module."""
    import importlib.util
    from pathlib import Path
    name = f"gk_gen_prog_{prog.seed}" + ("_fx" if prog.effects else "")
    path = Path(directory) / f"{name}.py"
    if not path.exists() or path.read_text() != prog.source:
        path.write_text(prog.source)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_safely(fn, *args):
    """``(True, result)`` or ``(False, "ExcType: message")``."""
    import traceback
    try:
        return True, fn(*args)
    except Exception as e:  # noqa: BLE001 - both sides raising is a valid outcome
        return False, "".join(traceback.format_exception_only(type(e), e)).strip()


def _flat(v) -> list:
    if isinstance(v, (tuple, list)):
        return [type(v).__name__, len(v)] + [y for e in v for y in _flat(e)]
    return [v]


def compare_outputs(graph_out, eager_out) -> str | None:
    """None if the graph result equals the eager one (structure, types, dtypes, shapes,
    values to rtol 1e-5), else a description of the difference."""
    from graphkiln.common.tensor import Tensor
    g, e = _flat(graph_out), _flat(eager_out)
    if len(g) != len(e):
        return f"structure differs: graph {graph_out!r} vs eager {eager_out!r}"
    for a, b in zip(g, e):
        if isinstance(a, Tensor) != isinstance(b, Tensor):
            return f"type differs: graph {a!r} vs eager {b!r}"
        if not isinstance(a, Tensor):
            if type(a) is not type(b) or a != b:
                return f"value differs: graph {a!r} vs eager {b!r}"
            continue
        if a.dtype != b.dtype or a.shape != b.shape:
            return (f"dtype/shape differs: graph {a.dtype}{list(a.shape)} vs eager "
                    f"{b.dtype}{list(b.shape)}")
        an, bn = a.asnumpy(), b.asnumpy()
        if not np.allclose(an.astype(np.float64), bn.astype(np.float64), rtol=1e-5,
                           atol=1e-6, equal_nan=True):
            return f"values differ: graph {an!r} vs eager {bn!r}"
    return None


def _observed(fn, args, mod):
    """``(ok, result, final p, printed text)`` of one run from the initial weight."""
    import contextlib
    import io
    if mod is None:
        return (*run_safely(fn, *args), None, "")
    mod.reset()
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        ok, out = run_safely(fn, *args)
    return ok, out, mod.p.asnumpy().copy(), text.getvalue()


_PRINT_TOKEN = re.compile(r"[A-Za-z_]\w*|[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|inf|nan)")
_PRINT_SYNTAX = {"Tensor", "shape", "dtype", "value"}


def printed_values(text: str) -> list:
    """The words and numbers a Print showed, per line, without its layout: MindSpore prints
    tensors differently in graph mode (no commas, a 0-d tensor bare, a bool as 0/1) and in
    PyNative, so the two modes agree on these, not on the characters."""
    lines = []
    for line in text.splitlines():
        items = []
        for tok in _PRINT_TOKEN.findall(line):
            if tok in ("True", "False"):
                items.append(float(tok == "True"))
            elif tok[0].isalpha() or tok[0] == "_":
                if tok not in _PRINT_SYNTAX and not re.fullmatch(r"U?(?:Int|Float|Bool)\d*", tok):
                    items.append(tok)
            else:
                items.append(float(tok))
        lines.append(items)
    return lines


def graph_vs_eager(jf, *args, mod=None) -> str | None:
    """Run ``jf`` (an ``ms.jit`` function) compiled and ``jf.fn`` eagerly on ``args``:
    None when they agree (or both raise), else what differs. With ``mod`` (a program
    generated with effects) the final weight and the printed text must agree too."""
    ok_e, eager, p_e, text_e = _observed(jf.fn, args, mod)
    ok_g, graph, p_g, text_g = _observed(jf, args, mod)
    if ok_e != ok_g:
        return f"only {'eager' if ok_g else 'graph'} raised: {graph if not ok_g else eager}"
    if not ok_e:  # both raised (a graph raises at compile time, before any effect)
        return None
    problem = compare_outputs(graph, eager)
    if problem:
        return problem
    if p_e is not None and not np.allclose(p_e, p_g, rtol=1e-5, atol=1e-6):
        return f"final weight differs: graph {p_g!r} vs eager {p_e!r}"
    if printed_values(text_e) != printed_values(text_g):
        return f"printed text differs:\n--- graph\n{text_g}--- eager\n{text_e}"
    return None


def loss_of(f):
    """``sum`` of every output of ``f(x, y)``: a scalar to differentiate."""
    def loss(x, y):
        out = f(x, y)
        outs = out if isinstance(out, tuple) else (out,)
        total = outs[0].sum()
        for o in outs[1:]:
            total = total + o.sum()
        return total
    return loss


def numeric_grad(loss, x: np.ndarray, y: np.ndarray, which: int, eps: float):
    """Central differences of ``loss`` (run eagerly) w.r.t. input ``which``, or None where
    the one-sided differences disagree (a kink or a branch boundary at the input, where no
    derivative exists)."""
    from graphkiln.common.tensor import Tensor
    base = [x.copy(), y.copy()]
    f0 = float(loss(Tensor(x), Tensor(y)).asnumpy())
    g = np.zeros_like(base[which])
    for idx in np.ndindex(base[which].shape):
        vals = []
        for sign in (1.0, -1.0):
            pert = [b.copy() for b in base]
            pert[which][idx] += sign * eps
            vals.append(float(loss(Tensor(pert[0]), Tensor(pert[1])).asnumpy()))
        forward, backward = (vals[0] - f0) / eps, (f0 - vals[1]) / eps
        if not np.isclose(forward, backward, rtol=1e-3, atol=1e-5):
            return None
        g[idx] = (vals[0] - vals[1]) / (2 * eps)
    return g


if __name__ == "__main__":
    scopes = "--python-scopes" in sys.argv
    effects = "--effects" in sys.argv
    for s in [a for a in sys.argv[1:] if not a.startswith("--")] or ["0"]:
        print(f"# seed {s}")
        print(generate(int(s), scopes, effects).source)
