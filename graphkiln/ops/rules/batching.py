"""Batching rules: one per primitive, ``rule(*inputs, dims, **attrs) -> (out, out_dim)``.

``inputs`` are what the primitive received (Tensors, Python constants, tuples of them);
``dims`` has one entry per input: the axis of that input that holds the batch, ``None``
when the input is not batched, or, for a tuple input (``Concat``, ``AddN``, a ``Getitem``
index), a tuple with one entry per element. A rule returns the batched result and the axis
of its batch (``None`` when the result is the same for every example; a tuple of entries
for multi-output primitives). Rules are written with ops, so they run eagerly and trace
into graphs alike; ``transforms/vectorize.py`` checks every rule's result against the primitive's
unbatched output type. tests/ops/test_batching_rules.py walks the registry: each rule must
equal stacking the primitive applied to every example.

Most rules move the batch axis to the front and shift their axis attributes by one;
elementwise ops share one rule that also aligns operands of different ranks.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ...ir.primitive import REGISTRY
from ..defs import array as A
from ..defs import grad_ops as G
from ..defs import math as M
from ..defs import nn as N
from ..defs import special as SP
from ..defs.sequence import SEQUENCE_OPS

# Primitives the transformation itself handles (or refuses), with the reason.
NOT_BATCHED = {
    "FusedElementwise": "made by the backend's fusion pass after vmap has run",
    "SparseSoftmaxCrossEntropyWithLogitsGradAndLoss": "made by the backend's sibling merge "
                                                      "after vmap has run",
    "MakeTuple": "structural: vmap batches a tuple element by element",
    "TupleGetItem": "structural: vmap picks the element and its batch axis",
    "Depend": "structural: vmap batches the value and keeps the ordering edge",
    "UpdateState": "monad: orders effects and carries no data",
    "Load": "reads a weight, and weights are never batched",
    "Switch": "control flow: vmap batches both branch graphs (the condition must be "
              "unbatched)",
    "While": "control flow: vmap batches the condition and body graphs (the condition "
             "must be unbatched)",
    "HyperMap": "applies element graphs: vmap batches those graphs",
    "WhileGrad": "backward of a tensor while loop: vmap batches the body's backward "
                 "graph like the loop's states",
    **{name: "memory write: vmap writes a batched argument once, as a whole (vectorize.py)"
       for name in ("Assign", "AssignAdd", "AssignSub")},
    "InplaceCopy": "memory effect: a vmapped function must be pure (clear error)",
    "InplaceIndexAdd": "memory effect: a vmapped function must be pure (clear error)",
    "Print": "IO effect: a vmapped function must be pure (clear error)",
    "TensorDump": "IO effect: a vmapped function must be pure (clear error)",
    **{f"{k}Summary": "IO effect: a vmapped function must be pure (clear error)"
       for k in ("Scalar", "Tensor", "Image", "Histogram")},
    **{f"Scatter{k}": "memory effect: a vmapped function must be pure (clear error)"
       for k in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update")},
    **{f"ScatterNd{k}": "memory write: vmap scatters into a batched argument once, as a "
                        "whole (vectorize.py)"
       for k in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update")},
    **{name: "point-to-point or uneven exchange (IO effect): a batched message would not "
             "match the peer's per-example transfers; vmap refuses it (clear error)"
       for name in ("AlltoAllV", "Send", "Receive")},
    "Raise": "IO effect: a vmapped function must be pure (clear error)",
    "Assert": "IO effect: a vmapped function must be pure (clear error)",
    **{name: "data-dependent output size: the examples of a batch may select different "
             "numbers of elements (MindSpore has no vmap rule either)"
       for name in ("NonZero", "MaskedSelect", "MaskedSelectGrad", "Unique", "SparseAdd",
                    "SparseMatrixAdd", "PadAndShift", "SparseMatrixMatMul", "ListDiff",
                    "SparseTensorToCSRSparseMatrix", "SparseCountSparseOutput")},
    "Range": "data-dependent output size: the examples of a batch may give different "
             "lengths",
    "ConcatOffsetV1": "shape arithmetic on a tuple of shapes (MindSpore has no vmap rule "
                      "either)",
    **{name: "random draws: a batched call cannot give the numbers a loop of per-example "
             "calls would (each call draws anew); vmap refuses it (clear error)"
       for name in ("UniformInt", "RandomShuffle", "RandomPoisson", "RandomGamma",
                    "RandomChoiceWithMask", "RandpermV2", "MultinomialWithReplacement",
                    "RandomCategorical", "Bernoulli", "TruncatedNormal",
                    "ParameterizedTruncatedNormal")},
    "PyExecute": "runs Python at run time (an IO effect): a vmapped function must be pure",
    **{name: "calls the user's backward hook at run time: a vmapped function must be pure"
       for name in ("HookBackward", "RunBackwardHook")},
    **{name: "scalar: computes on Python numbers (mutable scalars), which vmap never batches"
       for name in ("ScalarAdd", "ScalarSub", "ScalarMul", "ScalarDiv", "ScalarFloorDiv",
                    "ScalarMod", "ScalarPow", "ScalarEq", "ScalarNe", "ScalarLt", "ScalarLe",
                    "ScalarGt", "ScalarGe", "BoolAnd", "BoolOr", "BoolNot", "ScalarUsub",
                    "ScalarUadd", "ScalarLog",
                    "ScalarCast", "ScalarToTensor", "TupleToArray", "ScalarMax", "ScalarMin",
                    "MakeSlice", "TensorToScalar")},
    **{name: "dynamic length sequence: its items are batched one by one, never the sequence"
       for name in SEQUENCE_OPS},
}


def rule_for(*names: str):
    """Register the decorated rule for every primitive in ``names``."""
    def register(fn):
        for name in names:
            REGISTRY[name].def_vmap(fn)
        return fn
    return register


# ------------------------------------------------------------------ helpers

def batched(d) -> bool:
    """True when a dims entry (an axis, None, or a tuple of entries) batches anything."""
    if isinstance(d, tuple):
        return any(batched(e) for e in d)
    return d is not None


def batch_size(args, dims) -> int | None:
    """The batch size, read from the first batched input."""
    for a, d in zip(args, dims):
        if isinstance(d, tuple):
            s = batch_size(a, d)
            if s is not None:
                return s
        elif d is not None:
            return a.shape[d]
    return None


def move_axis(x: Tensor, src: int, dst: int) -> Tensor:
    """``x`` with its axis ``src`` moved to position ``dst``."""
    if src == dst:
        return x
    perm = list(range(x.ndim))
    perm.pop(src)
    perm.insert(dst, src)
    return A.Transpose(x, tuple(perm))


def to_front(x: Tensor, d) -> Tensor:
    """``x`` with its batch axis ``d`` first (unchanged when ``d`` is None or 0)."""
    return x if d is None or d == 0 else move_axis(x, d, 0)


def broadcast_batch(x, size: int, axis: int = 0) -> Tensor:
    """An unbatched value repeated ``size`` times along a new axis ``axis``."""
    if not isinstance(x, Tensor):
        x = Tensor(x)
    e = A.ExpandDims(x, axis)
    shape = list(e.shape)
    shape[axis] = size
    return A.BroadcastTo(e, shape=tuple(shape))


def front(x, d, size: int) -> Tensor:
    """``x`` batched along axis 0: moved there, or broadcast when it is unbatched."""
    return broadcast_batch(x, size) if d is None else to_front(x, d)


def _rank(a, d) -> int:
    """The per-example rank of an input."""
    if isinstance(a, Tensor):
        return a.ndim - (d is not None)
    return int(np.ndim(a))


def _axis_value(axis):
    if isinstance(axis, Tensor):
        axis = axis.asnumpy().tolist()
    if isinstance(axis, np.ndarray):
        axis = axis.tolist()
    if isinstance(axis, list):
        axis = tuple(axis)
    return axis


def _norm(axis: int, rank: int) -> int:
    return int(axis) % max(rank, 1)


def _shape_tuple(s) -> tuple:
    s = _axis_value(s)
    return tuple(s) if isinstance(s, tuple) else (s,)


# ------------------------------------------------------------------ elementwise

def _elementwise(opdef):
    """One rule for every elementwise op: batch axes go first, and a batched operand of
    lower rank gets size-1 axes after its batch axis so broadcasting lines up per example
    (unbatched operands and Python numbers broadcast as they are)."""
    def rule(*args, dims, **attrs):
        if len(args) == 1 or not any(batched(d) for d in dims[1:]) and all(
                not isinstance(a, Tensor) for a in args[1:]):
            return opdef(*args, **attrs), dims[0]
        rank = max(_rank(a, d) for a, d in zip(args, dims))
        new = []
        for a, d in zip(args, dims):
            if d is not None:
                a = to_front(a, d)
                r = a.ndim - 1
                if r < rank:
                    a = A.Reshape(a, (a.shape[0],) + (1,) * (rank - r) + a.shape[1:])
            new.append(a)
        return opdef(*new, **attrs), 0
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


ELEMENTWISE = ("Add", "Sub", "Mul", "Div", "FloorDiv", "FloorMod", "Mod", "Pow", "Maximum",
               "Minimum", "Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual",
               "LogicalAnd", "LogicalOr", "LogicalXor", "BitwiseAnd", "BitwiseOr",
               "BitwiseXor", "Gcd", "Lcm", "LeftShift", "RightShift", "NextAfter",
               "PopulationCount", "Select",
               "Neg", "Abs", "Square", "Exp", "Log", "Sqrt", "Rsqrt", "Sin", "Cos", "Tanh",
               "Sigmoid", "ReLU", "GeLU", "HSwish", "Softplus", "Erf", "LogicalNot",
               "ZerosLike", "OnesLike", "TensorMove", "RealDiv", "Reciprocal", "Sign", "Floor",
               "Ceil", "Round", "Log1p", "Expm1", "Tan", "Atan", "Sinh", "Cosh", "Asin", "Acos",
               "SquaredDifference", "Atan2", "Igamma", "Igammac", "IgammaGradA", "Zeta", "Lgamma",
               "Digamma", "Identity", "Complex", "Real", "Imag", "Conj", "Angle",
               "Trunc", "TruncateDiv", "TruncateMod", "Xdivy", "Mish", "SeLU", "SoftShrink",
               "SoftShrinkGrad", "ReLU6", "BesselI0", "BesselI1", "Eps")

for _name in ELEMENTWISE:
    REGISTRY[_name].def_vmap(_elementwise(REGISTRY[_name]))


def _same_shape_pair(opdef):
    """The rule of a two-input op that wants equal shapes (no broadcasting): both inputs
    batched along axis 0, an unbatched one broadcast to the batch."""
    def rule(x, y, *, dims, **attrs):
        size = batch_size((x, y), dims)
        return opdef(front(x, dims[0], size), front(y, dims[1], size), **attrs), 0
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _name in ("DropoutGrad", "ApproximateEqual", "AddV2"):
    REGISTRY[_name].def_vmap(_same_shape_pair(REGISTRY[_name]))


@rule_for("RGBToHSV")
def _rgb_to_hsv(images, *, dims):
    """Per pixel along the last axis: the batch axis goes first."""
    return REGISTRY["RGBToHSV"](to_front(images, dims[0])), 0


@rule_for("Betainc")
def _betainc(a, b, x, *, dims):
    """Inputs of one shape: each batched along axis 0 (broadcast when unbatched)."""
    size = batch_size((a, b, x), dims)
    return REGISTRY["Betainc"](*(front(v, d, size) for v, d in zip((a, b, x), dims))), 0


@rule_for("SquareSumAll")
def _square_sum_all(x, y, *, dims):
    """Each example's sums of squares (float32 sums, as the kernel)."""
    size = batch_size((x, y), dims)
    outs = []
    for v, d in zip((x, y), dims):
        v = front(v, d, size)
        wide = A.Cast(v, mstype.float32)
        total = A.ReduceSum(M.Mul(wide, wide), tuple(range(1, v.ndim)), keep_dims=False)
        outs.append(A.Cast(total, v.dtype))
    return tuple(outs), (0, 0)


@rule_for("Polygamma")
def _polygamma(a, x, *, dims):
    """Elementwise in ``x``; a batched order ``a`` (0-dim per example) is applied example
    by example."""
    if dims[0] is None:
        return SP.Polygamma(a, x), dims[1]
    size = batch_size((a, x), dims)
    a, x = front(a, dims[0], size), front(x, dims[1], size)
    return A.Stack(tuple(SP.Polygamma(a[i], x[i]) for i in range(size)), axis=0), 0


def _masked_grad_rule(name: str) -> None:
    """``name(y_backprop, x)``: both inputs share one shape (no broadcasting)."""
    @rule_for(name)
    def rule(dy, x, *, dims):
        size = batch_size((dy, x), dims)
        return REGISTRY[name](front(dy, dims[0], size), front(x, dims[1], size)), 0


for _masked in ("ReluGrad", "ReLU6Grad"):
    _masked_grad_rule(_masked)


@rule_for("Cast")
def _cast(x, t, *, dims):
    return A.Cast(x, t), dims[0]


# ------------------------------------------------------------------ creation

def _make_constant_rule(opdef):
    def rule(*args, dims, **attrs):
        if any(batched(d) for d in dims):
            raise AssertionError(f"graphkiln bug: '{opdef.name}' got a batched input")
        return opdef(*args, **attrs), None
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _name in ("Zeros", "Ones", "NPUAllocFloatStatus", "Eye", "StandardNormal",
              "UniformReal", "StandardLaplace"):
    REGISTRY[_name].def_vmap(_make_constant_rule(REGISTRY[_name]))


@rule_for("Fill")
def _fill(t, shape, value, *, dims):
    if batched(dims[0]) or batched(dims[1]):
        raise ValueError("For 'Fill' under vmap, the 'type' and 'shape' must be constants.")
    s = _shape_tuple(shape)
    v = to_front(value, dims[2])
    size = v.shape[0]
    v = A.Cast(A.Reshape(v, (size,) + (1,) * len(s)), t)
    return A.BroadcastTo(v, shape=(size,) + s), 0


# ------------------------------------------------------------------ shapes

@rule_for("Reshape")
def _reshape(x, shape, *, dims):
    x = to_front(x, dims[0])
    return A.Reshape(x, (x.shape[0],) + _shape_tuple(shape)), 0


@rule_for("Transpose")
def _transpose(x, perm, *, dims):
    d = dims[0]
    r = x.ndim - 1
    perm = tuple(_norm(p, r) for p in _axis_value(perm))
    return A.Transpose(x, (d,) + tuple(p + (p >= d) for p in perm)), 0


@rule_for("Shift")
def _shift(x, fill_value, *, dims, periods=1, axis=-1):
    if dims[1] is None:
        x = to_front(x, dims[0])
        return A.Shift(x, fill_value, periods=periods,
                       axis=A.shift_axis(axis, x.ndim - 1) + 1), 0
    # one fill per example: the moved values where they came to, each example's fill elsewhere
    fill = to_front(fill_value, dims[1])
    x = front(x, dims[0], fill.shape[0])
    ax = A.shift_axis(axis, x.ndim - 1) + 1
    kind = {"b": False, "i": 0}.get(x.dtype.np_dtype.kind, 0.0)
    moved = A.Shift(x, kind, periods=periods, axis=ax)
    vacated = A.Shift(A.Cast(A.ZerosLike(x), mstype.bool_), True, periods=periods, axis=ax)
    fill = A.Cast(A.Reshape(fill, (fill.shape[0],) + (1,) * (x.ndim - 1)), x.dtype)
    return A.Select(vacated, fill, moved), 0


@rule_for("ReverseV2")
def _reverse_v2(x, *, dims, axis=()):
    r = x.ndim - 1
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    return A.ReverseV2(to_front(x, dims[0]), axis=tuple(_norm(a, r) + 1 for a in axes)), 0


@rule_for("ExpandDims")
def _expand_dims(x, axis, *, dims):
    r = x.ndim - 1
    ax = int(np.asarray(_axis_value(axis)).item()) % (r + 1)  # an int or a one-element Tensor
    return A.ExpandDims(to_front(x, dims[0]), ax + 1), 0


@rule_for("Squeeze")
def _squeeze(x, *, dims, axis=()):
    x = to_front(x, dims[0])
    drop = A._squeeze_axes(x.shape[1:], _axis_value(axis))
    if not drop:
        return x, 0
    return A.Squeeze(x, axis=tuple(a + 1 for a in drop)), 0


@rule_for("Tile")
def _tile(x, multiples, *, dims):
    reps = tuple(_axis_value(multiples))
    x = to_front(x, dims[0])
    r, m = x.ndim - 1, len(reps)
    n = max(r, m)
    if n > r:
        x = A.Reshape(x, (x.shape[0],) + (1,) * (n - r) + x.shape[1:])
    return A.Tile(x, (1,) + (1,) * (n - m) + reps), 0


@rule_for("BroadcastTo")
def _broadcast_to(x, *, dims, shape=()):
    x = to_front(x, dims[0])
    size, s = x.shape[0], x.shape[1:]
    target = _shape_tuple(shape)
    lead = len(target) - len(s)
    target = tuple(s[i - lead] if t == -1 else t for i, t in enumerate(target))
    if lead > 0:
        x = A.Reshape(x, (size,) + (1,) * lead + s)
    return A.BroadcastTo(x, shape=(size,) + target), 0


# ------------------------------------------------------------------ join and split

def _fronts(xs, ds) -> list:
    ds = ds if isinstance(ds, tuple) else (ds,) * len(xs)
    size = batch_size(xs, ds)
    return [front(x, d, size) for x, d in zip(xs, ds)]


@rule_for("Meshgrid")
def _meshgrid(inputs, *, dims, indexing="xy"):
    """Each batched input reshaped to run along its output axis, then broadcast."""
    items = _fronts(inputs, dims[0])
    size = items[0].shape[0]
    axes = A.meshgrid_axes(len(items), indexing)
    grid = [0] * len(items)
    for x, axis in zip(items, axes):
        grid[axis] = x.shape[1]
    outs = []
    for x, axis in zip(items, axes):
        view = [size] + [1] * len(items)
        view[axis + 1] = x.shape[1]
        outs.append(A.BroadcastTo(A.Reshape(x, tuple(view)), shape=(size, *grid)))
    return tuple(outs), (0,) * len(items)


@rule_for("MatrixSolve")
def _matrix_solve(matrix, rhs, *, dims, adjoint=False):
    size = batch_size((matrix, rhs), dims)
    return REGISTRY["MatrixSolve"](front(matrix, dims[0], size), front(rhs, dims[1], size),
                                   adjoint=adjoint), 0


@rule_for("SpaceToDepth")
def _space_to_depth(x, *, dims, block_size=2):
    """The batch folded into N."""
    x = to_front(x, dims[0])
    size, n = x.shape[0], x.shape[1]
    out = A.SpaceToDepth(A.Reshape(x, (size * n,) + tuple(x.shape[2:])), block_size=block_size)
    return A.Reshape(out, (size, n) + tuple(out.shape[1:])), 0


@rule_for("Stack")
def _stack(xs, *, dims, axis=0):
    items = _fronts(xs, dims[0])
    ax = int(axis) % items[0].ndim  # per-example rank + 1
    return A.Stack(tuple(items), axis=ax + 1), 0


@rule_for("Concat")
def _concat(xs, *, dims, axis=0):
    items = _fronts(xs, dims[0])
    ax = _norm(axis, items[0].ndim - 1)
    return A.Concat(tuple(items), axis=ax + 1), 0


@rule_for("ConcatOffset")
def _concat_offset(xs, *, dims, N=2, axis=0):  # noqa: N803
    """The same offsets for every example: those of the first example's inputs."""
    rank = _fronts(xs, dims[0])[0].ndim - 1
    first = tuple(A.Getitem(x, (0,)) for x in _fronts(xs, dims[0]))
    return REGISTRY["ConcatOffset"](first, N=N, axis=_norm(axis, rank)), None


@rule_for("ConcatGrad")
def _concat_grad(dout, xs, *, dims, axis=0):
    size = batch_size((dout, xs), dims)
    items = [front(x, d, size) for x, d in zip(xs, dims[1] if isinstance(dims[1], tuple)
                                               else (dims[1],) * len(xs))]
    ax = _norm(axis, items[0].ndim - 1)
    return G.ConcatGrad(front(dout, dims[0], size), tuple(items), axis=ax + 1), \
        (0,) * len(items)


@rule_for("SumToLike")
def _sum_to_like(dout, like, *, dims):
    size = batch_size((dout, like), dims)
    d0 = front(dout, dims[0], size)
    # like's per-example rank may be lower: its batch axis goes where dout's lands
    lead = d0.ndim - 1 - (like.ndim - (dims[1] is not None))
    like0 = front(like, dims[1], size)
    for _ in range(lead):
        like0 = A.ExpandDims(like0, 1)
    out = G.SumToLike(d0, like0)
    return (A.Squeeze(out, axis=tuple(range(1, 1 + lead))) if lead else out), 0


@rule_for("AddN")
def _addn(xs, *, dims):
    return A.AddN(tuple(_fronts(xs, dims[0]))), 0


@rule_for("Split")
def _split(x, *, dims, axis=0, output_num=1):
    x = to_front(x, dims[0])
    ax = _norm(axis, x.ndim - 1)
    return A.Split(x, axis=ax + 1, output_num=output_num), (0,) * output_num


@rule_for("SplitV")
def _splitv(x, *, dims, size_splits=(), split_dim=0, num_split=1):
    x = to_front(x, dims[0])
    ax = _norm(split_dim, x.ndim - 1)
    return A.SplitV(x, size_splits=size_splits, split_dim=ax + 1,
                    num_split=num_split), (0,) * num_split


# ------------------------------------------------------------------ gather and indexing

@rule_for("Gather")
def _gather(params, indices, axis, *, dims, batch_dims=0):
    dp, di = dims[0], dims[1]
    rp, ri = _rank(params, dp), _rank(indices, di)
    ax = _norm(_axis_value(axis), rp)
    b = batch_dims + ri if batch_dims < 0 else batch_dims
    if di is None and b == 0:
        return A.Gather(to_front(params, dp), indices, ax + 1), 0
    if dp is None and b == 0:
        return A.Gather(params, to_front(indices, di), ax), ax
    size = batch_size((params, indices), (dp, di))
    p, i = front(params, dp, size), front(indices, di, size)
    if b:
        return A.Gather(p, i, ax + 1, batch_dims=b + 1), 0
    # per example p[b][..., i[b], ...]: an advanced index with the batch positions
    rows = Tensor(np.arange(size).reshape((size,) + (1,) * ri))
    out = A.Getitem(p, (rows,) + (slice(None),) * ax + (i,))  # (B,) + i + p[:ax] + p[ax+1:]
    if ax == 0:
        return out, 0
    perm = (0,) + tuple(range(1 + ri, 1 + ri + ax)) + tuple(range(1, 1 + ri)) + tuple(
        range(1 + ri + ax, out.ndim))
    return A.Transpose(out, perm), 0


def _is_int(it) -> bool:
    return isinstance(it, (int, np.integer)) and not isinstance(it, (bool, np.bool_))


class _Index:
    """How a per-example index lays out its result, by NumPy's rules: ``adv`` (it has
    index arrays), ``separated`` (its advanced items are not next to each other, so their
    broadcast ``shape`` comes first in the result), ``pre`` (otherwise, how many result
    axes precede that shape)."""

    def __init__(self, items: list, idims: list, rank: int):
        has_array = any(isinstance(it, Tensor) for it in items)
        used = sum(it.ndim if it.dtype is mstype.bool_ else 1 for it in items
                   if isinstance(it, Tensor))
        used += sum(1 for it in items if _is_int(it) or isinstance(it, slice))
        n_ell = max(rank - used, 0)
        positions, shapes, self.pre = [], [], 0
        for pos, (it, d) in enumerate(zip(items, idims)):
            if isinstance(it, Tensor):
                positions.append(pos)
                if it.dtype is mstype.bool_:
                    shapes.append((int(np.count_nonzero(it.asnumpy())),))
                else:
                    shapes.append(_drop(it.shape, d))
            elif has_array and (_is_int(it) or isinstance(it, (bool, np.bool_))):
                positions.append(pos)
                shapes.append(())
            elif not positions:
                self.pre += n_ell if it is Ellipsis else 0 if _is_int(it) else 1
        self.adv = bool(positions)
        self.separated = self.adv and positions != list(
            range(positions[0], positions[0] + len(positions)))
        self.shape = tuple(np.broadcast_shapes(*shapes)) if shapes else ()


def _drop(shape: tuple, d) -> tuple:
    return shape if d is None else shape[:d] + shape[d + 1:]


def _index_items(index, dind) -> tuple[list, list]:
    items = list(index) if isinstance(index, tuple) else [index]
    if dind is None:
        idims = [None] * len(items)
    else:
        idims = list(dind) if isinstance(index, tuple) else [dind]
    return items, idims


def _expand_masks(items, idims):
    """Boolean masks (constants) as the integer index arrays NumPy turns them into."""
    out_items, out_dims = [], []
    for it, d in zip(items, idims):
        if isinstance(it, Tensor) and it.dtype is mstype.bool_ and it.ndim:
            for arr in np.nonzero(it.asnumpy()):
                out_items.append(Tensor(arr.astype(np.int64)))
                out_dims.append(None)
        else:
            out_items.append(it)
            out_dims.append(d)
    return out_items, out_dims


def _batched_index(items, idims, size: int, rank: int):
    """Index items with batched index arrays moved first and padded to the advanced
    rank, plus the layout of the per-example index."""
    items, idims = _expand_masks(items, idims)
    plan = _Index(items, idims, rank)
    k = len(plan.shape)
    new = []
    for it, d in zip(items, idims):
        if d is not None:
            t = to_front(it, d)
            s = t.shape[1:]
            if len(s) < k:
                t = A.Reshape(t, (size,) + (1,) * (k - len(s)) + s)
            new.append(t)
        else:
            new.append(it)
    return new, plan


@rule_for("Getitem")
def _getitem(x, index, *, dims):
    dx, dind = dims
    items, idims = _index_items(index, dind)
    rank = _rank(x, dx)
    if not batched(dind):
        plan = _Index(items, idims, rank)
        out = A.Getitem(to_front(x, dx), tuple([slice(None)] + items))
        return out, len(plan.shape) if plan.separated else 0
    size = batch_size((x, tuple(items)), (dx, tuple(idims)))
    new, plan = _batched_index(items, idims, size, rank)
    if dx is None:
        return A.Getitem(x, tuple(new)), 0 if plan.separated else plan.pre
    k = len(plan.shape)
    rows = Tensor(np.arange(size).reshape((size,) + (1,) * k))
    raw = A.Getitem(to_front(x, dx), tuple([rows] + new))  # (B,) + adv + other axes
    if plan.separated or not plan.pre:
        return raw, 0
    pre = plan.pre
    perm = (0,) + tuple(range(k + 1, k + 1 + pre)) + tuple(range(1, k + 1)) + tuple(
        range(k + 1 + pre, raw.ndim))
    return A.Transpose(raw, perm), 0


@rule_for("Setitem")
def _setitem(x, index, value, *, dims):
    dx, dind, dv = dims
    if batched(dind):
        raise ValueError("For 'Setitem' under vmap, the index must be the same for every "
                         "example; batch the value instead.")
    items, idims = _index_items(index, dind)
    size = batch_size((x, value), (dx, dv))
    index_b = tuple([slice(None)] + items)
    xb = front(x, dx, size)
    if dv is not None:
        # the value takes the layout of the batched region: the batch axis where the
        # Getitem rule puts it, the example's axes right-aligned
        plan = _Index(items, idims, _rank(x, dx))
        region_rank = A.Getitem(xb, index_b).ndim - 1
        v = to_front(value, dv)
        v = A.Reshape(v, (size,) + (1,) * (region_rank - v.ndim + 1) + v.shape[1:])
        value = move_axis(v, 0, len(plan.shape) if plan.separated else 0)
    return A.Setitem(xb, index_b, value), 0


@rule_for("GetitemGrad")
def _getitem_grad(dout, index, like=None, *, dims, shape=()):
    if like is not None:
        raise ValueError("For 'GetitemGrad' under vmap, the indexed tensor's shape must be "
                         "static.")
    dd, dind = dims[:2]
    items, idims = _index_items(index, dind)
    target = tuple(shape)
    size = batch_size((dout, tuple(items)), (dd, tuple(idims)))
    if not batched(dind):
        plan = _Index(items, idims, len(target))
        d0 = move_axis(dout, dd, len(plan.shape) if plan.separated else 0)
        return G.GetitemGrad(d0, tuple([slice(None)] + items), shape=(size,) + target), 0
    new, plan = _batched_index(items, idims, size, len(target))
    k = len(plan.shape)
    d0 = front(dout, dd, size)
    if not plan.separated and plan.pre:
        pre = plan.pre
        perm = (0,) + tuple(range(1 + pre, 1 + pre + k)) + tuple(range(1, 1 + pre)) + tuple(
            range(1 + pre + k, d0.ndim))
        d0 = A.Transpose(d0, perm)
    rows = Tensor(np.arange(size).reshape((size,) + (1,) * k))
    return G.GetitemGrad(d0, tuple([rows] + new), shape=(size,) + target), 0


# ------------------------------------------------------------------ reductions

def _reduction(opdef):
    def rule(x, axis=(), *, dims, keep_dims=False, skip_mode=False):
        r = x.ndim - 1
        ax = _axis_value(axis)
        axes = ax if isinstance(ax, tuple) else (ax,)
        if not axes:
            if skip_mode:
                return x, dims[0]
            axes = tuple(range(r))
        if r == 0:
            return opdef(x, (), keep_dims=keep_dims, skip_mode=True), dims[0]
        axes = tuple(sorted({_norm(a, r) + 1 for a in axes}))
        return opdef(to_front(x, dims[0]), axes, keep_dims=keep_dims,
                     skip_mode=skip_mode), 0
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _name in ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd"):
    REGISTRY[_name].def_vmap(_reduction(REGISTRY[_name]))


def _arg(opdef):
    def rule(x, *, dims, axis=-1, output_type=mstype.int32):
        r = x.ndim - 1
        if r == 0:  # the index into a scalar is always 0
            return A.Zeros((), output_type), None
        return opdef(to_front(x, dims[0]), axis=_norm(axis, r) + 1, output_type=output_type), 0
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


def _arg_value(opdef):
    def rule(x, *, dims, axis=0, keep_dims=False):
        r = x.ndim - 1
        if r == 0:
            return (A.Zeros((), mstype.int64), x), (None, dims[0])
        return opdef(to_front(x, dims[0]), axis=_norm(axis, r) + 1, keep_dims=keep_dims), (0, 0)
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _name in ("Argmax", "Argmin"):
    REGISTRY[_name].def_vmap(_arg(REGISTRY[_name]))
for _name in ("ArgMaxWithValue", "ArgMinWithValue"):
    REGISTRY[_name].def_vmap(_arg_value(REGISTRY[_name]))


# ------------------------------------------------------------------ matrix products

@rule_for("MatMul", "BatchMatMul")
def _matmul(x, y, *, dims, transpose_a=False, transpose_b=False):
    dx, dy = dims
    rank = max(_rank(x, dx), _rank(y, dy))

    def lift(a, d):
        if d is None:
            return a
        a = to_front(a, d)
        r = a.ndim - 1
        return a if r == rank else A.Reshape(a, (a.shape[0],) + (1,) * (rank - r) + a.shape[1:])
    return M.BatchMatMul(lift(x, dx), lift(y, dy), transpose_a=transpose_a,
                         transpose_b=transpose_b), 0


# ------------------------------------------------------------------ nn

@rule_for("Softmax")
def _softmax(x, *, dims, axis=-1):
    r = x.ndim - 1
    if r == 0:
        return A.OnesLike(x), dims[0]
    axes = _axis_value(axis)
    axes = tuple(_norm(a, r) + 1 for a in axes) if isinstance(axes, tuple) else \
        _norm(axes, r) + 1
    return N.Softmax(to_front(x, dims[0]), axis=axes), 0


@rule_for("LogSoftmax")
def _log_softmax(x, *, dims, axis=-1):
    r = x.ndim - 1
    if r == 0:
        return A.ZerosLike(x), dims[0]
    return N.LogSoftmax(to_front(x, dims[0]), axis=_norm(axis, r) + 1), 0


@rule_for("LayerNorm")
def _layer_norm(x, gamma, beta, *, dims, begin_norm_axis=1, begin_params_axis=1,
                epsilon=1e-7):
    dx, dg, db = dims
    r = _rank(x, dx)
    bna, bpa = _norm(begin_norm_axis, r), _norm(begin_params_axis, r)
    shift = 0 if dx is None else 1
    if dg is None and db is None:
        outs = N.LayerNorm(to_front(x, dx), gamma, beta, begin_norm_axis=bna + 1,
                           begin_params_axis=bpa + 1, epsilon=epsilon)
        return outs, (0, 0, 0)
    # batched scale/shift: normalise with ones/zeros, then apply them per example
    size = batch_size((x, gamma, beta), dims)
    ps = _drop(gamma.shape, dg)
    y, mean, var = N.LayerNorm(to_front(x, dx), A.Ones(ps, gamma.dtype),
                               A.Zeros(ps, beta.dtype), begin_norm_axis=bna + shift,
                               begin_params_axis=bpa + shift, epsilon=epsilon)
    g = A.Reshape(front(gamma, dg, size), (size,) + (1,) * bpa + ps)
    b = A.Reshape(front(beta, db, size), (size,) + (1,) * bpa + ps)
    y = A.Cast(M.Add(M.Mul(y, g), b), x.dtype)
    stat = 0 if dx is not None else None
    return (y, mean, var), (0, stat, stat)


@rule_for("OneHot")
def _one_hot(indices, depth, on_value, off_value, *, dims, axis=-1):
    di, don, doff = dims[0], dims[2], dims[3]
    if batched(dims[1]):
        raise ValueError("For 'OneHot' under vmap, the 'depth' must be a constant.")
    r = _rank(indices, di)
    ax = r if axis == -1 else axis
    if don is None and doff is None:
        return N.OneHot(to_front(indices, di), depth, on_value, off_value, axis=ax + 1), 0
    size = batch_size((indices, depth, on_value, off_value), dims)
    idx = to_front(indices, di) if di is not None else indices
    hit = N.OneHot(idx, depth, Tensor(True), Tensor(False), axis=ax + shift_of(di))
    on = A.Reshape(front(on_value, don, size), (size,) + (1,) * (r + 1))
    off = A.Reshape(front(off_value, doff, size), (size,) + (1,) * (r + 1))
    return A.Select(hit, on, off), 0


def shift_of(d) -> int:
    return 0 if d is None else 1


@rule_for("Dropout")
def _dropout(x, *seed, dims, **attrs):
    dx = dims[0]
    if not (len(seed) and batched(dims[1])):
        # the mask depends only on the seed and the per-example shape: one mask for all
        x0 = to_front(x, dx)
        _, mask = N.Dropout(A.Zeros(x0.shape[1:], x.dtype), *seed, **attrs)
        scale = Tensor(np.asarray(1.0 / attrs.get("keep_prob", 0.5), x.dtype.np_dtype),
                       x.dtype)
        return (M.Mul(M.Mul(x0, mask), scale), mask), (0, None)
    # a seed per example: one draw per example (the batch size is static)
    size = batch_size((x, seed[0]), dims)
    ys, masks = [], []
    for k in range(size):
        xk = x if dx is None else A.Getitem(x, (slice(None),) * dx + (k,))
        sk = A.Getitem(seed[0], (slice(None),) * dims[1] + (k,))
        y, m = N.Dropout(xk, sk, **attrs)
        ys.append(y)
        masks.append(m)
    return (A.Stack(tuple(ys), axis=0), A.Stack(tuple(masks), axis=0)), (0, 0)


# ------------------------------------------------------------------ float status

def _status(opdef):
    """The status register is global: every example reads the same value, so the
    result is unbatched (the input only orders the op)."""
    def rule(x, *, dims):
        return opdef(A.ReduceSum(x, (dims[0],))), None
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _name in ("NPUClearFloatStatus", "NPUGetFloatStatus"):
    REGISTRY[_name].def_vmap(_status(REGISTRY[_name]))


# ------------------------------------------------------------------ introspection

def _per_example_constant(opdef):
    """Shape/dtype reads: every example has the same description, so the result is the
    op applied to one example (unbatched)."""
    def rule(x, *, dims):
        d = dims[0]
        one = x if d is None else A.Getitem(x, (slice(None),) * d + (0,))
        return opdef(one), None
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _name in ("Shape", "TensorShape", "DType", "Rank", "Size", "TopTypeof"):
    REGISTRY[_name].def_vmap(_per_example_constant(REGISTRY[_name]))


# ------------------------------------------------------------------ slicing, top-k

@rule_for("Slice")
def _slice(x, begin, size, *, dims):
    return A.Slice(to_front(x, dims[0]), (0,) + tuple(_shape_tuple(begin)),
                   (-1,) + tuple(_shape_tuple(size))), 0


@rule_for("StridedSlice")
def _strided_slice(x, begin, end, strides, *, dims, **masks):
    index = A.strided_index(begin, end, strides, **masks)
    return A.Getitem(to_front(x, dims[0]), (slice(None),) + index), 0


@rule_for("Flatten")
def _flatten(x, *, dims):
    x0 = to_front(x, dims[0])
    return A.Reshape(x0, (x0.shape[0], x0.shape[1], -1)), 0


@rule_for("Sort")
def _sort(x, *, dims, axis=-1, descending=False):
    x = to_front(x, dims[0])
    ax = _norm(axis, x.ndim - 1)
    return A.Sort(x, axis=ax + 1, descending=descending), (0, 0)


@rule_for("Unstack")
def _unstack(x, *, dims, axis=0, num=None):
    x = to_front(x, dims[0])
    ax = _norm(axis, x.ndim - 1)
    return A.Unstack(x, axis=ax + 1), (0,) * x.shape[ax + 1]


@rule_for("GatherD")
def _gather_d(x, dim, index, *, dims):
    if batched(dims[1]):
        raise ValueError("For 'GatherD' under vmap, the 'dim' must be a constant.")
    size = batch_size((x, index), (dims[0], dims[2]))
    x, index = front(x, dims[0], size), front(index, dims[2], size)
    ax = _norm(dim, x.ndim - 1)
    return A.GatherD(x, ax + 1, index), 0


@rule_for("Pad")
def _pad(x, *, dims, paddings=None):
    return A.Pad(to_front(x, dims[0]), paddings=((0, 0),) + tuple(paddings)), 0


@rule_for("Padding")
def _padding(x, *, dims, pad_dim_size=8):
    return A.Padding(to_front(x, dims[0]), pad_dim_size=pad_dim_size), 0


@rule_for("TopK")
def _top_k(x, k, *, dims, sorted=True):
    if x.ndim == 1:  # 0-d examples: top-k of one element each
        x = A.Reshape(x, (x.shape[0], 1))
    return A.TopK(to_front(x, dims[0]), k, sorted=sorted), (0, 0)


# ------------------------------------------------------------------ gather/scatter by index

def _loop_over_batch(opdef):
    """Apply the op to every example and stack the results (the indices may differ per
    example, so no single call covers the batch)."""
    def rule(*args, dims, **attrs):
        size = batch_size(args, dims)
        outs = []
        for k in range(size):
            one = [a if d is None else A.Getitem(a, (slice(None),) * d + (k,))
                   for a, d in zip(args, dims)]
            outs.append(opdef(*one, **attrs))
        return A.Stack(tuple(outs), axis=0), 0
    rule.__name__ = f"vmap_{opdef.name}"
    return rule


for _name in ("GatherNd", "ScatterNd", "FloatStatus", "MaskedFill", "PReLU", "ReverseSequence",
              "Renorm", "Lstsq", "MapUniform") + tuple(
        f"TensorScatter{k}" for k in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update")):
    REGISTRY[_name].def_vmap(_loop_over_batch(REGISTRY[_name]))


@rule_for("NoRepeatNGram")
def _no_repeat_ngram(state_seq, log_probs, *, dims, ngram_size=1):
    """The examples of a batch are more sequences: folded into the op's batch axis."""
    size = batch_size((state_seq, log_probs), dims)
    seq, logs = front(state_seq, dims[0], size), front(log_probs, dims[1], size)
    out = REGISTRY["NoRepeatNGram"](A.Reshape(seq, (-1,) + seq.shape[2:]),
                                    A.Reshape(logs, (-1,) + logs.shape[2:]),
                                    ngram_size=ngram_size)
    return A.Reshape(out, logs.shape), 0
