"""``ops.einsum``: Einstein summation as a composite of ``Transpose``, ``Reshape``,
``ReduceSum`` and batched ``MatMul`` (so it differentiates and batches like its parts).

Each operand's subscripts become a list of index names (``...`` becomes one name per
broadcast dimension, right-aligned). A repeated index takes the diagonal; an index that
no later operand and not the output needs is summed out at once; operands are then
contracted left to right, each pair as one batched matrix product: the indices the pair
shares and something later needs are the batch, the shared ones nothing needs are the
contraction."""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common.tensor import Tensor
from .array_ops import diagonal

__all__ = ["einsum"]


def _error(msg: str) -> ValueError:
    return ValueError(f"For 'Einsum', {msg}")


def _parse(equation: str, operands: tuple) -> tuple:
    """``(names of each operand, names of the output)``."""
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise _error(f"the number of inputs must be equal to the number of subscripts in the "
                     f"equation, but got {len(operands)} and {len(terms)}.")
    ell = 0
    for term, x in zip(terms, operands):
        if "..." in term:
            ell = max(ell, x.ndim - len(term.replace("...", "")))
    names = []
    for term, x in zip(terms, operands):
        head, dots, tail = term.partition("...")
        if not (head + tail).isalpha() and (head + tail):
            raise _error(f"the subscripts must be letters, but got '{term}'.")
        k = x.ndim - len(head + tail) if dots else 0
        if k < 0 or (not dots and len(term) != x.ndim):
            raise _error(f"the number of subscripts '{term}' does not match the rank "
                         f"{x.ndim} of its operand.")
        names.append(list(head) + [f".{i}" for i in range(ell - k, ell)] + list(tail))
    if arrow:
        head, dots, tail = out.partition("...")
        out_names = list(head) + ([f".{i}" for i in range(ell)] if dots else []) + list(tail)
    else:
        counts = {}
        for n in (n for ns in names for n in ns):
            counts[n] = counts.get(n, 0) + 1
        out_names = [f".{i}" for i in range(ell)] + sorted(
            n for n, c in counts.items() if c == 1 and not n.startswith("."))
    every = {n for ns in names for n in ns}
    for n in out_names:
        if n not in every:
            raise _error(f"the output subscript '{n}' does not appear in the inputs.")
    return names, out_names


def _diagonals(x: Tensor, names: list) -> tuple:
    """``x`` with each repeated index reduced to its diagonal (moved last)."""
    while len(set(names)) < len(names):
        first = next(n for n in names if names.count(n) > 1)
        i = names.index(first)
        j = names.index(first, i + 1)
        x = diagonal(x, 0, i, j)
        names = [n for k, n in enumerate(names) if k not in (i, j)] + [first]
    return x, names


def _sum_out(x: Tensor, names: list, keep: set) -> tuple:
    axes = tuple(i for i, n in enumerate(names) if n not in keep)
    if not axes:
        return x, names
    return F.reduce_sum(x, axes), [n for n in names if n in keep]


def _arrange(x: Tensor, names: list, order: list, sizes: dict) -> Tensor:
    """``x`` transposed to ``order`` and broadcast to ``sizes`` (size-1 broadcast dims)."""
    x = F.transpose(x, tuple(names.index(n) for n in order)) if names != order else x
    shape = tuple(sizes[n] for n in order)
    return F.broadcast_to(x, shape) if tuple(x.shape) != shape else x


def _contract(a: Tensor, an: list, b: Tensor, bn: list, needed: set) -> tuple:
    sizes = {}
    for x, ns in ((a, an), (b, bn)):
        for n, d in zip(ns, x.shape):
            sizes[n] = max(sizes.get(n, 1), d)
    batch = [n for n in an if n in bn and n in needed]
    inner = [n for n in an if n in bn and n not in needed]
    left = [n for n in an if n not in bn]
    right = [n for n in bn if n not in an]

    def size(ns):
        total = 1
        for n in ns:
            total *= sizes[n]
        return total

    bs = tuple(sizes[n] for n in batch)
    a3 = F.reshape(_arrange(a, an, batch + left + inner, sizes),
                   bs + (size(left), size(inner)))
    b3 = F.reshape(_arrange(b, bn, batch + inner + right, sizes),
                   bs + (size(inner), size(right)))
    out = F.matmul(a3, b3)
    shape = bs + tuple(sizes[n] for n in left) + tuple(sizes[n] for n in right)
    return F.reshape(out, shape), batch + left + right


def einsum(equation: str, *operands) -> Tensor:
    """The sum over the indices that ``equation`` (``"ij,jk->ik"``) leaves out of its output
    of the products of the operands' elements."""
    if not isinstance(equation, str):
        raise TypeError(f"For 'Einsum', the 'equation' must be a str, but got "
                        f"{type(equation).__name__}.")
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    for x in operands:
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'Einsum', each operand must be a Tensor, but got "
                            f"{type(x).__name__}.")
    names, out_names = _parse(equation, operands)
    pending = [_diagonals(x, ns) for x, ns in zip(operands, names)]
    for k, (x, ns) in enumerate(pending):
        later = set(out_names).union(*[set(n) for _, n in pending[:k] + pending[k + 1:]])
        pending[k] = _sum_out(x, ns, later)
    acc, acc_names = pending[0]
    for k in range(1, len(pending)):
        needed = set(out_names).union(*[set(n) for _, n in pending[k + 1:]])
        acc, acc_names = _sum_out(acc, acc_names, needed | set(pending[k][1]))
        b, bn = _sum_out(pending[k][0], pending[k][1], needed | set(acc_names))
        acc, acc_names = _contract(acc, acc_names, b, bn, needed)
    acc, acc_names = _sum_out(acc, acc_names, set(out_names))
    if acc_names != out_names:
        acc = F.transpose(acc, tuple(acc_names.index(n) for n in out_names))
    return acc
