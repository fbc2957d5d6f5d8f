"""``FusedElementwise``: a group of element-wise ops run as one pass over memory.

The backend's fusion pass (``backend/fusion.py``) makes these nodes after autodiff and vmap;
users never write them. The ``program`` attribute is readable text, one step per op::

    t0 = maximum(x0, -20.0); t1 = minimum(t0, 20.0); t2 = multiply(x1, t1)

``xN`` is the node's N-th input, ``tN`` the result of step N, numbers are Python scalars and
every function is the NumPy ufunc of that name; the last step is the result. The kernel
runs the steps block by block along the first axis (about ``BLOCK_ELEMENTS`` elements a
block, so a block's temporaries stay in the cache) with the same ufuncs on the same operand
types as the unfused ops, so every result is bit-for-bit the same.
"""
from __future__ import annotations

import re

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractTensor
from ...ir.primitive import OpDef
from ._infer import broadcast_shapes, quiet

# 256 KB of float32 per temporary: of 4096-262144, the fastest in bench/fusion.py
BLOCK_ELEMENTS = 65536

_STEP = re.compile(r"t(\d+) = (\w+)\((.*)\)$")
_OPERAND = re.compile(r"[xt]\d+$")


class _Program:
    """A parsed program, compiled to a Python function that runs it on one block:
    ``run(x0, x1, ..., bufs, out)`` with ``bufs[i]`` the output buffer of step ``i``
    (None: NumPy allocates); it returns every step's result."""

    __slots__ = ("n_steps", "last_use", "run")

    def __init__(self, text: str):
        parts = text.split("; ")
        self.n_steps = len(parts)
        self.last_use = [-1] * len(parts)  # the last step that reads step i's result
        env: dict = {}
        lines, n_inputs = [], 0
        for i, part in enumerate(parts):
            m = _STEP.match(part)
            if m is None or int(m.group(1)) != i:
                raise ValueError(f"For 'FusedElementwise', step {i} of the program is "
                                 f"malformed: {part!r}.")
            name, args = m.group(2), m.group(3).split(", ")
            if not isinstance(getattr(np, name, None), np.ufunc):
                raise ValueError(f"For 'FusedElementwise', {name!r} is not a NumPy ufunc.")
            for a in args:
                if _OPERAND.match(a):
                    if a[0] == "t":
                        self.last_use[int(a[1:])] = i
                    else:
                        n_inputs = max(n_inputs, int(a[1:]) + 1)
            env[name] = getattr(np, name)
            dst = "out" if i == len(parts) - 1 else f"bufs[{i}]"
            refs = []
            for a in args:  # numbers become constants of the function (inf and nan too)
                if not _OPERAND.match(a):
                    env[f"c{len(env)}"] = _number(a)
                    a = f"c{len(env) - 1}"
                refs.append(a)
            lines.append(f"    t{i} = {name}({', '.join(refs)}, out={dst})")
        xs = "".join(f"x{i}, " for i in range(n_inputs))
        ts = ", ".join(f"t{i}" for i in range(len(parts)))
        src = f"def run({xs}bufs, out):\n" + "\n".join(lines) + f"\n    return ({ts},)\n"
        exec(compile(src, "<graphkiln:FusedElementwise>", "exec"), env)
        self.run = env["run"]

    def buffers(self, first: tuple, block_shape: tuple) -> list:
        """Output buffers for the blocks after the first, from the first block's results:
        a step writes into the buffer of a result nobody reads after it (same dtype),
        so a few block-sized buffers serve the whole program."""
        bufs: list = [None] * self.n_steps
        free: dict = {}  # dtype -> buffers whose value is dead
        dies: dict = {}  # step -> buffers free once it ran
        for i, v in enumerate(first[:-1]):
            if v.shape != block_shape:
                continue  # smaller than a block (broadcast inputs only): allocated each time
            for j in dies.pop(i, ()):  # operands read last here: the ufunc may overwrite
                free.setdefault(first[j].dtype, []).append(bufs[j])
            pool = free.get(v.dtype)
            bufs[i] = pool.pop() if pool else v
            dies.setdefault(max(self.last_use[i], i + 1), []).append(i)
        return bufs


def _number(text: str):
    if text in ("True", "False"):
        return text == "True"
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"For 'FusedElementwise', {text!r} is neither an operand nor "
                             f"a number.") from None


_PROGRAMS: dict[str, _Program] = {}


def parse_program(text: str) -> _Program:
    """The compiled ``program`` (cached by its text)."""
    prog = _PROGRAMS.get(text)
    if prog is None:
        prog = _PROGRAMS[text] = _Program(text)
    return prog


def _is_cut(x, rows: int, nd: int) -> bool:
    """True when input ``x`` runs along the result's first axis (else it is broadcast
    along it and every block uses it whole)."""
    return isinstance(x, np.ndarray) and x.ndim == nd and x.shape[0] == rows


@quiet
def _fused_elementwise(*inputs, program: str, out: np.ndarray | None = None):
    prog = parse_program(program)
    if out is not None and _overlaps(inputs, out):
        np.copyto(out, _fused_elementwise(*inputs, program=program))
        return out
    shape = np.broadcast_shapes(*(np.shape(x) for x in inputs))
    rows = shape[0] if shape else 1
    block = max(1, BLOCK_ELEMENTS // max(1, int(np.prod(shape[1:], dtype=np.int64))))
    if block >= rows:  # one block: the ops as they are, NumPy allocating the temporaries
        return prog.run(*inputs, [None] * prog.n_steps, out)[-1]
    cut = [_is_cut(x, rows, len(shape)) for x in inputs]
    result = out
    for start in range(0, rows, block):
        stop = min(start + block, rows)
        xs = [x[start:stop] if c else x for x, c in zip(inputs, cut)]
        if start == 0:  # NumPy chooses every step's dtype; its buffers serve the rest
            first = prog.run(*xs, [None] * prog.n_steps,
                             None if result is None else result[:stop])
            bufs = prog.buffers(first, first[-1].shape)
            if result is None:
                result = np.empty(shape, first[-1].dtype)
                result[:stop] = first[-1]
            continue
        if stop - start < block:  # the last, shorter block
            bufs = [None if b is None else b[:stop - start] for b in bufs]
        prog.run(*xs, bufs, result[start:stop])
    return result


def _overlaps(inputs, out: np.ndarray) -> bool:
    """True when an input shares memory with ``out`` other than element for element (a
    block written early would be read later)."""
    return any(isinstance(x, np.ndarray) and np.may_share_memory(x, out) and not (
        x.shape == out.shape and x.strides == out.strides
        and x.__array_interface__["data"][0] == out.__array_interface__["data"][0])
        for x in inputs)


def _fused_infer(*inputs, program: str):
    """Run the program on one-element stand-ins of the inputs' ranks: NumPy's own type
    resolution gives the result type, broadcasting the shape."""
    shapes, stand_ins = [], []
    for a in inputs:
        if isinstance(a, AbstractTensor):
            shapes.append(tuple(a.shape))
            stand_ins.append(np.zeros((1,) * len(a.shape), a.dtype.np_dtype))
        elif isinstance(a, AbstractScalar) and isinstance(a.value, (bool, int, float)):
            stand_ins.append(a.value)
        else:
            raise TypeError(f"For 'FusedElementwise', the inputs should be tensors or "
                            f"numbers, but got {a}.")
    prog = parse_program(program)
    with np.errstate(all="ignore"):
        result = prog.run(*stand_ins, [None] * prog.n_steps, None)[-1]
    shape = shapes[0] if shapes else ()
    for s in shapes[1:]:
        shape = broadcast_shapes("FusedElementwise", shape, s)
    return AbstractTensor(mstype.from_numpy(result.dtype), shape)


FusedElementwise = OpDef("FusedElementwise", _fused_infer, _fused_elementwise,
                         differentiable=False, attrs={"program": ""})
