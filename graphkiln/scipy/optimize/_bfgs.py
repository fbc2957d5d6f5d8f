"""BFGS (Algorithm 6.1 of Nocedal and Wright, Numerical Optimization, 1999, pp. 136-143):
quasi-Newton steps along ``-H g`` with the inverse Hessian estimate ``H`` updated from each
step and gradient change, the steps found by :class:`.line_search.LineSearch`."""
from __future__ import annotations

from typing import NamedTuple

import graphkiln.numpy as mnp
import graphkiln.ops as ops

from ... import nn
from ...common import dtype as mstype
from ...common.tensor import Tensor
from .line_search import LineSearch, _scalar


class BFGSResults(NamedTuple):
    """The state where BFGS stopped (``converged``, ``failed``: the line search failed,
    ``k`` iterations, evaluation counts, ``x_k``, ``f_k``, ``g_k``, ``H_k``, ``status``)."""
    converged: bool
    failed: bool
    k: int
    nfev: int
    ngev: int
    nhev: int
    x_k: Tensor
    f_k: float
    g_k: Tensor
    H_k: Tensor
    old_old_fval: float
    status: int
    line_search_status: int


def max_abs(x):
    return mnp.amax(mnp.abs(x))


def l2(x):
    return mnp.sqrt(mnp.sum(x * x))


class MinimizeBfgs(nn.Cell):
    """The BFGS iterations from ``x0`` until the gradient's ``norm`` is below ``gtol``,
    ``maxiter`` steps, or a failed line search."""

    def __init__(self, func, jac):
        super().__init__()
        self.func = func
        self.jac = jac
        self.line_search = LineSearch(func, jac)

    def construct(self, x0, maxiter, norm=mnp.inf, gtol=1e-5, line_search_maxiter=10):
        eye = mnp.eye(x0.shape[0], dtype=x0.dtype)
        f_0 = self.func(x0)
        g_0 = self.jac(x0)
        gnorm = max_abs(g_0) if norm == mnp.inf else l2(g_0)
        state = {
            "converged": gnorm < gtol, "failed": Tensor(False), "k": Tensor(0, mstype.int32),
            "nfev": Tensor(1, mstype.int32), "x_k": x0, "f_k": f_0, "g_k": g_0, "H_k": eye,
            "old_old_fval": f_0 + l2(g_0) / 2, "line_search_status": Tensor(0, mstype.int32),
        }
        def going(st):
            return mnp.logical_and(mnp.logical_not(mnp.logical_or(st["converged"],
                                                                   st["failed"])),
                                   st["k"] < maxiter)

        def step(st):
            st = dict(st)
            p_k = -mnp.dot(st["H_k"], st["g_k"])
            search = self.line_search(st["x_k"], p_k, st["f_k"], st["old_old_fval"], st["g_k"],
                                      1e-4, 0.9, line_search_maxiter)
            st["nfev"] = st["nfev"] + search["nfev"]
            failed = mnp.logical_or(search["failed"], mnp.logical_not(search["done"]))
            st["failed"] = failed
            st["line_search_status"] = search["status"]
            s_k = search["a_star"] * p_k
            y_k = search["g_star"] - st["g_k"]
            keep = mnp.logical_not(failed)
            st["old_old_fval"] = mnp.where(keep, st["f_k"], st["old_old_fval"])
            st["x_k"] = mnp.where(keep, st["x_k"] + s_k, st["x_k"])
            st["f_k"] = mnp.where(keep, search["phi_star"], st["f_k"])
            st["g_k"] = mnp.where(keep, search["g_star"], st["g_k"])
            gnorm = max_abs(st["g_k"]) if norm == mnp.inf else l2(st["g_k"])
            st["converged"] = mnp.logical_and(keep, gnorm < gtol)
            # H <- (I - rho s y^T) H (I - rho y s^T) + rho s s^T
            rho = 1.0 / mnp.dot(y_k, s_k)
            left = eye - rho * mnp.outer(s_k, y_k)
            right = eye - rho * mnp.outer(y_k, s_k)
            updated = mnp.matmul(mnp.matmul(left, st["H_k"]), right) + rho * mnp.outer(s_k, s_k)
            advance = mnp.logical_and(keep, mnp.logical_not(st["converged"]))
            st["H_k"] = mnp.where(advance, updated, st["H_k"])
            st["k"] = st["k"] + ops.cast(advance, mstype.int32)
            return st

        state = ops.WhileLoop()(going, step, state)
        state["status"] = mnp.where(state["converged"], 0, mnp.where(
            state["k"] == maxiter, 1, mnp.where(state["failed"],
                                                2 + state["line_search_status"], -1)))
        return state


def minimize_bfgs(func, x0, jac=None, maxiter=None, norm=mnp.inf, gtol=1e-5,
                  line_search_maxiter=10) -> BFGSResults:
    """BFGS from ``x0`` (``jac``: the gradient of ``func``, automatic when None;
    ``maxiter``: ``200 * x0.size`` when None)."""
    jac = ops.grad(func) if jac is None else jac
    maxiter = x0.size * 200 if maxiter is None else maxiter
    state = MinimizeBfgs(func, jac)(x0, maxiter, norm, gtol, line_search_maxiter)
    return BFGSResults(
        converged=_scalar(state["converged"]), failed=_scalar(state["failed"]),
        k=_scalar(state["k"]), nfev=_scalar(state["nfev"]), ngev=_scalar(state["nfev"]),
        nhev=0, x_k=state["x_k"], f_k=_scalar(state["f_k"]), g_k=state["g_k"],
        H_k=state["H_k"], old_old_fval=_scalar(state["old_old_fval"]),
        status=_scalar(state["status"]),
        line_search_status=_scalar(state["line_search_status"]))
