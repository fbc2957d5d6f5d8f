"""``minimize``: the minimum of a scalar function of a flat Tensor, by BFGS or L-BFGS."""
from __future__ import annotations

from typing import NamedTuple

from ...common.tensor import Tensor
from .quasi_newton import minimize_bfgs, minimize_lbfgs


class OptimizeResults(NamedTuple):
    """``x``: the solution; ``success``; ``status`` (0 converged, 1 ``maxiter`` reached,
    2 + the line search's status when it failed); ``fun``, ``jac``: the function and its
    gradient at ``x``; ``hess_inv``: the inverse Hessian estimate; ``nfev``, ``njev``:
    evaluations; ``nit``: iterations."""
    x: Tensor
    success: bool
    status: int
    fun: float
    jac: Tensor
    hess_inv: Tensor | None
    nfev: int
    njev: int
    nit: int


def minimize(func, x0, args=(), method=None, jac=None, hess=None, hessp=None, bounds=None,
             constraints=(), tol=None, callback=None, options=None) -> OptimizeResults:
    """Minimise ``func(x, *args)`` from ``x0`` (a 1-D Tensor) with ``method`` ``'BFGS'``
    or ``'LBFGS'``; ``options``: ``maxiter``, ``norm``, ``gtol``, ``line_search_maxiter``
    (and ``history_size`` for L-BFGS)."""
    solvers = {"bfgs": minimize_bfgs, "lbfgs": minimize_lbfgs}
    if not isinstance(method, str) or method.lower() not in solvers:
        raise ValueError(f"Method {method} not recognized")
    if not isinstance(args, tuple):
        raise TypeError(f"For 'minimize', 'args' must be a tuple, but got {type(args)}.")
    options = dict(options or {})
    if tol is not None:
        options.setdefault("gtol", tol)
    results = solvers[method.lower()](lambda x: func(x, *args), x0, jac, **options)
    return OptimizeResults(x=results.x_k, success=results.converged and not results.failed,
                           status=results.status, fun=results.f_k, jac=results.g_k,
                           hess_inv=results.H_k, nfev=results.nfev, njev=results.ngev,
                           nit=results.k)
