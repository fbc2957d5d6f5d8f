"""``LayerNormGradGrad``: the second-order backward of ``LayerNorm``, as MindSpore's kernel.

With ``LayerNorm``'s backward ``(dx, dgamma, dbeta) = G(x, dy, variance, mean, gamma)``, it
takes the cotangents ``(d_dx, d_dg, d_db)`` of those three outputs and returns the
cotangents of ``x``, ``dy`` and ``gamma`` (``sopd_x, sopd_dy, sopd_gamma``). ``mean`` and
``variance`` are the statistics ``x`` was normalised with: ``sopd_x`` counts their own
dependence on ``x``, and the kernel reads them as given (no epsilon; a variance that is not
positive is a ValueError). Every run of ``gamma.size`` elements of ``x`` is one normalised
group, whatever ``begin_norm_axis`` and ``begin_params_axis`` say (as MindSpore's CPU kernel).
float16 and float32 only (float16 computed in float32); MindSpore defines no gradient for it.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import check_int, prod_dims, quiet, require_dtype, same_type, shapes_match

_NAME = "LayerNormGradGrad"
_ARGS = ("x", "dy", "variance", "mean", "gamma", "d_dx", "d_dg", "d_db")


def _infer(*args, begin_norm_axis=1, begin_params_axis=1):
    check_int(_NAME, "begin_norm_axis", begin_norm_axis)
    check_int(_NAME, "begin_params_axis", begin_params_axis)
    t = same_type(_NAME, dict(zip(_ARGS, args)))
    require_dtype(_NAME, "x", t, (mstype.float16, mstype.float32))
    x, dy, variance, mean, gamma, d_dx, d_dg, d_db = args
    for group, like in (((dy, d_dx), x), ((d_dg, d_db), gamma), ((variance,), mean)):
        for a in group:
            if not shapes_match(tuple(a.shape), tuple(like.shape)):
                raise ValueError(f"For '{_NAME}', 'x', 'dy' and 'd_dx' must have one shape, "
                                 f"'gamma', 'd_dg' and 'd_db' another and 'mean' and "
                                 f"'variance' a third, but got shapes "
                                 f"{[list(b.shape) for b in args]}.")
    size, g, rows = prod_dims(x.shape), prod_dims(gamma.shape), prod_dims(mean.shape)
    if min(size, g, rows) >= 0 and (g == 0 or size != g * rows):
        raise ValueError(f"For '{_NAME}', 'x' must hold one group of 'gamma'.size elements "
                         f"for each element of 'mean', but got shapes {list(x.shape)}, "
                         f"{list(gamma.shape)} and {list(mean.shape)}.")
    return AbstractTuple([AbstractTensor(t, tuple(x.shape)), AbstractTensor(t, tuple(x.shape)),
                          AbstractTensor(t, tuple(gamma.shape))])


@quiet
def _kernel(x, dy, variance, mean, gamma, d_dx, d_dg, d_db, begin_norm_axis=1,
            begin_params_axis=1):
    dtype, g = np.asarray(x).dtype, np.asarray(gamma).size

    def rows(a):
        return np.asarray(a, np.float32).reshape(-1, g)

    var = np.asarray(variance, np.float32).reshape(-1, 1)
    if np.any(~(var > 0)):
        raise ValueError(f"For {_NAME}, variance must be positive.")
    r = 1 / np.sqrt(var)
    xc = rows(x) - np.asarray(mean, np.float32).reshape(-1, 1)
    xh = xc * r
    dy, a = rows(dy), rows(d_dx)
    gam, b, c = (np.asarray(v, np.float32).reshape(g) for v in (gamma, d_dg, d_db))
    dyg = dy * gam
    mean_dyg = dyg.mean(axis=1, keepdims=True)
    mean_dyg_xh = (dyg * xh).mean(axis=1, keepdims=True)
    # d dx / d(dy * gamma), applied to d_dx: shared by sopd_dy and sopd_gamma
    t = r * (a - a.mean(axis=1, keepdims=True) - xh * (a * xh).mean(axis=1, keepdims=True))
    sopd_dy = gam * t + xh * b + c
    sopd_gamma = (dy * t).sum(axis=0)
    # sopd_x: through x-hat (p), and through the mean and variance of the group
    p = -dyg * r * (a * xh).mean(axis=1, keepdims=True) - mean_dyg_xh * a * r + dy * b
    q = dyg - mean_dyg - xh * mean_dyg_xh
    through_var = (a * q).mean(axis=1, keepdims=True) + (xc * p).mean(axis=1, keepdims=True)
    rp = r * p
    sopd_x = rp - rp.mean(axis=1, keepdims=True) - xh * r * r * through_var
    shape, gshape = np.shape(x), np.shape(gamma)
    return (sopd_x.reshape(shape).astype(dtype), sopd_dy.reshape(shape).astype(dtype),
            sopd_gamma.reshape(gshape).astype(dtype))


# (x, dy, variance, mean, gamma, d_dx, d_dg, d_db) -> (sopd_x, sopd_dy, sopd_gamma)
LayerNormGradGrad = OpDef(_NAME, _infer, _kernel, differentiable=False,
                          attrs={"begin_norm_axis": 1, "begin_params_axis": 1})
