"""Quasi-Newton minimisation: BFGS (Algorithm 6.1 of Nocedal and Wright, Numerical
Optimization, 1999, pp. 136-143: the inverse Hessian estimate ``H`` updated from each step
``s`` and gradient change ``y``) and L-BFGS (the last ``history_size`` pairs ``(s, y)``
applied by the two-loop recursion). Both step along the search direction with
:class:`.line_search.LineSearch` and loop with ``ops.WhileLoop`` (compiled in graphs)."""
from __future__ import annotations

from typing import NamedTuple

import graphkiln.numpy as mnp
import graphkiln.ops as ops

from ... import nn
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .line_search import LineSearch, _scalar, as_state

_KEYS = ("converged", "failed", "k", "nfev", "x_k", "f_k", "g_k", "old_old_fval",
         "line_search_status", "memory", "status")


class QuasiNewtonResults(NamedTuple):
    """Where the minimisation stopped: ``converged``, ``failed`` (a line search failed),
    ``k`` iterations, evaluation counts, ``x_k``, ``f_k``, ``g_k``, ``H_k`` (BFGS' inverse
    Hessian estimate; None for L-BFGS), ``status`` (0 converged, 1 ``maxiter`` reached,
    2 + the line search's status)."""
    converged: bool
    failed: bool
    k: int
    nfev: int
    ngev: int
    nhev: int
    x_k: Tensor
    f_k: float
    g_k: Tensor
    H_k: Tensor | None
    old_old_fval: float
    status: int
    line_search_status: int


def _max_abs(x):
    return mnp.amax(mnp.abs(x))


def _l2(x):
    return mnp.sqrt(mnp.sum(x * x))


class _QuasiNewton(nn.Cell):
    """The shared iteration: search along ``-direction``, step, stop on a small gradient
    (its ``norm``), ``maxiter`` or a failed search; subclasses keep their curvature
    memory in ``state["memory"]``."""

    def __init__(self, func, jac):
        super().__init__()
        self.func = func
        self.jac = jac
        self.line_search = LineSearch(func, jac)

    def initial_memory(self, x0):
        raise NotImplementedError

    def direction(self, memory, g):
        raise NotImplementedError

    def remember(self, memory, s_k, y_k, g_next):
        raise NotImplementedError

    def construct(self, x0, maxiter, norm=mnp.inf, gtol=1e-5, line_search_maxiter=10):
        f_0 = self.func(x0)
        g_0 = self.jac(x0)
        size = _max_abs if norm == mnp.inf else _l2
        state = {
            "converged": _max_abs(g_0) < gtol, "failed": Tensor(False),
            "k": Tensor(0, mstype.int32), "nfev": Tensor(1, mstype.int32), "x_k": x0,
            "f_k": f_0, "g_k": g_0, "old_old_fval": f_0 + _l2(g_0) / 2,
            "line_search_status": Tensor(0, mstype.int32), "memory": self.initial_memory(x0),
        }

        def going(st):
            return mnp.logical_and(mnp.logical_not(mnp.logical_or(st["converged"],
                                                                   st["failed"])),
                                   st["k"] < maxiter)

        def step(st):
            st = dict(st)
            p_k = -self.direction(st["memory"], st["g_k"])
            search = self.line_search(st["x_k"], p_k, st["f_k"], st["old_old_fval"], st["g_k"],
                                      1e-4, 0.9, line_search_maxiter)
            failed = mnp.logical_or(search["failed"], mnp.logical_not(search["done"]))
            keep = mnp.logical_not(failed)
            s_k = search["a_star"] * p_k
            y_k = search["g_star"] - st["g_k"]
            st["nfev"] = st["nfev"] + search["nfev"]
            st["failed"] = failed
            st["line_search_status"] = search["status"]
            st["old_old_fval"] = mnp.where(keep, st["f_k"], st["old_old_fval"])
            st["x_k"] = mnp.where(keep, st["x_k"] + s_k, st["x_k"])
            st["f_k"] = mnp.where(keep, search["phi_star"], st["f_k"])
            st["g_k"] = mnp.where(keep, search["g_star"], st["g_k"])
            st["converged"] = mnp.logical_and(keep, size(st["g_k"]) < gtol)
            advance = mnp.logical_and(keep, mnp.logical_not(st["converged"]))
            updated = self.remember(st["memory"], s_k, y_k, st["g_k"])
            st["memory"] = tuple(mnp.where(advance, new, old)
                                 for new, old in zip(updated, st["memory"]))
            st["k"] = st["k"] + ops.cast(advance, mstype.int32)
            return st

        state = ops.WhileLoop()(going, step, state)
        state["status"] = mnp.where(state["converged"], 0, mnp.where(
            state["k"] == maxiter, 1, mnp.where(state["failed"],
                                                2 + state["line_search_status"], -1)))
        return state


class MinimizeBfgs(_QuasiNewton):
    """BFGS: ``memory`` is the inverse Hessian estimate ``H`` (the identity at first)."""

    def initial_memory(self, x0):
        return (mnp.eye(x0.shape[0], dtype=x0.dtype),)

    def direction(self, memory, g):
        return mnp.dot(memory[0], g)

    def remember(self, memory, s_k, y_k, g_next):
        """``H <- (I - rho s y^T) H (I - rho y s^T) + rho s s^T`` with ``rho = 1/(y.s)``."""
        eye = mnp.eye(s_k.shape[0], dtype=s_k.dtype)
        rho = 1.0 / mnp.dot(y_k, s_k)
        left = eye - rho * mnp.outer(s_k, y_k)
        right = eye - rho * mnp.outer(y_k, s_k)
        return (mnp.matmul(mnp.matmul(left, memory[0]), right) + rho * mnp.outer(s_k, s_k),)


class MinimizeLbfgs(_QuasiNewton):
    """L-BFGS: ``memory`` holds the last ``history_size`` steps ``s``, gradient changes
    ``y`` (oldest first, zeros until filled) and the next search vector."""

    def __init__(self, func, jac, history_size: int = 20):
        super().__init__(func, jac)
        self.history_size = history_size

    def initial_memory(self, x0):
        rows = ops.zeros((self.history_size, x0.shape[0]), x0.dtype)
        return rows, rows, self.jac(x0)

    def direction(self, memory, g):
        return memory[2]

    def remember(self, memory, s_k, y_k, g_next):
        """Push ``(s, y)`` when ``y.s > 1e-10`` and apply the two-loop recursion to the new
        gradient; otherwise the search vector is the gradient itself."""
        hist_s, hist_y, _ = memory
        y_s = mnp.dot(y_k, s_k)
        pushed_s = ops.concat((hist_s[1:], ops.expand_dims(s_k, 0)), 0)
        pushed_y = ops.concat((hist_y[1:], ops.expand_dims(y_k, 0)), 0)
        q = g_next
        alphas = []
        for i in range(self.history_size - 1, -1, -1):
            yi_si = mnp.dot(pushed_y[i], pushed_s[i])
            rho = mnp.where(yi_si == 0, 0.0, 1.0 / mnp.where(yi_si == 0, 1.0, yi_si))
            alpha = rho * mnp.dot(pushed_s[i], q)
            q = q - alpha * pushed_y[i]
            alphas.insert(0, (alpha, rho))
        r = y_s / mnp.dot(y_k, y_k) * q
        for i in range(self.history_size):
            alpha, rho = alphas[i]
            r = r + (alpha - rho * mnp.dot(pushed_y[i], r)) * pushed_s[i]
        curved = y_s > 1e-10
        return (mnp.where(curved, pushed_s, hist_s), mnp.where(curved, pushed_y, hist_y),
                mnp.where(curved, r, g_next))


def _results(state, with_hessian: bool) -> QuasiNewtonResults:
    state = as_state(state, _KEYS)
    return QuasiNewtonResults(
        converged=_scalar(state["converged"]), failed=_scalar(state["failed"]),
        k=_scalar(state["k"]), nfev=_scalar(state["nfev"]), ngev=_scalar(state["nfev"]),
        nhev=0, x_k=state["x_k"], f_k=_scalar(state["f_k"]), g_k=state["g_k"],
        H_k=state["memory"][0] if with_hessian else None,
        old_old_fval=_scalar(state["old_old_fval"]), status=_scalar(state["status"]),
        line_search_status=_scalar(state["line_search_status"]))


def minimize_bfgs(func, x0, jac=None, maxiter=None, norm=mnp.inf, gtol=1e-5,
                  line_search_maxiter=10) -> QuasiNewtonResults:
    """BFGS from ``x0`` (``jac``: the gradient of ``func``, automatic when None;
    ``maxiter``: ``200 * x0.size`` when None)."""
    jac = ops.grad(func) if jac is None else jac
    maxiter = x0.size * 200 if maxiter is None else maxiter
    state = MinimizeBfgs(func, jac)(x0, maxiter, norm, gtol, line_search_maxiter)
    return _results(state, True)


def minimize_lbfgs(func, x0, jac=None, history_size=20, maxiter=None, norm=mnp.inf,
                   gtol=1e-5, line_search_maxiter=10) -> QuasiNewtonResults:
    """L-BFGS from ``x0`` with the last ``history_size`` curvature pairs."""
    jac = ops.grad(func) if jac is None else jac
    maxiter = x0.size * 200 if maxiter is None else maxiter
    state = MinimizeLbfgs(func, jac, history_size)(x0, maxiter, norm, gtol,
                                                   line_search_maxiter)
    return _results(state, False)
