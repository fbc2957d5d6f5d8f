"""``ops.vjp``: the vector-Jacobian product, built on ``GradOperation(get_all=True,
sens_param=True)`` with the given cotangent. Inside a graph it traces in place; eagerly each
``vjp_fn`` call compiles through the gradient operation's call cache.
"""
from __future__ import annotations

from ...common.parameter import Parameter
from ...common.tensor import Tensor
from ...context import PYNATIVE_MODE, get_context
from ...ir import tracing_state as state
from ...transforms.autodiff import TracedForward
from .grad import GradOperation

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
    ws = None if weights is None else tuple(
        [weights] if isinstance(weights, Parameter) else weights)
    if state.current() is not None:
        return _vjp_in_graph(fn, inputs, ws, has_aux)
    outputs, aux = _split_aux(fn(*inputs), has_aux)
    main = _main_output(fn, has_aux)

    def vjp_fn(*v):
        sens = v[0] if len(v) == 1 else v
        if ws is None:
            return _GRAD_ALL_SENS(main)(*inputs, sens)
        return _GRAD_ALL_WEIGHTS_SENS(main, ws)(*inputs, sens)

    return (outputs, vjp_fn, *aux) if has_aux else (outputs, vjp_fn)


def _vjp_in_graph(fn, inputs: tuple, ws: tuple | None, has_aux: bool):
    """Inside a graph: the forward traced once, each ``vjp_fn`` call one backward pass over
    it (MindSpore merges the forwards: their effects run once)."""
    forward = TracedForward(fn, inputs, {}, positions=tuple(range(len(inputs))), weights=ws,
                            has_aux=has_aux,
                            weight_inputs_apart=get_context("mode") != PYNATIVE_MODE,
                            outside_hooks=True)
    outputs, aux = _split_aux((forward.value[0], *forward.value[1]) if has_aux
                              else forward.value, has_aux)

    def vjp_fn(*v):
        grads, wgrads = forward.backward(v[0] if len(v) == 1 else v)
        return tuple(grads) if ws is None else (tuple(grads), tuple(wgrads))

    return (outputs, vjp_fn, *aux) if has_aux else (outputs, vjp_fn)


__all__ = ["vjp"]
