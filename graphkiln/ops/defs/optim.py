"""Optimizer update primitives, as MindSpore's: ``ApplyMomentum``, ``Adam``,
``AdamWeightDecay``, ``ApplyRMSProp``, ``ApplyCenteredRMSProp``, ``ApplyAdagrad``.

Each is a memory effect that writes its weight and slot inputs in place (``ref_inputs``),
ordered on the ``U`` chain of the compiled step. Hyper-parameters are numbers or
one-element tensors; updates are computed in the weight's dtype.
"""
from __future__ import annotations

import numpy as np

from ...ir.abstract import AbstractRef, AbstractTensor, AbstractTuple
from ..primitive import MEM_EFFECT, OpDef
from ._infer import FLOATS, describe, quiet, require_dtype


def _scalar(v, dtype) -> np.ndarray:
    return np.asarray(v, dtype).reshape(())


def _update_infer(name: str, args: tuple, n_refs: int, grad_index: int, n_out: int = 1):
    """Infer for an update op: the first ``n_refs`` inputs are weights of one shape; the
    output is the first ``n_out`` of them (one tensor when ``n_out`` is 1)."""
    def infer(*ins, **attrs):
        if len(ins) < len(args):
            raise TypeError(f"For '{name}', expected {len(args)} inputs ({', '.join(args)}), "
                            f"but got {len(ins)}.")
        var = ins[0]
        for arg, a in zip(args[:n_refs], ins[:n_refs]):
            if not isinstance(a, AbstractRef):
                raise TypeError(f"For '{name}', the '{arg}' must be a Parameter, but got "
                                f"{describe(a)}.")
            require_dtype(name, arg, a.dtype, FLOATS)
            if a.shape != var.shape:
                raise ValueError(f"For '{name}', the shape of '{arg}' must be the same as "
                                 f"'{args[0]}' {list(var.shape)}, but got {list(a.shape)}.")
        g = ins[grad_index]
        if not isinstance(g, AbstractTensor) or g.shape != var.shape:
            raise ValueError(f"For '{name}', the '{args[grad_index]}' must be a Tensor of "
                             f"shape {list(var.shape)}, but got {describe(g)}.")
        outs = [AbstractTensor(a.dtype, a.shape) for a in ins[:n_out]]
        return outs[0] if n_out == 1 else AbstractTuple(outs)
    return infer


def _op(name, args, kernel, grad_index, n_refs, attrs, n_out=1):
    return OpDef(name, _update_infer(name, args, n_refs, grad_index, n_out), quiet(kernel),
                 effect=MEM_EFFECT, differentiable=False, attrs=attrs,
                 ref_inputs=tuple(range(n_refs)))


def _apply_momentum(var, accum, lr, grad, momentum, use_locking=False, use_nesterov=False,
                    gradient_scale=1.0):
    t = var.dtype
    lr, mom = _scalar(lr, t), _scalar(momentum, t)
    g = grad.astype(t, copy=False)
    if gradient_scale != 1.0:
        g = g * _scalar(gradient_scale, t)
    accum *= mom
    accum += g
    if use_nesterov:
        var -= g * lr + accum * mom * lr
    else:
        var -= np.multiply(lr, accum, out=np.empty_like(var))
    return var


ApplyMomentum = _op("ApplyMomentum", ("variable", "accumulation", "learning_rate", "gradient",
                                      "momentum"), _apply_momentum, 3, 2,
                    {"use_nesterov": False, "use_locking": False, "gradient_scale": 1.0})


def _adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad,
          use_locking=False, use_nesterov=False):
    t = var.dtype
    b1, b2, eps = _scalar(beta1, t), _scalar(beta2, t), _scalar(epsilon, t)
    lr_t = _scalar(lr, t) * np.sqrt(1 - _scalar(beta2_power, t)) / (1 - _scalar(beta1_power, t))
    g = grad.astype(t, copy=False)
    # the same operations in the same order as the plain formulas, in two scratch arrays
    s1, s2 = np.empty_like(var), np.empty_like(var)
    np.subtract(g, m, out=s1)
    s1 *= 1 - b1
    m += s1  # m += (g - m) * (1 - b1)
    np.multiply(g, g, out=s1)
    s1 -= v
    s1 *= 1 - b2
    v += s1  # v += (g * g - v) * (1 - b2)
    if use_nesterov:
        var -= lr_t * (m * b1 + (1 - b1) * g) / (np.sqrt(v) + eps)
    else:
        np.multiply(lr_t, m, out=s1)
        np.sqrt(v, out=s2)
        s2 += eps
        s1 /= s2
        var -= s1  # var -= lr_t * m / (np.sqrt(v) + eps)
    return var, m, v


Adam = _op("Adam", ("var", "m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2",
                    "epsilon", "gradient"), _adam, 9, 3,
           {"use_locking": False, "use_nesterov": False}, n_out=3)


def _adam_weight_decay(var, m, v, lr, beta1, beta2, epsilon, decay, grad, use_locking=False):
    t = var.dtype
    b1, b2 = _scalar(beta1, t), _scalar(beta2, t)
    g = grad.astype(t, copy=False)
    m *= b1
    m += (1 - b1) * g
    v *= b2
    v += (1 - b2) * g * g
    update = m / (np.sqrt(v) + _scalar(epsilon, t)) + _scalar(decay, t) * var
    var -= _scalar(lr, t) * update
    return var, m, v


AdamWeightDecay = _op("AdamWeightDecay", ("var", "m", "v", "lr", "beta1", "beta2", "epsilon",
                                          "decay", "gradient"), _adam_weight_decay, 8, 3,
                      {"use_locking": False}, n_out=3)


def _apply_rms_prop(var, mean_square, moment, lr, grad, decay, momentum, epsilon,
                    use_locking=False):
    t = var.dtype
    g = grad.astype(t, copy=False)
    d = _scalar(decay, t)
    mean_square *= d
    mean_square += (1 - d) * g * g
    moment *= _scalar(momentum, t)
    moment += _scalar(lr, t) * g / np.sqrt(mean_square + _scalar(epsilon, t))
    var -= moment
    return var


ApplyRMSProp = _op("ApplyRMSProp", ("var", "mean_square", "moment", "learning_rate", "grad",
                                    "decay", "momentum", "epsilon"), _apply_rms_prop, 4, 3,
                   {"use_locking": False})


def _apply_centered_rms_prop(var, mean_grad, mean_square, moment, grad, lr, decay, momentum,
                             epsilon, use_locking=False):
    t = var.dtype
    g = grad.astype(t, copy=False)
    d = _scalar(decay, t)
    mean_grad *= d
    mean_grad += (1 - d) * g
    mean_square *= d
    mean_square += (1 - d) * g * g
    denom = np.sqrt(mean_square - mean_grad * mean_grad + _scalar(epsilon, t))
    moment *= _scalar(momentum, t)
    moment += _scalar(lr, t) * g / denom
    var -= moment
    return var


ApplyCenteredRMSProp = _op("ApplyCenteredRMSProp", (
    "var", "mean_grad", "mean_square", "moment", "grad", "learning_rate", "decay", "momentum",
    "epsilon"), _apply_centered_rms_prop, 4, 4, {"use_locking": False})


def _apply_adagrad(var, accum, lr, grad, update_slots=True, use_locking=False):
    t = var.dtype
    g = grad.astype(t, copy=False)
    if update_slots:
        accum += g * g
    var -= _scalar(lr, t) * g / np.sqrt(accum)
    return var, accum


ApplyAdagrad = _op("ApplyAdagrad", ("var", "accum", "lr", "grad"), _apply_adagrad, 3, 2,
                   {"update_slots": True, "use_locking": False}, n_out=2)


def _adam_amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad,
                  use_locking=False):
    t = var.dtype
    b1, b2 = _scalar(beta1, t), _scalar(beta2, t)
    lr_t = _scalar(lr, t) * np.sqrt(1 - _scalar(beta2_power, t)) / (1 - _scalar(beta1_power, t))
    g = grad.astype(t, copy=False)
    m += (g - m) * (1 - b1)
    v += (g * g - v) * (1 - b2)
    np.maximum(vhat, v, out=vhat)
    var -= lr_t * m / (np.sqrt(vhat) + _scalar(epsilon, t))
    return var, m, v, vhat


ApplyAdamWithAmsgradV2 = _op("ApplyAdamWithAmsgradV2", (
    "var", "m", "v", "vhat", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon",
    "grad"), _adam_amsgrad, 10, 4, {"use_locking": False}, n_out=4)


def _sgd(parameters, gradient, learning_rate, accum, momentum, stat, dampening=0.0,
         weight_decay=0.0, nesterov=False):
    t = parameters.dtype
    g = gradient.astype(t, copy=True)
    if weight_decay > 0:
        g += parameters * _scalar(weight_decay, t)
    mom = _scalar(momentum, t)
    if mom > 0:
        if stat.reshape(-1)[0] > 0:
            np.copyto(accum, g)
            stat[...] = 0
        else:
            accum *= mom
            accum += (1 - _scalar(dampening, t)) * g
        g = g + accum * mom if nesterov else accum
    parameters -= _scalar(learning_rate, t) * g
    return parameters


# refs: parameters (0), accum (3) and stat (5); gradient is input 1
SGD = OpDef("SGD", _update_infer("SGD", ("parameters", "gradient", "learning_rate", "accum",
                                         "momentum", "stat"), 1, 1), quiet(_sgd),
            effect=MEM_EFFECT, differentiable=False, ref_inputs=(0, 3, 5),
            attrs={"dampening": 0.0, "weight_decay": 0.0, "nesterov": False})
