"""``line_search``: an inexact line search satisfying the strong Wolfe conditions
(Algorithms 3.5 and 3.6, "zoom", of Nocedal and Wright, Numerical Optimization, 1999,
pp. 59-61; the trial steps of the zoom by cubic, then quadratic interpolation, else
bisection).

The searches are Cells whose loops are ``ops.WhileLoop`` over one state dict of Tensors:
in PyNative they run step by step, in GRAPH_MODE (or inside ``@jit``) they compile to
``While`` loops."""
from __future__ import annotations

from typing import NamedTuple

import graphkiln.numpy as mnp
import graphkiln.ops as ops

from ... import nn
from ...common import dtype as mstype
from ...common.tensor import Tensor


class LineSearchResults(NamedTuple):
    """``failed``: no step met the strong Wolfe conditions; ``nit``: iterations; ``nfev``,
    ``ngev``: function and gradient evaluations; ``k``: the last iteration number;
    ``a_k``: the step; ``f_k``, ``g_k``: the function and gradient there; ``status``: 0
    done, 1 the zoom failed, 3 ``maxiter`` reached."""
    failed: bool
    nit: int
    nfev: int
    ngev: int
    k: int
    a_k: float
    f_k: float
    g_k: Tensor
    status: int


def _cubic_min(a, fa, fpa, b, fb, c, fc):
    """The minimiser of the cubic through ``(a, fa)``, ``(b, fb)``, ``(c, fc)`` with slope
    ``fpa`` at ``a`` (NaN or inf when there is none)."""
    db, dc = b - a, c - a
    denom = (db * dc) ** 2 * (db - dc)
    rb = fb - fa - fpa * db
    rc = fc - fa - fpa * dc
    a2 = (dc ** 2 * rb - db ** 2 * rc) / denom
    b2 = (-(dc ** 3) * rb + db ** 3 * rc) / denom
    return a + (-b2 + mnp.sqrt(b2 * b2 - 3.0 * a2 * fpa)) / (3.0 * a2)


def _quad_min(a, fa, fpa, b, fb):
    """The minimiser of the parabola through ``(a, fa)``, ``(b, fb)`` with slope ``fpa``
    at ``a``."""
    db = b - a
    return a - fpa / (2.0 * ((fb - fa - fpa * db) / (db * db)))


class _Probe(nn.Cell):
    """``phi(alpha) = f(x + alpha p)``, its gradient in ``x`` and its slope in ``alpha``."""

    def __init__(self, func, jac):
        super().__init__()
        self.func = func
        self.jac = jac

    def construct(self, xk, pk, alpha):
        x = xk + alpha * pk
        g = self.jac(x)
        return self.func(x), g, mnp.dot(g, pk)


class _Zoom(nn.Cell):
    """Algorithm 3.6: shrink ``[a_low, a_high]`` (at most 10 trial steps, as SciPy) until a
    step meets the strong Wolfe conditions; nothing happens unless ``run``."""

    def __init__(self, probe):
        super().__init__()
        self.probe = probe

    def construct(self, xk, pk, a_low, phi_low, dphi_low, a_high, phi_high, dphi_high,
                  phi_0, g_0, dphi_0, c1, c2, run):
        state = {
            "done": Tensor(False), "j": Tensor(0, mstype.int32),
            "a_low": a_low, "phi_low": phi_low, "dphi_low": dphi_low, "a_high": a_high,
            "phi_high": phi_high, "dphi_high": dphi_high, "a_rec": (a_low + a_high) / 2.0,
            "phi_rec": (phi_low + phi_high) / 2.0, "a_star": ops.ones_like(a_low),
            "phi_star": phi_low, "dphi_star": dphi_low, "g_star": g_0,
            "nfev": Tensor(0, mstype.int32),
        }

        def going(st):
            return mnp.logical_and(mnp.logical_and(run, mnp.logical_not(st["done"])),
                                   st["j"] < 10)

        def step(st):
            st = dict(st)
            lo, hi = st["a_low"], st["a_high"]
            width = hi - lo
            left, right = mnp.minimum(lo, hi), mnp.maximum(lo, hi)
            cubic = _cubic_min(lo, st["phi_low"], st["dphi_low"], hi, st["phi_high"],
                               st["a_rec"], st["phi_rec"])
            use_cubic = mnp.logical_and(
                mnp.logical_and(st["j"] > 0, mnp.isfinite(cubic)),
                mnp.logical_and(cubic > left + 0.2 * width, cubic < right - 0.2 * width))
            quad = _quad_min(lo, st["phi_low"], st["dphi_low"], hi, st["phi_high"])
            use_quad = mnp.logical_and(
                mnp.logical_and(mnp.logical_not(use_cubic), mnp.isfinite(quad)),
                mnp.logical_and(quad > left + 0.1 * width, quad < right - 0.1 * width))
            a_j = mnp.where(use_cubic, cubic, mnp.where(use_quad, quad, (lo + hi) / 2.0))
            phi_j, g_j, dphi_j = self.probe(xk, pk, a_j)
            to_high = mnp.logical_or(phi_j > phi_0 + c1 * a_j * dphi_0, phi_j >= st["phi_low"])
            found = mnp.logical_and(mnp.logical_not(to_high), mnp.abs(dphi_j) <= -c2 * dphi_0)
            to_low = mnp.logical_and(mnp.logical_not(to_high), mnp.logical_not(found))
            swap = mnp.logical_and(to_low, dphi_j * width >= 0.0)
            # the point dropped from the bracket is remembered for the next cubic
            st["a_rec"] = mnp.where(to_high, hi, mnp.where(to_low, lo, st["a_rec"]))
            st["phi_rec"] = mnp.where(to_high, st["phi_high"], mnp.where(
                to_low, st["phi_low"], st["phi_rec"]))
            st["a_high"] = mnp.where(to_high, a_j, mnp.where(swap, lo, hi))
            st["phi_high"] = mnp.where(to_high, phi_j, mnp.where(
                swap, st["phi_low"], st["phi_high"]))
            st["dphi_high"] = mnp.where(to_high, dphi_j, mnp.where(
                swap, st["dphi_low"], st["dphi_high"]))
            st["a_low"] = mnp.where(to_low, a_j, lo)
            st["phi_low"] = mnp.where(to_low, phi_j, st["phi_low"])
            st["dphi_low"] = mnp.where(to_low, dphi_j, st["dphi_low"])
            st["done"] = found
            st["a_star"] = mnp.where(found, a_j, st["a_star"])
            st["phi_star"] = mnp.where(found, phi_j, st["phi_star"])
            st["dphi_star"] = mnp.where(found, dphi_j, st["dphi_star"])
            st["g_star"] = mnp.where(found, g_j, st["g_star"])
            st["nfev"] = st["nfev"] + 1
            st["j"] = st["j"] + 1
            return st

        state = ops.WhileLoop()(going, step, state)
        state["failed"] = mnp.logical_and(run, mnp.logical_not(state["done"]))
        return state


class LineSearch(nn.Cell):
    """Algorithm 3.5: steps ``1, 2, 4...`` (the first from the last decrease) until one
    brackets a point meeting the strong Wolfe conditions, then ``_Zoom``."""

    def __init__(self, func, jac):
        super().__init__()
        self.probe = _Probe(func, jac)
        self.zoom = _Zoom(self.probe)

    def construct(self, xk, pk, old_fval=None, old_old_fval=None, gfk=None, c1=1e-4, c2=0.9,
                  maxiter=20):
        zero = ops.zeros((), xk.dtype)
        one = ops.ones((), xk.dtype)
        if old_fval is None or gfk is None:
            phi_0, g_0, dphi_0 = self.probe(xk, pk, zero)
            evaluations = Tensor(1, mstype.int32)
        else:
            phi_0, g_0, dphi_0 = old_fval, gfk, mnp.dot(gfk, pk)
            evaluations = Tensor(0, mstype.int32)
        start = one
        if old_old_fval is not None:
            guess = 1.01 * 2 * (phi_0 - old_old_fval) / dphi_0
            start = mnp.where(mnp.isfinite(guess), mnp.minimum(guess, one), one)
        state = {
            "done": Tensor(False), "failed": Tensor(False), "i": Tensor(1, mstype.int32),
            "a_i": zero, "phi_i": phi_0, "dphi_i": dphi_0, "nfev": evaluations,
            "a_star": zero, "phi_star": phi_0, "dphi_star": dphi_0, "g_star": g_0,
        }

        def going(st):
            return mnp.logical_and(mnp.logical_not(st["done"]), st["i"] <= maxiter)

        def step(st):
            st = dict(st)
            a_i = mnp.where(st["i"] > 1, st["a_i"] * 2.0, start)
            phi_i, g_i, dphi_i = self.probe(xk, pk, a_i)
            too_far = mnp.logical_or(phi_i > phi_0 + c1 * a_i * dphi_0, mnp.logical_and(
                phi_i >= st["phi_i"], st["i"] > 1))
            met = mnp.logical_and(mnp.logical_not(too_far), mnp.abs(dphi_i) <= -c2 * dphi_0)
            rising = mnp.logical_and(mnp.logical_and(mnp.logical_not(too_far),
                                                     mnp.logical_not(met)), dphi_i >= 0.0)
            # zoom between the last two steps: from the previous one when this one went
            # too far, from this one when the slope turned up
            run = mnp.logical_or(too_far, rising)
            zoom = self.zoom(xk, pk, mnp.where(too_far, st["a_i"], a_i),
                             mnp.where(too_far, st["phi_i"], phi_i),
                             mnp.where(too_far, st["dphi_i"], dphi_i),
                             mnp.where(too_far, a_i, st["a_i"]),
                             mnp.where(too_far, phi_i, st["phi_i"]),
                             mnp.where(too_far, dphi_i, st["dphi_i"]),
                             phi_0, g_0, dphi_0, c1, c2, run)
            st["nfev"] = st["nfev"] + 1 + zoom["nfev"]
            st["done"] = mnp.logical_or(run, met)
            st["failed"] = mnp.logical_and(run, zoom["failed"])
            for key, value in (("a_star", a_i), ("phi_star", phi_i), ("dphi_star", dphi_i),
                               ("g_star", g_i)):
                st[key] = mnp.where(run, zoom[key], mnp.where(met, value, st[key]))
            st["i"] = st["i"] + 1
            st["a_i"] = a_i
            st["phi_i"] = phi_i
            st["dphi_i"] = dphi_i
            return st

        state = ops.WhileLoop()(going, step, state)
        state["status"] = mnp.where(state["failed"], 1, mnp.where(state["i"] > maxiter, 3, 0))
        if xk.dtype != mstype.float64:  # (a step below float32's reach is kept at 1e-8)
            tiny = mnp.abs(state["a_star"]) < 1e-8
            state["a_star"] = mnp.where(tiny, mnp.sign(state["a_star"]) * 1e-8,
                                        state["a_star"])
        return state


# the state's keys, in order: with MS_DEV_JIT_SYNTAX_LEVEL=0 a compiled Cell returns a
# dict's values as a tuple (as MindSpore's strict syntax), and the wrappers zip them back
SEARCH_KEYS = ("done", "failed", "i", "a_i", "phi_i", "dphi_i", "nfev", "a_star",
               "phi_star", "dphi_star", "g_star", "status")


def as_state(out, keys: tuple) -> dict:
    """A Cell's state dict (rebuilt from the tuple strict syntax returns)."""
    return out if isinstance(out, dict) else dict(zip(keys, out))


def _scalar(t):
    """A 0-d Tensor as a Python number (other values unchanged)."""
    return t.asnumpy().item() if isinstance(t, Tensor) and not t.shape else t


def line_search(f, xk, pk, jac=None, gfk=None, old_fval=None, old_old_fval=None, c1=1e-4,
                c2=0.9, maxiter=20) -> LineSearchResults:
    """A step ``a_k`` along the descent direction ``pk`` from ``xk`` meeting the strong
    Wolfe conditions (``jac``: the gradient of ``f``; its automatic gradient when None)."""
    jac = ops.grad(f) if jac is None else jac
    state = as_state(LineSearch(f, jac)(xk, pk, old_fval, old_old_fval, gfk, c1, c2, maxiter),
                     SEARCH_KEYS)
    return LineSearchResults(
        failed=_scalar(mnp.logical_or(state["failed"], mnp.logical_not(state["done"]))),
        nit=_scalar(state["i"] - 1), nfev=_scalar(state["nfev"]), ngev=_scalar(state["nfev"]),
        k=_scalar(state["i"]), a_k=_scalar(state["a_star"]), f_k=_scalar(state["phi_star"]),
        g_k=state["g_star"], status=_scalar(state["status"]))
