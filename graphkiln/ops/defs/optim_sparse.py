"""Sparse optimizer update primitives, as MindSpore's: ``SparseApplyAdagrad``,
``SparseApplyAdagradV2``, ``SparseApplyFtrl``, ``SparseApplyRMSProp`` (one index after the
other, in float32), ``FusedSparseAdam``, ``FusedSparseLazyAdam``,
``FusedSparseFtrl``, ``FusedSparseProximalAdagrad``.

The gradient holds rows of the weight: ``grad[k]`` belongs to row ``indices[k]``. Gradients
of a repeated index are summed first (as MindSpore's CPU kernels do, except SparseApplyFtrl's,
which steps once per occurrence), then each touched row is updated as by the dense rule;
``FusedSparseAdam`` also decays the untouched rows' moments (a zero gradient there), the
other ops leave untouched rows alone. The weight and slots are written in place; the Fused
ops' outputs, which MindSpore leaves unspecified, are the updated weight and slots.

Under vmap, ``SparseApplyAdagrad(V2)`` and ``SparseApplyFtrl`` take MindSpore's
``batch_rank`` attribute: every input then has that many leading batch dimensions, and each
example's indices address its own weight rows.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor
from ..primitive import MEM_EFFECT, OpDef
from ._infer import describe, quiet, require_constructor_args, require_dtype, shapes_match
from .optim import check_slots, ftrl_update, proximal_adagrad_update, slot_outputs


def _rows_infer(name: str, args: tuple, n_refs: int, n_out: int, floats: tuple | None,
                index_types: tuple = (mstype.int32,)):
    """Infer for a row update: ``grad`` (second to last input) has ``indices.shape[0]`` rows
    of the weight's row shape; ``indices`` (last) is a 1-D tensor of ``index_types``; the
    weight and slots are of ``floats`` when given."""
    def infer(*ins, batch_rank=0, **attrs):
        check_slots(name, args, ins, n_refs)
        for arg, a in zip(args, ins[:n_refs] if floats else ()):
            require_dtype(name, arg, a.dtype, floats)
        var, grad, indices = (_example(a, batch_rank) for a in (ins[0], ins[-2], ins[-1]))
        if not isinstance(grad, AbstractTensor):  # MindSpore's type error for a non-Tensor
            raise TypeError(f"The primitive[{name}]'s input arguments[grad] must be all "
                            f"tensor, but got {describe(grad)}.")
        if not isinstance(indices, AbstractTensor) or indices.dtype not in index_types:
            names = " or ".join(str(t).lower() for t in index_types)
            raise TypeError(f"For '{name}', the 'indices' must be a 1-D Tensor of {names}, "
                            f"but got {describe(indices)}.")
        if len(indices.shape) != 1:
            raise ValueError(f"For '{name}', the rank of 'indices' must be equal to 1, but "
                             f"got {describe(indices)}.")
        if not shapes_match(grad.shape, tuple(indices.shape) + tuple(var.shape[1:])):
            raise ValueError(f"For '{name}', the 'grad' must be a Tensor of shape "
                             f"{[*indices.shape, *var.shape[1:]]} (one row of 'var' per "
                             f"index), but got {describe(grad)}.")
        return slot_outputs(ins, n_out)
    return infer


def _example(a, batch_rank: int):
    """One example's abstract of an input with ``batch_rank`` leading batch dimensions."""
    if batch_rank and isinstance(a, AbstractTensor):
        return AbstractTensor(a.dtype, tuple(a.shape)[batch_rank:])
    return a


def _op(name, args, kernel, n_refs, attrs, n_out, floats=None):
    return OpDef(name, _rows_infer(name, args, n_refs, n_out, floats), quiet(kernel),
                 effect=MEM_EFFECT, differentiable=False, attrs=attrs,
                 ref_inputs=tuple(range(n_refs)))


def _per_example(kernel):
    """``kernel`` run on each example's views of inputs with ``batch_rank`` leading batch
    dimensions (the views write through to the batched weights)."""
    def batched(*ins, batch_rank=0, **attrs):
        if not batch_rank:
            return kernel(*ins, **attrs)
        for k in np.ndindex(*np.shape(ins[0])[:batch_rank]):
            kernel(*(a[k] for a in ins), **attrs)
        return ins[:len(ins) - 2]
    return batched


def merged_rows(var, grad, indices) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, g)``: the distinct indices and the summed gradient of each, in var's dtype.
    An index outside ``[0, var.shape[0])`` is an error."""
    idx = np.asarray(indices).astype(np.int64)
    bad = (idx < 0) | (idx >= var.shape[0])
    if bad.any():
        raise ValueError(f"the indices must be in [0, {var.shape[0]}), but got "
                         f"{int(idx[bad][0])}.")
    rows, where = np.unique(idx, return_inverse=True)
    g = np.zeros((len(rows),) + var.shape[1:], var.dtype)
    np.add.at(g, where.reshape(-1), grad.astype(var.dtype, copy=False))
    return rows, g


_HALF_SINGLE = (mstype.float16, mstype.float32)  # the Adagrad kernels' only dtypes


def _s(v, t):
    return np.asarray(v, t).reshape(())


def _adagrad_rows(var, accum, grad, indices, lr, epsilon, update_slots):
    rows, g = merged_rows(var, grad, indices)
    a = accum[rows]
    if update_slots:
        a += g * g
        accum[rows] = a
    # MindSpore's sparse kernel adds epsilon under the root (its dense one outside it)
    denom = np.sqrt(a if epsilon is None else a + _s(epsilon, var.dtype))
    var[rows] -= _s(lr, var.dtype) * g / denom
    return var, accum


def _sparse_apply_adagrad(var, accum, grad, indices, lr=None, update_slots=True,
                          use_locking=False):
    return _adagrad_rows(var, accum, grad, indices, lr, None, update_slots)


def _sparse_apply_adagrad_v2(var, accum, grad, indices, lr=None, epsilon=None,
                             use_locking=False, update_slots=True):
    return _adagrad_rows(var, accum, grad, indices, lr, epsilon, update_slots)


SparseApplyAdagrad = _op("SparseApplyAdagrad", ("var", "accum", "grad", "indices"),
                         _per_example(_sparse_apply_adagrad), 2,
                         {"lr": None, "update_slots": True, "use_locking": False}, 2,
                         _HALF_SINGLE)
SparseApplyAdagradV2 = _op("SparseApplyAdagradV2", ("var", "accum", "grad", "indices"),
                           _per_example(_sparse_apply_adagrad_v2), 2,
                           {"lr": None, "epsilon": None, "use_locking": False,
                            "update_slots": True}, 2, _HALF_SINGLE)



def _rms_prop_attrs(attrs: dict) -> None:
    require_constructor_args(attrs, ("rho", "momentum", "epsilon"))
    for arg, kind in (("rho", float), ("momentum", float), ("epsilon", float),
                      ("use_locking", bool)):
        v = attrs[arg]
        if isinstance(v, bool) is not (kind is bool) or not isinstance(v, kind):
            raise TypeError(f"For 'SparseApplyRMSProp', the type of '{arg}' should be "
                            f"'{kind.__name__}', but got type '{type(v).__name__}'.")
    for arg, ok, want in (("rho", 0 <= attrs["rho"] <= 1, "between 0 and 1"),
                          ("momentum", attrs["momentum"] >= 0, "no less than 0"),
                          ("epsilon", attrs["epsilon"] > 0, "greater than 0")):
        if not ok:
            raise ValueError(f"For 'SparseApplyRMSProp', the argument {arg} should be {want}, "
                             f"but got the value of {arg}: {attrs[arg]}")


_RMS_ARGS = ("var", "ms", "mom", "lr", "grad", "indices")
_rms_rows_infer = _rows_infer("SparseApplyRMSProp", _RMS_ARGS, 3, 3, _HALF_SINGLE,
                              (mstype.int32, mstype.int64))


def _rms_prop_infer(*ins, batch_rank=0, **attrs):
    out = _rms_rows_infer(*ins, batch_rank=batch_rank, **attrs)
    var, indices = _example(ins[0], batch_rank), _example(ins[-1], batch_rank)
    if not shapes_match(indices.shape[:1], var.shape[:1]):
        raise ValueError(f"For 'SparseApplyRMSProp', the indices.shape[0] must be equal to "
                         f"var.shape[0], but got 'var_shape[0]': {var.shape[0]} and "
                         f"'indices_shape[0]': {indices.shape[0]}")
    return out


def _sparse_apply_rms_prop(var, ms, mom, lr, grad, indices, rho=None, momentum=None,
                           epsilon=None, use_locking=False):
    """Each index's row in turn, in float32 as MindSpore's kernel: ``ms = rho ms +
    (1 - rho) g^2`` (kept where ``g`` is within float32's epsilon of 0), ``mom = momentum
    mom + lr g / sqrt(ms + epsilon)``, ``var -= mom``."""
    f = np.float32
    r, mu, eps = f(rho), f(momentum), f(epsilon)
    rate = f(np.asarray(lr).reshape(-1)[0])
    idx = np.asarray(indices).astype(np.int64)
    bad = (idx < 0) | (idx >= var.shape[0])
    if bad.any():
        raise RuntimeError(f"For 'SparseApplyRMSProp', each element in 'indices' must be in "
                           f"range [0, {var.shape[0]}), but got {int(idx[bad][0])}")
    g = grad.astype(f)
    unique = len(np.unique(idx)) == len(idx)
    for rows, g_rows in ((idx, g),) if unique else zip(idx[:, None], g[:, None]):
        m = ms[rows].astype(f)
        m = np.where(np.abs(g_rows) > np.finfo(f).eps, m * r + g_rows * g_rows * (f(1) - r), m)
        ms[rows] = m
        mom[rows] = mom[rows].astype(f) * mu + f(1) / np.sqrt(m + eps) * rate * g_rows
        var[rows] -= mom[rows]
    return var, ms, mom


SparseApplyRMSProp = OpDef("SparseApplyRMSProp", _rms_prop_infer,
                           quiet(_per_example(_sparse_apply_rms_prop)), effect=MEM_EFFECT,
                           differentiable=False, ref_inputs=(0, 1, 2),
                           attrs={"rho": None, "momentum": None, "epsilon": None,
                                  "use_locking": False}, check_attrs=_rms_prop_attrs)

def _ftrl_rows(var, accum, linear, grad, indices, lr, l1, l2, lr_power):
    rows, g = merged_rows(var, grad, indices)
    v, a, lin = var[rows], accum[rows], linear[rows]
    t = var.dtype
    ftrl_update(v, a, lin, g, *(_s(x, t) for x in (lr, l1, l2, lr_power)))
    var[rows], accum[rows], linear[rows] = v, a, lin
    return var, accum, linear


def _fused_sparse_ftrl(var, accum, linear, grad, indices, lr=None, l1=None, l2=None,
                       lr_power=None, use_locking=False):
    return _ftrl_rows(var, accum, linear, grad, indices, lr, l1, l2, lr_power)


def _sparse_apply_ftrl(var, accum, linear, grad, indices, lr=None, l1=None, l2=None,
                       lr_power=None, use_locking=False):
    """One FTRL step per index in order: a repeated row is updated once per occurrence
    (MindSpore's SparseApplyFtrl kernel does not merge them, unlike FusedSparseFtrl)."""
    for k in range(len(indices)):
        _ftrl_rows(var, accum, linear, grad[k:k + 1], indices[k:k + 1], lr, l1, l2, lr_power)
    return var, accum, linear


_FTRL_ATTRS = {"lr": None, "l1": None, "l2": None, "lr_power": None, "use_locking": False}
SparseApplyFtrl = _op("SparseApplyFtrl", ("var", "accum", "linear", "grad", "indices"),
                      _per_example(_sparse_apply_ftrl), 3, _FTRL_ATTRS, 3)
FusedSparseFtrl = _op("FusedSparseFtrl", ("var", "accum", "linear", "grad", "indices"),
                      _fused_sparse_ftrl, 3, _FTRL_ATTRS, 3)


def _fused_sparse_proximal_adagrad(var, accum, lr, l1, l2, grad, indices, use_locking=False):
    rows, g = merged_rows(var, grad, indices)
    v, a = var[rows], accum[rows]
    t = var.dtype
    proximal_adagrad_update(v, a, g, _s(lr, t), _s(l1, t), _s(l2, t))
    var[rows], accum[rows] = v, a
    return var, accum


FusedSparseProximalAdagrad = _op("FusedSparseProximalAdagrad", (
    "var", "accum", "lr", "l1", "l2", "grad", "indices"), _fused_sparse_proximal_adagrad, 2,
    {"use_locking": False}, 2)


def _adam_rows(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices,
               use_locking=False, use_nesterov=False, lazy=False):
    """Adam on the touched rows only (``lazy``), or with the moments of every row decayed
    (a zero gradient where no index points); with ``use_nesterov`` only the touched rows of
    ``var`` move (as MindSpore's kernels do)."""
    t = var.dtype
    rows, g = merged_rows(var, grad, indices)
    moved, moved_g = rows, g
    if not lazy:  # every row's moments: scatter the merged gradient into a dense one
        moved_g = np.zeros_like(var)
        moved_g[rows] = g
        moved = slice(None)
    b1, b2, eps = _s(beta1, t), _s(beta2, t), _s(epsilon, t)
    lr_t = _s(lr, t) * np.sqrt(1 - _s(beta2_power, t)) / (1 - _s(beta1_power, t))
    m[moved] = m[moved] * b1 + (1 - b1) * moved_g
    v[moved] = v[moved] * b2 + (1 - b2) * moved_g * moved_g
    if use_nesterov:
        var[rows] -= lr_t * (m[rows] * b1 + (1 - b1) * g) / (np.sqrt(v[rows]) + eps)
    else:
        var[moved] -= lr_t * m[moved] / (np.sqrt(v[moved]) + eps)
    return var, m, v


def _fused_sparse_adam(*args, use_locking=False, use_nesterov=False):
    return _adam_rows(*args, use_nesterov=use_nesterov)


def _fused_sparse_lazy_adam(*args, use_locking=False, use_nesterov=False):
    return _adam_rows(*args, use_nesterov=use_nesterov, lazy=True)


_ADAM_ARGS = ("var", "m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon",
              "grad", "indices")
FusedSparseAdam = _op("FusedSparseAdam", _ADAM_ARGS, _fused_sparse_adam, 3,
                      {"use_locking": False, "use_nesterov": False}, 3)
FusedSparseLazyAdam = _op("FusedSparseLazyAdam", _ADAM_ARGS, _fused_sparse_lazy_adam, 3,
                          {"use_locking": False, "use_nesterov": False}, 3)
