"""``jet`` and ``derivative``: higher-order derivatives along a curve (Taylor mode).

``jet(fn, primals, series)`` pushes the curve ``x(t) = x + sum_k series[k-1] t^k / k!``
through ``fn``: ``series[k-1]`` is the ``k``-th derivative of the input at ``t = 0``, and
the result holds ``fn(x)`` and the ``1..n``-th derivatives of ``fn(x(t))`` at ``t = 0``
(MindSpore's convention: derivatives, not Taylor coefficients). They are exact: the
``k``-th is the forward-mode derivative (``jvp``) of the ``(k-1)``-th in the scalar ``t``,
so every primitive with a backward rule has Taylor rules too. ``derivative(fn, primals,
order)`` is the jet of the straight line ``x + t``: the ``order``-th derivative.
"""
from __future__ import annotations

import math

import graphkiln.ops.functional as F

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ...transforms.forward_mode import jvp_in_graph
from .jvp import as_tensor_tuple
from .transformed import transformed

_JET_DTYPES = (mstype.int32, mstype.int64, mstype.float32, mstype.float64)


def _as_float(x: Tensor) -> Tensor:
    return F.cast(x, mstype.float32) if x.dtype in (mstype.int32, mstype.int64) else x


def _check_jet_pair(x, s) -> tuple[Tensor, Tensor]:
    if not isinstance(x, Tensor) or not isinstance(s, Tensor):
        raise TypeError("For 'F.jet', the elements of 'primals' and 'series' must be "
                        f"Tensors, but got {type(x).__name__} and {type(s).__name__}.")
    if x.dtype not in _JET_DTYPES or x.dtype is not s.dtype:
        raise TypeError("For `F.jet`, the elements' types of primals and series must be the "
                        "same and belong to `mstype.int32, mstype.int64, mstype.float32, "
                        f"mstype.float64`, but got {x.dtype} and {s.dtype}.")
    if tuple(s.shape) == tuple(x.shape):
        s = F.expand_dims(s, 0)  # the first derivative alone
    elif tuple(s.shape[1:]) != tuple(x.shape):
        raise ValueError(f"In series, the shape of each element must be the same as the "
                         f"primals, but got series of shape {list(s.shape)} for primals of "
                         f"shape {list(x.shape)}.")
    return _as_float(x), _as_float(s)


def _curve(x: Tensor, series: Tensor, t: Tensor) -> Tensor:
    """``x + sum_k series[k-1] t^k / k!`` (Horner's scheme: sums and products only)."""
    n = series.shape[0]
    t = F.cast(t, x.dtype)
    acc = series[n - 1] / math.factorial(n)
    for k in range(n - 1, 0, -1):
        acc = series[k - 1] / math.factorial(k) + t * acc
    return x + t * acc


def _outputs(out) -> tuple:
    return as_tensor_tuple(out, "F.jet", "the output of 'fn'")


def _derivatives(fn, xs: tuple, series: tuple, order: int) -> tuple[tuple, list]:
    """``fn``'s outputs and, per output, its ``1..order``-th derivatives along the curve."""
    n_out = len(_outputs(fn(*xs)))

    def along(t):  # the outputs at x(t), then their derivatives in t up to the order
        return _outputs(fn(*[_curve(x, s, t) for x, s in zip(xs, series)]))

    def up_to(k: int):
        if k == 0:
            return along

        def dk(t):
            lower = up_to(k - 1)
            values, tangents = jvp_in_graph(lower, (t,), (F.ones_like(t),))
            return (*values[:n_out], *tangents)
        return dk

    t0 = Tensor(0.0, mstype.float64 if any(x.dtype is mstype.float64 for x in xs)
                else mstype.float32)
    flat = up_to(order)(t0)
    primals = flat[:n_out]
    per_output = [[flat[k * n_out + o] for k in range(1, order + 1)] for o in range(n_out)]
    return primals, per_output


def _package(primals: tuple, per_output: list, pick):
    """One output: ``(primal, pick(its derivatives))``; several: lists of those."""
    if len(primals) == 1:
        return primals[0], pick(per_output[0])
    return list(primals), [pick(d) for d in per_output]


def _jet(fn, options, *pairs):
    n = len(pairs) // 2
    xs, series = pairs[:n], pairs[n:]
    order = series[0].shape[0]
    if any(s.shape[0] != order for s in series):
        raise ValueError(f"For 'F.jet', every Tensor in 'series' must hold the same number "
                         f"of derivatives, but got {[s.shape[0] for s in series]}.")
    primals, per_output = _derivatives(fn, xs, series, order)
    return _package(primals, per_output, F.stack)


def _derivative(fn, options, *xs):
    (order,) = options
    series = tuple(F.concat((F.ones_like(x)[None], F.zeros((order - 1, *x.shape), x.dtype)))
                   if order > 1 else F.ones_like(x)[None] for x in xs)
    primals, per_output = _derivatives(fn, xs, series, order)
    return _package(primals, per_output, lambda ds: ds[-1])


def jet(fn, primals, series):
    """``(fn(primals), derivatives)``: the ``1..n``-th derivatives of ``fn`` along the curve
    through ``primals`` whose ``1..n``-th derivatives are ``series`` (a Tensor of shape
    ``(n, *primals.shape)``, or a tuple of them for a tuple of primals). Integer inputs are
    taken as float32."""
    if isinstance(primals, Tensor) and isinstance(series, Tensor):
        pairs = [_check_jet_pair(primals, series)]
    elif isinstance(primals, tuple) and isinstance(series, tuple):
        if len(primals) != len(series):
            raise ValueError(f"The lengths of primals and series must be the same, but got "
                             f"{len(primals)} and {len(series)}.")
        pairs = [_check_jet_pair(x, s) for x, s in zip(primals, series)]
    else:
        raise TypeError("For 'F.jet', the 'primals' and `series` must be both Tensor or tuple, "
                        f"but got {type(primals).__name__} and {type(series).__name__}.")
    xs, ss = zip(*pairs)
    return transformed("jet", _jet, fn)(*xs, *ss)


def derivative(fn, primals, order: int):
    """``(fn(primals), d^order/dt^order fn(primals + t))`` at ``t = 0``: the ``order``-th
    derivative along the direction of all ones (for each input)."""
    if not isinstance(order, int) or isinstance(order, bool):
        raise TypeError(f"For `F.derivative`, the type of order must be int, but got "
                        f"{type(order).__name__}.")
    if order < 1:
        raise ValueError(f"For `F.derivative`, value of order should not be less than 1, "
                         f"but got {order}.")
    xs = primals if isinstance(primals, tuple) else (primals,)
    for x in xs:
        if not isinstance(x, Tensor) or x.dtype not in _JET_DTYPES:
            raise TypeError("For `F.derivative`, the elements of primals must belong to "
                            "`mstype.int32, mstype.int64, mstype.float32, mstype.float64`, "
                            f"but got {getattr(x, 'dtype', type(x).__name__)}.")
    xs = tuple(_as_float(x) for x in xs)
    return transformed("derivative", _derivative, fn, (order,))(*xs)


__all__ = ["jet", "derivative"]
