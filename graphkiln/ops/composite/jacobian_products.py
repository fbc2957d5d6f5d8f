"""``vjp`` and ``jvp``: vector-Jacobian and Jacobian-vector products.

Both are built on reverse mode. ``vjp`` runs ``GradOperation(get_all=True,
sens_param=True)`` with the given cotangent. ``jvp`` uses the transpose trick: the
vector-Jacobian product ``u -> J^T u`` is linear in ``u``, so differentiating
``<J^T u, v>`` with respect to ``u`` gives ``J v`` (any ``u`` will do; zeros are used).
Inside a graph they trace in place; eagerly each call compiles through ``grad``.
"""
from __future__ import annotations

from ...common.parameter import Parameter
from ...common.tensor import Tensor
from .. import functional as F
from .grad import GradOperation, grad

_GRAD_ALL_SENS = GradOperation(get_all=True, sens_param=True)
_GRAD_ALL_WEIGHTS_SENS = GradOperation(get_all=True, get_by_list=True, sens_param=True)


def _as_tuple(x) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _check_tensors(name: str, arg: str, xs: tuple) -> None:
    for x in xs:
        if not isinstance(x, Tensor):
            raise TypeError(f"For '{name}', the elements of '{arg}' must be Tensors, but got "
                            f"{type(x).__name__}.")


def _main_output(fn, has_aux: bool):
    """``fn`` itself, or (``has_aux``) the function of its first output only."""
    if not has_aux:
        return fn

    def main(*args):
        return fn(*args)[0]
    return main


def _split_aux(outputs, has_aux: bool):
    if not has_aux:
        return outputs, ()
    if not isinstance(outputs, tuple) or len(outputs) < 2:
        raise ValueError("With has_aux=True, 'fn' must return a tuple of at least two "
                         "values: the output and the auxiliary data.")
    return outputs[0], outputs[1:]


def vjp(fn, *inputs, weights=None, has_aux: bool = False):
    """``ops.vjp(fn, *inputs)``: ``(outputs, vjp_fn)`` where ``vjp_fn(v)`` gives the
    gradients of ``fn`` at ``inputs`` (a tuple, one per input) for the cotangent ``v``
    (shaped as ``outputs``); with ``weights``, ``(input_grads, weight_grads)``; with
    ``has_aux`` the auxiliary outputs come third and are not differentiated."""
    _check_tensors("vjp", "inputs", inputs)
    outputs, aux = _split_aux(fn(*inputs), has_aux)
    main = _main_output(fn, has_aux)
    ws = None if weights is None else tuple(
        [weights] if isinstance(weights, Parameter) else weights)

    def vjp_fn(*v):
        sens = v[0] if len(v) == 1 else v
        if ws is None:
            return _GRAD_ALL_SENS(main)(*inputs, sens)
        return _GRAD_ALL_WEIGHTS_SENS(main, ws)(*inputs, sens)

    return (outputs, vjp_fn, *aux) if has_aux else (outputs, vjp_fn)


def _jvp_of(fn, xs: tuple, vs: tuple, outputs):
    """``J(xs) @ vs`` shaped as ``outputs``."""
    outs = _as_tuple(outputs)
    n_out, n_in = len(outs), len(xs)
    single_out = not isinstance(outputs, tuple)

    def pairing(*args):
        us, xs_, vs_ = args[:n_out], args[n_out:n_out + n_in], args[n_out + n_in:]
        cotangent = us[0] if single_out else tuple(us)
        grads = _as_tuple(_GRAD_ALL_SENS(fn)(*xs_, cotangent))
        total = (grads[0] * vs_[0]).sum()
        for g, v in zip(grads[1:], vs_[1:]):
            total = total + (g * v).sum()
        return total

    us = tuple(F.zeros_like(o) for o in outs)
    position = 0 if single_out else tuple(range(n_out))
    tangents = grad(pairing, grad_position=position)(*us, *xs, *vs)
    return tangents


def jvp(fn, inputs, v, has_aux: bool = False):
    """``ops.jvp(fn, inputs, v)``: ``(outputs, J v)`` (``inputs`` and ``v``: a Tensor or
    tuples of Tensors of the same shapes); with ``has_aux``, the auxiliary outputs of
    ``fn`` come third."""
    xs, vs = _as_tuple(inputs), _as_tuple(v)
    _check_tensors("jvp", "inputs", xs)
    _check_tensors("jvp", "v", vs)
    if len(xs) != len(vs):
        raise ValueError(f"For 'jvp', 'v' must hold one tangent per input: {len(xs)} "
                         f"input(s), but got {len(vs)} tangent(s).")
    for x, t in zip(xs, vs):
        if tuple(x.shape) != tuple(t.shape):
            raise ValueError(f"For 'jvp', each tangent in 'v' must have its input's shape, "
                             f"but got {list(t.shape)} for an input of shape "
                             f"{list(x.shape)}.")
    outputs, aux = _split_aux(fn(*xs), has_aux)
    tangents = _jvp_of(_main_output(fn, has_aux), xs, vs, outputs)
    return (outputs, tangents, *aux) if has_aux else (outputs, tangents)


__all__ = ["vjp", "jvp"]
