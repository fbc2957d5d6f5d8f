"""Gamma-function primitives: ``Lgamma`` (log |Gamma(x)|), ``Digamma`` (its derivative),
``Polygamma`` (Digamma's n-th derivative) and the regularized incomplete gamma functions
``Igamma`` (lower, P(a, x)), ``Igammac`` (upper, Q(a, x) = 1 - P) and ``IgammaGradA``
(dP/da, their backward rule's ``a`` part), and the regularized incomplete beta function
``Betainc`` (I_x(a, b), by its continued fraction; inputs of one shape, no broadcasting).

Computed in float64 with NumPy: the power series of P where ``x < a + 1`` and the
continued fraction of Q elsewhere (each where it converges fast and without
cancellation); dP/da differentiates the series term by term. As MindSpore's kernels:
float32/float64 tensors of one dtype, broadcast; NaN where ``a <= 0`` or ``x < 0``.
"""
from __future__ import annotations

import math

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import FLOATS, broadcast_shapes, describe, quiet, shapes_match
from .math import unary

_TYPES = (mstype.float32, mstype.float64)
_EPS = np.finfo(np.float64).eps
_TINY = 1e-300
_MAX_TERMS = 5000  # the series needs about x + 10 sqrt(x) terms; the fraction fewer
_lgamma_object = np.frompyfunc(math.lgamma, 1, 1)


def _lgamma(x) -> np.ndarray:
    """log |Gamma(x)| elementwise in float64; +inf at the poles (0, -1, -2...)."""
    x = np.asarray(x, np.float64)
    pole = (x <= 0) & (x == np.floor(x))
    return np.where(pole, np.inf, np.asarray(_lgamma_object(np.where(pole, 1.0, x)), np.float64))


def _gamma_infer(name: str):
    def infer(a, x):
        args = (("a", a), ("x", x))
        for arg, v in args:
            if not isinstance(v, AbstractTensor):
                raise TypeError(f"For primitive[{name}], the input argument[{arg}] must be a "
                                f"Tensor, but got {describe(v)}.")
        if a.dtype is not x.dtype:
            raise TypeError(f"For primitive[{name}], the input type must be same. Got "
                            f"a: Tensor[{a.dtype}] and x: Tensor[{x.dtype}].")
        if a.dtype not in _TYPES:
            raise TypeError(f"For primitive[{name}], the input argument[a] must be a type of "
                            f"{{Tensor[Float32], Tensor[Float64]}}, but got Tensor[{a.dtype}].")
        return AbstractTensor(a.dtype, broadcast_shapes(name, a.shape, x.shape))
    return infer


def _log_prefactor(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """log(x**a e**-x / Gamma(a))."""
    return a * np.log(x) - x - _lgamma(a)


def _series(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """P(a, x) by its power series (for x < a + 1)."""
    term = 1.0 / a
    total = term.copy()
    for n in range(1, _MAX_TERMS):
        term = term * x / (a + n)
        total += term
        if np.all(np.abs(term) <= np.abs(total) * _EPS):
            break
    return total * np.exp(_log_prefactor(a, x))


def _continued_fraction(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Q(a, x) by its continued fraction, modified Lentz (for x >= a + 1)."""
    b = x + 1.0 - a
    c = np.full_like(x, 1.0 / _TINY)
    d = 1.0 / b
    h = d.copy()
    for i in range(1, _MAX_TERMS):
        an = -i * (i - a)
        b = b + 2.0
        d = an * d + b
        d = np.where(np.abs(d) < _TINY, _TINY, d)
        c = b + an / c
        c = np.where(np.abs(c) < _TINY, _TINY, c)
        d = 1.0 / d
        delta = d * c
        h = h * delta
        if np.all(np.abs(delta - 1.0) <= _EPS):
            break
    return np.exp(_log_prefactor(a, x)) * h


def _lower_upper(a, x) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(P, Q, valid) in float64 for broadcast ``a`` and ``x``."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    p = np.full(a.shape, np.nan)
    q = np.full(a.shape, np.nan)
    valid = (a > 0) & (x >= 0)
    zero = valid & (x == 0)
    p[zero], q[zero] = 0.0, 1.0
    inf = valid & np.isinf(x)
    p[inf] = 1.0  # (and Q stays NaN there, as MindSpore 2.10's Igammac gives)
    use_series = valid & ~zero & ~inf & (x < a + 1)
    use_fraction = valid & ~zero & ~inf & ~use_series
    if use_series.any():
        p[use_series] = _series(a[use_series], x[use_series])
        q[use_series] = 1.0 - p[use_series]
    if use_fraction.any():
        q[use_fraction] = _continued_fraction(a[use_fraction], x[use_fraction])
        p[use_fraction] = 1.0 - q[use_fraction]
    return p, q, valid


def _digamma(x) -> np.ndarray:
    """psi(x) in float64: the reflection formula below 0.5 (NaN at the poles -1, -2...,
    -inf at 0 as MindSpore gives), then :func:`_digamma_positive`."""
    x = np.asarray(x, np.float64)
    neg = x < 0.5
    z = np.where(neg, 1.0 - x, x)
    out = _digamma_positive(z)
    out = np.where(neg, out - np.pi / np.tan(np.pi * x), out)
    out = np.where((x < 0) & (x == np.floor(x)), np.nan, out)
    return np.where(x == 0, -np.inf, out)


def _digamma_positive(z: np.ndarray) -> np.ndarray:
    """psi(z) for z > 0: recurrence up to z >= 6, then the asymptotic series."""
    z = z.copy()
    acc = np.zeros_like(z)
    small = z < 6
    while small.any():
        acc[small] -= 1.0 / z[small]
        z[small] += 1.0
        small = z < 6
    inv2 = 1.0 / (z * z)
    tail = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 / 132))))
    return acc + np.log(z) - 0.5 / z - tail


# Bernoulli numbers B_2, B_4, ... B_20 (the asymptotic series of the polygamma functions)
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510,
              43867 / 798, -174611 / 330)


def _polygamma(n: int, x) -> np.ndarray:
    """psi^(n)(x) in float64 for n >= 1: the reflection formula below 0, the recurrence
    psi^(n)(x) = psi^(n)(x + 1) + (-1)^(n+1) n! / x^(n+1) up to x >= 15 + n, then the
    asymptotic series; infinite at the poles 0, -1, -2... (sign (-1)^(n+1), as MindSpore)."""
    x = np.array(x, np.float64)
    sign = 1.0 if n % 2 else -1.0
    pole = (x <= 0) & (x == np.floor(x))
    neg = (x < 0) & ~pole
    z = np.where(pole, 1.0, np.where(neg, 1.0 - x, x))
    acc = np.zeros_like(z)
    small = z < 15 + n
    while small.any():
        acc[small] += math.factorial(n) / z[small] ** (n + 1)
        z[small] += 1.0
        small = z < 15 + n
    tail = math.factorial(n - 1) / z ** n + math.factorial(n) / (2 * z ** (n + 1))
    for k, b in enumerate(_BERNOULLI, 1):
        tail += b * math.factorial(2 * k + n - 1) / math.factorial(2 * k) / z ** (2 * k + n)
    out = sign * (acc + tail)
    # psi^(n)(x) = (-1)^n psi^(n)(1 - x) - pi d^n/dx^n cot(pi x)
    cot_n = np.pi ** (n + 1) * _cot_derivative(n, 1.0 / np.tan(np.pi * np.where(neg, x, 0.5)))
    out = np.where(neg, -sign * out - cot_n, out)
    return np.where(pole, sign * np.inf, out)


def _cot_derivative(n: int, c: np.ndarray) -> np.ndarray:
    """P_n(c) with d^n/dy^n cot(y) = P_n(cot y): P_0 = c, P_k+1 = -(1 + c^2) P_k'."""
    poly = np.array([0.0, 1.0])  # coefficients, lowest power first
    for _ in range(n):
        poly = -np.polynomial.polynomial.polymul([1.0, 0.0, 1.0],
                                                 np.polynomial.polynomial.polyder(poly))
    return np.polynomial.polynomial.polyval(c, poly)


def _polygamma_infer(a, x):
    if not isinstance(a, AbstractTensor):
        raise TypeError(f"For primitive[Polygamma], the type of input argument[a] must be "
                        f"Tensor but got {describe(a)}.")
    if a.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For primitive[Polygamma], the input argument[a] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{a.dtype}].")
    if a.shape:
        raise ValueError(f"For 'Polygamma', 'a' should be a 0-dim Tensor, but got rank: "
                         f"{len(a.shape)}.")
    if not isinstance(x, AbstractTensor):
        raise TypeError(f"For primitive[Polygamma], the type of input argument[x] must be "
                        f"Tensor but got {describe(x)}.")
    if x.dtype not in FLOATS:
        raise TypeError(f"For primitive[Polygamma], the input argument[x] must be a type of "
                        f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got "
                        f"Tensor[{x.dtype}].")
    return AbstractTensor(x.dtype, x.shape)


@quiet
def _polygamma_kernel(a, x):
    n = int(a)
    if n < 0:
        out = np.full(np.shape(x), np.nan)
    else:
        out = _digamma(x) if n == 0 else _polygamma(n, x)
    return out.astype(np.asarray(x).dtype)


def _grad_a(a, x) -> np.ndarray:
    """dP/da = sum_n t_n (log x - psi(a + n + 1)), t_n the series' terms of P."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.full(a.shape, np.nan)
    valid = (a > 0) & (x >= 0)
    out[valid & ((x == 0) | np.isinf(x))] = 0.0
    live = valid & (x > 0) & np.isfinite(x)
    if live.any():
        av, xv = a[live], x[live]
        logx = np.log(xv)
        term = np.exp(_log_prefactor(av, xv) - np.log(av))  # t_0 = prefactor / a
        psi = _digamma_positive(av + 1.0)
        total = term * (logx - psi)
        for n in range(1, _MAX_TERMS):
            term = term * xv / (av + n)
            psi = psi + 1.0 / (av + n)
            step = term * (logx - psi)
            total += step
            if np.all((n > xv) & (np.abs(step) <= np.abs(total) * _EPS + _TINY)):
                break
        out[live] = total
    return out


def _kernel(fn):
    @quiet
    def kernel(a, x):
        dtype = np.asarray(a).dtype
        return fn(a, x).astype(dtype)
    return kernel


Lgamma = unary("Lgamma", _lgamma, FLOATS)
Digamma = unary("Digamma", _digamma, FLOATS)
# Polygamma(a, x): psi^(a)(x) for a 0-dim int Tensor ``a`` (NaN for a < 0)
Polygamma = OpDef("Polygamma", _polygamma_infer, _polygamma_kernel)
Igamma = OpDef("Igamma", _gamma_infer("Igamma"), _kernel(lambda a, x: _lower_upper(a, x)[0]))
Igammac = OpDef("Igammac", _gamma_infer("Igammac"),
                _kernel(lambda a, x: _lower_upper(a, x)[1]))
IgammaGradA = OpDef("IgammaGradA", _gamma_infer("IgammaGradA"), _kernel(_grad_a),
                    differentiable=False)


# ------------------------------------------------------------------ incomplete beta

def _betainc_infer(a, b, x):
    args = {"a": a, "b": b, "x": x}
    for arg, v in args.items():
        if not isinstance(v, AbstractTensor):
            raise TypeError(f"For primitive[Betainc], the input argument[{arg}] must be a "
                            f"Tensor, but got {describe(v)}.")
    if not a.dtype is b.dtype is x.dtype:
        raise TypeError("For primitive[Betainc], the input type must be same.")
    if a.dtype not in _TYPES:
        raise TypeError(f"For primitive[Betainc], the input argument[a] must be a type of "
                        f"{{Tensor[Float32], Tensor[Float64]}}, but got Tensor[{a.dtype}].")
    def dims(v):
        return "(" + ", ".join(str(d) for d in v.shape) + ")"

    for arg in ("b", "x"):
        if not shapes_match(tuple(args[arg].shape), tuple(a.shape)):
            raise ValueError(f"For 'Betainc, shape of {arg} {dims(args[arg])} are not "
                             f"consistent with the shape a {dims(a)} .")
    return AbstractTensor(a.dtype, tuple(a.shape))


def _guard(v: np.ndarray) -> np.ndarray:
    return np.where(np.abs(v) < _TINY, _TINY, v)


def _beta_fraction(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The continued fraction of I_x(a, b) (modified Lentz), fast for x < (a+1)/(a+b+2)."""
    c = np.ones_like(x)
    d = 1.0 / _guard(1.0 - (a + b) * x / (a + 1.0))
    h = d.copy()
    for m in range(1, _MAX_TERMS):
        even = m * (b - m) * x / ((a + 2 * m - 1.0) * (a + 2 * m))
        odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1.0))
        for coef in (even, odd):
            d = 1.0 / _guard(1.0 + coef * d)
            c = _guard(1.0 + coef / c)
            delta = d * c
            h = h * delta
        if np.all(np.abs(delta - 1.0) <= _EPS):
            break
    return h


def _log_beta(a, b) -> np.ndarray:
    return _lgamma(a) + _lgamma(b) - _lgamma(a + b)


def _betainc(a, b, x) -> np.ndarray:
    """I_x(a, b) in float64: 0 at x = 0, 1 at x = 1, NaN where a <= 0, b <= 0 or x is
    outside [0, 1] (as MindSpore's kernel)."""
    a, b, x = (np.asarray(v, np.float64) for v in (a, b, x))
    out = np.full(a.shape, np.nan)
    valid = (a > 0) & (b > 0) & (x >= 0) & (x <= 1)
    out[valid & (x == 0)] = 0.0
    out[valid & (x == 1)] = 1.0
    inner = valid & (x > 0) & (x < 1)
    direct = inner & (x < (a + 1.0) / (a + b + 2.0))
    swapped = inner & ~direct
    for where, p, q, t in ((direct, a, b, x), (swapped, b, a, 1.0 - x)):
        if where.any():
            p, q, t = p[where], q[where], t[where]
            front = np.exp(p * np.log(t) + q * np.log1p(-t) - _log_beta(p, q)) / p
            value = front * _beta_fraction(p, q, t)
            out[where] = value if where is direct else 1.0 - value
    return out


# Betainc(a, b, x): the regularized incomplete beta function I_x(a, b)
Betainc = OpDef("Betainc", _betainc_infer, quiet(lambda a, b, x: _betainc(a, b, x).astype(
    np.asarray(a).dtype)))


# ------------------------------------------------------------------ Hurwitz zeta
# zeta(x, q) = sum_k (q + k)^-x by Euler-Maclaurin (as Cephes' zeta): the first terms summed
# until q + k > 9, the tail as its integral plus Bernoulli corrections
_ZETA_CORRECTIONS = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0,
                     -1.8924375803183791606e9, 7.47242496e10, -2.950130727918164224e12,
                     1.1646782814350067249e14, -4.5979787224074726105e15,
                     1.8152105401943546773e17, -7.1661652561756670113e18)


def _zeta(x, q) -> np.ndarray:
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    shift = np.clip(np.ceil(9.0 - q), 9, 64).astype(int)
    total = np.zeros(x.shape)
    for k in range(int(shift.max(initial=9))):
        total = total + np.where(k < shift, (q + k) ** -x, 0.0)
    a = q + shift
    b = a ** -x
    total = total + a * b / (x - 1.0) + 0.5 * b
    factor, k = np.ones(x.shape), 0.0
    for c in _ZETA_CORRECTIONS:
        factor = factor * (x + k)
        b = b / a
        total = total + factor * b / c
        factor = factor * (x + k + 1.0)
        b = b / a
        k += 2.0
    pole = q <= 0  # (MindSpore's: NaN at q = 0, inf at the negative integers)
    total = np.where(pole & (q == np.floor(q)), np.where(q == 0, np.nan, np.inf),
                     np.where(pole & (x != np.floor(x)), np.nan, total))
    return np.where(x == 1, np.inf, np.where(x < 1, np.nan, total))


def _zeta_infer(x, q):
    out = _gamma_infer("Zeta")(x, q)
    if len(x.shape) != len(q.shape) or any(a != b and a >= 0 and b >= 0
                                           for a, b in zip(x.shape, q.shape)):
        raise ValueError(f"For primitive[Zeta], the shapes of 'x' and 'q' must be the same, "
                         f"but got {list(x.shape)} and {list(q.shape)}.")
    return out


Zeta = OpDef("Zeta", _zeta_infer, _kernel(_zeta))
