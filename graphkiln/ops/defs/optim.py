"""Dense optimizer update primitives, as MindSpore's: ``ApplyMomentum``, ``Adam``,
``AdamWeightDecay``, ``ApplyRMSProp``, ``ApplyCenteredRMSProp``, ``ApplyAdagrad``,
``ApplyAdagradV2``, ``ApplyAdamWithAmsgrad`` (and its V2), ``ApplyAdaMax``, ``ApplyAdadelta``,
``ApplyAddSign``, ``ApplyPowerSign``, ``ApplyFtrl``, ``ApplyGradientDescent``,
``ApplyProximalAdagrad``,
``ApplyProximalGradientDescent``, ``ApplyAdagradDA`` (the sparse, row-indexed ones are in
``optim_sparse``).

Each is a memory effect that writes its weight and slot inputs in place (``ref_inputs``),
ordered on the ``U`` chain of the compiled step. As in MindSpore, the written inputs may be
Parameters or plain Tensors (a Tensor is updated in place too). Hyper-parameters are numbers
or one-element tensors; updates are computed in the weight's dtype.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ..primitive import MEM_EFFECT, OpDef
from ._infer import FLOATS, describe, quiet, require_dtype, shapes_match


def _scalar(v, dtype):
    """A hyper-parameter as a NumPy scalar of ``dtype`` (the same arithmetic as a 0-d
    array, without allocating array data for it and every result derived from it); one
    per example under vmap (an array broadcasting along the batch axis) stays an array."""
    a = np.asarray(v, dtype)
    return a.reshape(())[()] if a.size == 1 else a


def check_slots(name: str, args: tuple, ins: tuple, n_refs: int) -> None:
    """The written inputs: float tensors of the first one's shape."""
    if len(ins) < len(args):
        raise TypeError(f"For '{name}', expected {len(args)} inputs ({', '.join(args)}), "
                        f"but got {len(ins)}.")
    var = ins[0]
    for arg, a in zip(args[:n_refs], ins[:n_refs]):
        if not isinstance(a, AbstractTensor):
            raise TypeError(f"For '{name}', the '{arg}' must be a Parameter or Tensor, but "
                            f"got {describe(a)}.")
        require_dtype(name, arg, a.dtype, FLOATS)
        if not shapes_match(a.shape, var.shape):
            raise ValueError(f"For '{name}', the shape of '{arg}' must be the same as "
                             f"'{args[0]}' {list(var.shape)}, but got {list(a.shape)}.")


def slot_outputs(ins: tuple, n_out: int):
    """The first ``n_out`` written inputs as outputs (one tensor when ``n_out`` is 1)."""
    outs = [AbstractTensor(a.dtype, a.shape) for a in ins[:n_out]]
    return outs[0] if n_out == 1 else AbstractTuple(outs)


def _update_infer(name: str, args: tuple, n_refs: int, grad_index: int, n_out: int = 1):
    """Infer for an update op: the first ``n_refs`` inputs are weights of one shape, the
    gradient has it too; the output is the first ``n_out`` of the weights."""
    def infer(*ins, **attrs):
        check_slots(name, args, ins, n_refs)
        g = ins[grad_index]
        if not isinstance(g, AbstractTensor) or not shapes_match(g.shape, ins[0].shape):
            raise ValueError(f"For '{name}', the '{args[grad_index]}' must be a Tensor of "
                             f"shape {list(ins[0].shape)}, but got {describe(g)}.")
        return slot_outputs(ins, n_out)
    return infer


def _op(name, args, kernel, grad_index, n_refs, attrs, n_out=1, n_scratch=0):
    """An update op; its kernel takes ``scratch=`` (``n_scratch`` arrays like the weight)
    when ``n_scratch`` is not 0."""
    return OpDef(name, _update_infer(name, args, n_refs, grad_index, n_out), quiet(kernel),
                 effect=MEM_EFFECT, differentiable=False, attrs=attrs,
                 ref_inputs=tuple(range(n_refs)),
                 scratch=_like_weight(n_scratch) if n_scratch else None)


def _like_weight(n: int):
    def scratch(var, *rest, **attrs):
        return [(tuple(var.shape), var.dtype)] * n
    return scratch


def _apply_momentum(var, accum, lr, grad, momentum, use_locking=False, use_nesterov=False,
                    gradient_scale=1.0, scratch=None):
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
        var -= np.multiply(lr, accum, out=scratch[0] if scratch else np.empty_like(var))
    return var


ApplyMomentum = _op("ApplyMomentum", ("variable", "accumulation", "learning_rate", "gradient",
                                      "momentum"), _apply_momentum, 3, 2,
                    {"use_nesterov": False, "use_locking": False, "gradient_scale": 1.0},
                    n_scratch=1)


def _adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad,
          use_locking=False, use_nesterov=False, scratch=None):
    t = var.dtype
    b1, b2, eps = _scalar(beta1, t), _scalar(beta2, t), _scalar(epsilon, t)
    lr_t = _scalar(lr, t) * np.sqrt(1 - _scalar(beta2_power, t)) / (1 - _scalar(beta1_power, t))
    g = grad.astype(t, copy=False)
    # the same operations in the same order as the plain formulas, in two scratch arrays
    s1, s2 = scratch or (np.empty_like(var), np.empty_like(var))
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
           {"use_locking": False, "use_nesterov": False}, n_out=3, n_scratch=2)


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


def _adam_amsgrad_attrs(attrs: dict) -> None:
    for arg, kind in (("beta1", float), ("beta2", float), ("epsilon", float),
                      ("use_locking", bool)):
        if not isinstance(attrs[arg], kind):
            raise TypeError(f"For 'ApplyAdamWithAmsgrad', the type of '{arg}' should be "
                            f"'{kind.__name__}', but got type '{type(attrs[arg]).__name__}'.")


def _adam_amsgrad_v1(var, m, v, vhat, beta1_power, beta2_power, lr, grad, beta1=0.9,
                     beta2=0.999, epsilon=1e-8, use_locking=False):
    return _adam_amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                         grad)


# the first form: beta1, beta2 and epsilon constructor attributes instead of inputs
ApplyAdamWithAmsgrad = _op("ApplyAdamWithAmsgrad", (
    "var", "m", "v", "vhat", "beta1_power", "beta2_power", "lr", "grad"), _adam_amsgrad_v1, 7,
    4, {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "use_locking": False}, n_out=4)
ApplyAdamWithAmsgrad.check_attrs = _adam_amsgrad_attrs


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


def _apply_adagrad_v2(var, accum, lr, grad, epsilon=None, update_slots=True):
    t = var.dtype
    g = grad.astype(t, copy=False)
    if update_slots:
        accum += g * g
    var -= _scalar(lr, t) * g / (np.sqrt(accum) + _scalar(epsilon, t))
    return var, accum


ApplyAdagradV2 = _op("ApplyAdagradV2", ("var", "accum", "lr", "grad"), _apply_adagrad_v2, 3, 2,
                     {"epsilon": None, "update_slots": True}, n_out=2)


def _apply_ada_max(var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
    t = var.dtype
    g = grad.astype(t, copy=False)
    b1 = _scalar(beta1, t)
    m *= b1
    m += (1 - b1) * g
    np.maximum(_scalar(beta2, t) * v, np.abs(g), out=v)
    var -= _scalar(lr, t) / (1 - _scalar(beta1_power, t)) * (m / (v + _scalar(epsilon, t)))
    return var, m, v


ApplyAdaMax = _op("ApplyAdaMax", ("var", "m", "v", "beta1_power", "lr", "beta1", "beta2",
                                  "epsilon", "grad"), _apply_ada_max, 8, 3, {}, n_out=3)


def _apply_adadelta(var, accum, accum_update, lr, rho, epsilon, grad):
    t = var.dtype
    g = grad.astype(t, copy=False)
    r, eps = _scalar(rho, t), _scalar(epsilon, t)
    accum *= r
    accum += (1 - r) * g * g
    update = np.sqrt(accum_update + eps) * g / np.sqrt(accum + eps)
    accum_update *= r
    accum_update += (1 - r) * update * update
    var -= _scalar(lr, t) * update
    return var, accum, accum_update


ApplyAdadelta = _op("ApplyAdadelta", ("var", "accum", "accum_update", "lr", "rho", "epsilon",
                                      "grad"), _apply_adadelta, 6, 3, {}, n_out=3)


def _sign_update(var, m, lr, beta, grad, scale):
    """``m`` moves toward ``grad``; ``var`` steps by ``scale(sign(g) * sign(m)) * g``."""
    t = var.dtype
    g = grad.astype(t, copy=False)
    b = _scalar(beta, t)
    m *= b
    m += (1 - b) * g
    var -= _scalar(lr, t) * (scale(np.sign(g) * np.sign(m)) * g)
    return var, m


def _apply_add_sign(var, m, lr, alpha, sign_decay, beta, grad):
    t = var.dtype
    return _sign_update(var, m, lr, beta, grad,
                        lambda agree: _scalar(alpha, t) + _scalar(sign_decay, t) * agree)


def _apply_power_sign(var, m, lr, logbase, sign_decay, beta, grad):
    t = var.dtype
    return _sign_update(var, m, lr, beta, grad,
                        lambda agree: np.exp(_scalar(logbase, t) * _scalar(sign_decay, t)
                                             * agree))


ApplyAddSign = _op("ApplyAddSign", ("var", "m", "lr", "alpha", "sign_decay", "beta", "grad"),
                   _apply_add_sign, 6, 2, {}, n_out=2)
ApplyPowerSign = _op("ApplyPowerSign", ("var", "m", "lr", "logbase", "sign_decay", "beta",
                                        "grad"), _apply_power_sign, 6, 2, {}, n_out=2)


def ftrl_update(var, accum, linear, g, lr, l1, l2, lr_power) -> None:
    """One FTRL-proximal step on arrays of one dtype (``lr``... are scalars of it, or arrays
    broadcasting against ``var`` under vmap)."""
    new_accum = accum + g * g
    if np.all(lr_power == -0.5):
        sigma = (np.sqrt(new_accum) - np.sqrt(accum)) / lr
        quadratic = np.sqrt(new_accum) / lr + 2 * l2
    else:
        sigma = (new_accum ** -lr_power - accum ** -lr_power) / lr
        quadratic = new_accum ** -lr_power / lr + 2 * l2
    linear += g - sigma * var
    shrunk = (np.sign(linear) * l1 - linear) / quadratic
    var[...] = np.where(np.abs(linear) > l1, shrunk, 0)
    accum[...] = new_accum


def _apply_ftrl(var, accum, linear, grad, lr, l1, l2, lr_power, use_locking=False):
    t = var.dtype
    ftrl_update(var, accum, linear, grad.astype(t, copy=False), *(
        _scalar(x, t) for x in (lr, l1, l2, lr_power)))
    return var


ApplyFtrl = _op("ApplyFtrl", ("var", "accum", "linear", "grad", "lr", "l1", "l2", "lr_power"),
                _apply_ftrl, 3, 3, {"use_locking": False})


def _apply_gradient_descent(var, alpha, delta):
    var -= _scalar(alpha, var.dtype) * delta.astype(var.dtype, copy=False)
    return var


ApplyGradientDescent = _op("ApplyGradientDescent", ("var", "alpha", "delta"),
                           _apply_gradient_descent, 2, 1, {})


def proximal_step(var, step, lr, l1, l2) -> None:
    """``var := prox(var - step)`` with l1 shrinkage ``lr * l1`` and l2 scaling ``lr * l2``."""
    prox = var - step
    var[...] = np.sign(prox) * np.maximum(np.abs(prox) - lr * l1, 0) / (1 + lr * l2)


def _apply_proximal_gradient_descent(var, alpha, l1, l2, delta):
    t = var.dtype
    a = _scalar(alpha, t)
    proximal_step(var, a * delta.astype(t, copy=False), a, _scalar(l1, t), _scalar(l2, t))
    return var


ApplyProximalGradientDescent = _op("ApplyProximalGradientDescent", (
    "var", "alpha", "l1", "l2", "delta"), _apply_proximal_gradient_descent, 4, 1, {})


def proximal_adagrad_update(var, accum, g, lr, l1, l2) -> None:
    """One proximal Adagrad step on arrays of one dtype; the step and the l1/l2 terms scale
    with ``lr / sqrt(accum)`` (as MindSpore's kernels compute it)."""
    accum += g * g
    step_lr = lr / np.sqrt(accum)
    proximal_step(var, step_lr * g, step_lr, l1, l2)


def _apply_proximal_adagrad(var, accum, lr, l1, l2, grad, use_locking=False):
    t = var.dtype
    proximal_adagrad_update(var, accum, grad.astype(t, copy=False), _scalar(lr, t),
                            _scalar(l1, t), _scalar(l2, t))
    return var, accum


ApplyProximalAdagrad = _op("ApplyProximalAdagrad", ("var", "accum", "lr", "l1", "l2", "grad"),
                           _apply_proximal_adagrad, 5, 2, {"use_locking": False}, n_out=2)


def _check_hyper(name: str, arg: str, a, types: tuple, shown: str, var) -> None:
    """A hyper-parameter: a number (an int for int ``types``) or a 0-d Tensor of one of
    ``types`` (or, as the vmap rule passes per-example values, one of ``var``'s rank that
    broadcasts against it)."""
    if isinstance(a, AbstractTensor):
        if a.dtype not in types:
            raise TypeError(f"For primitive[{name}], the input argument[{arg}] must be a type "
                            f"of {shown}, but got Tensor[{a.dtype}].")
        per_example = len(a.shape) == len(var.shape) and all(
            d in (1, v) for d, v in zip(a.shape, var.shape))
        if len(a.shape) != 0 and not per_example:
            raise ValueError(f"For primitive[{name}], the {arg}_shape size must be equal to 0, "
                             f"but got {len(a.shape)}.")
    elif not isinstance(a, AbstractScalar) or a.kind is bool or not issubclass(
            a.kind, (int, np.integer) if types[0].is_int else (int, float, np.number)):
        raise TypeError(f"For primitive[{name}], the input argument[{arg}] must be a type of "
                        f"{shown}, but got {describe(a)}.")


_DA_ARGS = ("var", "gradient_accumulator", "gradient_squared_accumulator", "grad", "lr", "l1",
            "l2", "global_step")


def _apply_adagrad_da_infer(*ins, use_locking=False):
    out = _update_infer("ApplyAdagradDA", _DA_ARGS, 3, 3)(*ins)
    floats = "{Float16, Float32, Tensor[Float16], Tensor[Float32]}"
    for arg, a in zip(_DA_ARGS[4:7], ins[4:7]):
        _check_hyper("ApplyAdagradDA", arg, a, FLOATS[:2], floats, ins[0])
    _check_hyper("ApplyAdagradDA", "global_step", ins[7], (mstype.int32, mstype.int64),
                 "{Int32, Int64, Tensor[Int32], Tensor[Int64]}", ins[0])
    return out


def _apply_adagrad_da(var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1,
                      l2, global_step, use_locking=False):
    """Adagrad dual averaging: the accumulators take ``grad`` and ``grad**2``; ``var`` is
    recomputed from them (l1 shrinks the accumulated gradient by ``l1 * global_step`` when
    positive)."""
    t = var.dtype
    g = grad.astype(t, copy=False)
    lr, l1, l2, step = (_scalar(v, t) for v in (lr, l1, l2, global_step))
    gradient_accumulator += g
    gradient_squared_accumulator += g * g
    acc = gradient_accumulator
    shrunk = np.where(l1 > 0, np.sign(acc) * np.maximum(np.abs(acc) - l1 * step, 0), acc)
    var[...] = -lr * shrunk / (l2 * step * lr + np.sqrt(gradient_squared_accumulator))
    return var


def _check_use_locking(attrs: dict) -> None:
    v = attrs.get("use_locking", False)
    if not isinstance(v, bool):
        raise TypeError(f"For 'ApplyAdagradDA', the type of 'use_locking' should be 'bool', but "
                        f"got type '{type(v).__name__}'.")


ApplyAdagradDA = OpDef("ApplyAdagradDA", _apply_adagrad_da_infer, quiet(_apply_adagrad_da),
                       effect=MEM_EFFECT, differentiable=False, attrs={"use_locking": False},
                       ref_inputs=(0, 1, 2), check_attrs=_check_use_locking)


_ADA_FACTOR_ARGS = ("epsilon", "clip_threshold", "beta1", "beta2", "weight_decay",
                    "learning_rate", "gradient", "param", "exp_avg", "exp_avg_sq_row",
                    "exp_avg_sq_col", "exp_avg_sq")
_ADA_FACTOR_FLAGS = {"enable_scale_parameter": False, "enable_first_moment": False,
                     "enable_weight_decay": False}


def _ada_factor_infer(name: str, args: tuple):
    """The gradient has the weight's shape (float16 or float32); the output is the weight."""
    def infer(*ins, **attrs):
        if len(ins) != len(args):
            raise TypeError(f"For '{name}', expected {len(args)} inputs ({', '.join(args)}), "
                            f"but got {len(ins)}.")
        grad, param = ins[6], ins[7]
        for arg, a in zip(args[6:12], ins[6:12]):
            if not isinstance(a, AbstractTensor):
                raise TypeError(f"For '{name}', the '{arg}' must be a Parameter or Tensor, "
                                f"but got {describe(a)}.")
            require_dtype(name, arg, a.dtype, (mstype.float16, mstype.float32))
        if not shapes_match(grad.shape, param.shape):
            raise ValueError(f"For '{name}', 'grad_shape' must be equal to 'param_shape', but "
                             f"got {list(grad.shape)} and {list(param.shape)}.")
        return AbstractTensor(param.dtype, param.shape)
    return infer


def _rms(a: np.ndarray) -> np.float32:
    return np.sqrt(np.mean(np.square(a, dtype=np.float32), dtype=np.float32))


def _ada_factor(epsilon, clip_threshold, beta1, beta2, weight_decay, learning_rate, gradient,
                param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq, global_norm=None,
                name="FusedAdaFactor", enable_scale_parameter=False, enable_first_moment=False,
                enable_weight_decay=False):
    """MindSpore CPU's AdaFactor step, in float32 whatever the weight's dtype: second moments
    factored into row and column means for a weight of rank >= 2 (the last two dimensions),
    else kept whole; the update clipped to RMS ``clip_threshold``; the gradient divided by
    ``global_norm`` when it is given and not below 1e-30."""
    f32 = np.float32
    eps = np.asarray(epsilon, f32).reshape(-1)
    clip, b1, b2, wd, lr = (_scalar(v, f32) for v in (clip_threshold, beta1, beta2,
                                                       weight_decay, learning_rate))
    for bad, what in ((clip <= 0, f"clip threshold {clip}"), (b1 < 0 or b1 > 1, f"beta1 {b1}"),
                      (b2 < 0 or b2 > 1, f"beta2t {b2}"),
                      (eps.size != 2 or (eps < 0).any(), f"epsilon {tuple(eps.tolist())}")):
        if bad:
            raise RuntimeError(f"For '{name}', {what} is invalid.")
    norm = f32(1) if global_norm is None else _scalar(global_norm, f32)
    g = gradient.astype(f32) * (f32(1) / norm if norm >= f32(1e-30) else f32(1))
    update = g * g + eps[0]
    if param.ndim >= 2:
        row = exp_avg_sq_row * b2 + update.mean(-1, dtype=f32) * (1 - b2)
        exp_avg_sq_row[...] = row
        row_factor = np.sqrt(row / np.maximum(row.mean(-1, keepdims=True, dtype=f32), f32(1e-30)))
        col = np.maximum(exp_avg_sq_col * b2 + update.mean(-2, dtype=f32) * (1 - b2), f32(1e-30))
        exp_avg_sq_col[...] = col
        update = g / np.maximum(row_factor[..., :, None] * np.sqrt(col)[..., None, :], f32(1e-30))
    else:
        sq = np.maximum(exp_avg_sq * b2 + update * (1 - b2), f32(1e-30))
        exp_avg_sq[...] = sq
        update = g / np.sqrt(sq)
    if enable_scale_parameter:
        lr = lr * max(eps[1], _rms(param))
    update *= lr / max(_rms(update) / clip, f32(1))
    if enable_first_moment:
        update = exp_avg * b1 + update * (1 - b1)
        exp_avg[...] = update
    step = update + param * (wd * lr) if enable_weight_decay else update
    param[...] = param - step
    return param


def _ada_factor_attrs(name: str):
    def check(attrs: dict) -> None:
        for arg in _ADA_FACTOR_FLAGS:
            if not isinstance(attrs[arg], bool):
                raise TypeError(f"For '{name}', the type of '{arg}' should be 'bool', but got "
                                f"type '{type(attrs[arg]).__name__}'.")
    return check


def _ada_factor_op(name: str, args: tuple) -> OpDef:
    return OpDef(name, _ada_factor_infer(name, args),
                 quiet(lambda *ins, **attrs: _ada_factor(*ins, name=name, **attrs)),
                 effect=MEM_EFFECT, differentiable=False, attrs=dict(_ADA_FACTOR_FLAGS),
                 ref_inputs=(7, 8, 9, 10, 11), check_attrs=_ada_factor_attrs(name))


# inner_ops.FusedAdaFactor and its form dividing the gradient by a global norm first
FusedAdaFactor = _ada_factor_op("FusedAdaFactor", _ADA_FACTOR_ARGS)
FusedAdaFactorWithGlobalNorm = _ada_factor_op("FusedAdaFactorWithGlobalNorm",
                                              (*_ADA_FACTOR_ARGS, "global_norm"))
