"""Automatic mixed precision by operator (``auto_mixed_precision(net, "auto")``): while a
strategy is active, the dispatch point (``primitive.apply``) casts the floating-point
inputs of the listed primitives before they run or are recorded, as MindSpore's
``amp_strategy`` does:

* white list: to the low precision dtype (float16);
* black list: to float32;
* promote list (``AddN``, ``Concat``...): to the widest float dtype among the inputs,
  the elements of a tuple/list input included;
* other primitives run in the dtypes of their inputs.

Strategies nest (a stack); ``push``/``pop`` are ``mindspore.amp``'s push/pop_amp_strategy.

``custom_mixed_precision(net, white_list=[ops.MatMul, ...])`` lists primitive classes
instead (:data:`LISTED`): a call of a Primitive object of one of them (``self.matmul(x, w)``
in a construct) has its float inputs cast to the low dtype and its float outputs back to
float32, as MindSpore's rewrite of the network's code does; functional calls
(``ops.matmul``) are not cast.
"""
from __future__ import annotations

import contextlib

from ..common import dtype as mstype
from ..common.tensor import Tensor

# primitives whose inputs go to the widest float dtype among them (MindSpore's list)
PROMOTE_LIST = frozenset({"Addcdiv", "Addcmul", "Cross", "_PyboostCrossPrim", "Dot",
                          "GridSampler2D", "GridSampler3D", "BiasAdd", "AddN", "Concat"})
_WIDTH = {mstype.float16: 0, mstype.bfloat16: 1, mstype.float32: 2, mstype.float64: 3}


class AmpStrategy:
    """One active strategy: the low dtype and the names of the white/black list ops."""

    __slots__ = ("level", "dtype", "white", "black")

    def __init__(self, level: str, dtype: mstype.Type, white, black):
        self.level = level
        self.dtype = dtype
        self.white = frozenset(white)
        self.black = frozenset(black)

    def key(self) -> tuple:
        """What a graph traced under this strategy depends on (part of the call key)."""
        return self.level, self.dtype.name, tuple(sorted(self.white)), tuple(sorted(self.black))

    def target(self, name: str, args) -> mstype.Type | None:
        """The dtype to cast the float inputs of primitive ``name`` to, or None."""
        if name in self.white:
            return self.dtype
        if name in self.black:
            return mstype.float32
        if name in PROMOTE_LIST:
            floats = [t.dtype for t in _tensors(args) if t.dtype in _WIDTH]
            return max(floats, key=_WIDTH.__getitem__) if floats else None
        return None


STACK: list[AmpStrategy] = []


def push(level: str, dtype: mstype.Type, white, black) -> None:
    STACK.append(AmpStrategy(level, dtype, white, black))


def pop() -> None:
    if not STACK:
        raise RuntimeError("pop_amp_strategy: no amp strategy is active.")
    STACK.pop()


# custom_mixed_precision's white-listed primitive classes and low dtype, innermost last
LISTED: list[tuple[frozenset, mstype.Type]] = []


def current_key() -> tuple | None:
    """What a graph traced now depends on (part of the call key)."""
    key = STACK[-1].key() if STACK else None
    if LISTED:
        classes, dtype = LISTED[-1]
        names = sorted(f"{c.__module__}.{c.__qualname__}" for c in classes)
        return key, dtype.name, tuple(names)
    return key


@contextlib.contextmanager
def listed(classes: frozenset, dtype: mstype.Type):
    """While in this block, calls of Primitive objects of ``classes`` run in ``dtype``."""
    LISTED.append((classes, dtype))
    try:
        yield
    finally:
        LISTED.pop()


def call_listed(prim, args: tuple, run, cast):
    """``run(args)`` for the Primitive object ``prim``: when its class is listed, with its
    float inputs cast to the low dtype and its float outputs cast back to float32."""
    classes, dtype = LISTED[-1]
    if type(prim) not in classes:
        return run(args)

    def to(x, target):
        if isinstance(x, Tensor) and x.dtype in _WIDTH and x.dtype is not target:
            return cast(x, target)
        return x

    out = run(tuple(to(a, dtype) for a in args))
    if isinstance(out, tuple):
        return tuple(to(o, mstype.float32) for o in out)
    return to(out, mstype.float32)


def _tensors(args):
    for a in args:
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (tuple, list)):
            yield from (e for e in a if isinstance(e, Tensor))


def cast_inputs(name: str, args: tuple, cast) -> tuple:
    """``args`` of primitive ``name`` cast by the active strategy (``cast(tensor, dtype)``
    makes one cast); unchanged when it lists no cast for ``name``."""
    target = STACK[-1].target(name, args)
    if target is None:
        return args

    def one(a):
        if isinstance(a, Tensor) and a.dtype in _WIDTH and a.dtype is not target:
            return cast(a, target)
        return a

    return tuple(type(a)(one(e) for e in a) if isinstance(a, (tuple, list)) else one(a)
                 for a in args)
