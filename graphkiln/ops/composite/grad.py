"""``GradOperation``, ``grad`` and ``value_and_grad``: front ends of reverse-mode autodiff.

Inside a graph they differentiate in place (the forward and backward land in the graph
being traced); called in GRAPH_MODE they compile the whole gradient computation once per
input signature and run it; called in PYNATIVE_MODE they run the function eagerly, op by
op, on a tape (``transforms/eager_autodiff.py``) and walk it back with the same rules.
"""
from __future__ import annotations

import types
import weakref
from dataclasses import dataclass

from ...common.mutable import RUNTIME_SCALARS, dynamic_len_items, is_mutable
from ...common.parameter import Parameter, is_parameter_list_attribute, kept_with
from ...compile.call_cache import CallCache
from ...compile.compile_cache import cell_fingerprint, function_identity
from ...compile.eager_backward import compiled_backward
from ...context import PYNATIVE_MODE, get_context
from ...frontend.pytree import flatten, unflatten
from ...ir import tracing_state as state
from ...transforms.autodiff import GradError, grad_in_graph, has_gradient
from ...transforms.eager_autodiff import grad_eager


def _positions(grad_position, n_args: int, eager: bool) -> tuple[int, ...]:
    pos = (grad_position,) if isinstance(grad_position, int) else tuple(grad_position)
    if not pos:
        raise RuntimeError("grad_position should not be empty when grad by position.")
    for p in pos:
        if not isinstance(p, int):
            raise GradError(f"For 'grad', 'grad_position' must be an int or a tuple of ints, "
                            f"but got {grad_position!r}.")
        if not -n_args <= p < n_args:  # MindSpore's words; an IndexError in GRAPH_MODE
            raise (RuntimeError if eager else IndexError)(
                f"Position index {p} is exceed input size. For 'grad', 'grad_position' "
                f"{grad_position!r} is out of range for a function called with {n_args} "
                f"argument(s).")
    return tuple(p % n_args for p in pos)


def _weights(weights):
    if weights is None:
        return None
    if isinstance(weights, Parameter):
        return (weights,)
    ws = tuple(weights)
    for w in ws:
        if not isinstance(w, Parameter):
            raise GradError(f"For 'grad', 'weights' must be Parameters (e.g. "
                            f"net.trainable_params()), but got {type(w).__name__}.")
    return ws


@dataclass(frozen=True)
class _GradConfig:
    """What to differentiate and how to package the result."""

    kind: str  # "gradop" (GradOperation) or "grad" (grad/value_and_grad)
    positions: object  # an index, a tuple of indices, "all", or None (weights only)
    weights: tuple | None
    sens_param: bool
    has_aux: bool
    with_value: bool
    single: bool  # a lone position: return its gradient, not a 1-tuple
    return_ids: bool = False  # pair each gradient with its position or weight name
    # how GradOperation's weights were given: one Parameter gives one gradient, a list a list
    weights_form: type | None = tuple
    # a Parameter given as an input is differentiated apart from its uses as a weight
    # (MindSpore's GRAPH_MODE); PYNATIVE_MODE sums both into each gradient, as MindSpore does
    weight_inputs_apart: bool = True
    # PyNative GradOperation given no weights: the Parameters the output depends on, in
    # order of first use (``weights``, a Cell's trainable ones, serve a graph)
    used_weights: bool = False


def _compute(fn, cfg: _GradConfig, args: tuple, kwargs: dict, eager: bool = False):
    sens = None
    if cfg.sens_param and "sens" in kwargs:  # given by name (MindSpore takes it so too)
        kwargs = dict(kwargs)
        sens = kwargs.pop("sens")
    elif cfg.sens_param:
        if not args:
            raise GradError("GradOperation(sens_param=True) needs the sensitivity as the "
                            "last argument, but the call has no arguments.")
        args, sens = args[:-1], args[-1]
    # GradOperation differentiates keyword inputs too, after the positional ones
    inputs = (*args, *kwargs.values()) if cfg.kind == "gradop" else args
    n = len(inputs)
    if cfg.positions == "all":
        positions = tuple(range(n))
    elif cfg.positions is None:
        positions = ()
    else:
        # a function of no inputs has no position to differentiate, except for ms.grad in
        # GRAPH_MODE (MindSpore)
        positions = () if not n and (eager or cfg.kind == "gradop") \
            else _positions(cfg.positions, n, eager)
    if cfg.kind != "gradop" and positions and cfg.weights is None and not (
            cfg.return_ids or cfg.with_value or cfg.has_aux) and \
            not any(has_gradient(inputs[i]) for i in positions):
        return ()  # only constants asked for: MindSpore gives () without differentiating
    if eager:
        value, grads, wgrads = grad_eager(fn, args, kwargs, positions=positions,
                                          weights=cfg.weights, sens=sens, has_aux=cfg.has_aux,
                                          compiled=compiled_backward,
                                          used_weights=cfg.used_weights)
    else:
        value, grads, wgrads = grad_in_graph(fn, args, kwargs, positions=positions,
                                             weights=cfg.weights, sens=sens,
                                             has_aux=cfg.has_aux,
                                             weight_inputs_apart=cfg.weight_inputs_apart,
                                             outside_hooks=True)
    grads = tuple(grads)
    if cfg.kind == "gradop" and cfg.positions == "all":  # constants get no gradient
        grads = tuple(g for g, x in zip(grads, inputs) if has_gradient(x))
    if cfg.return_ids:
        if cfg.kind != "gradop":  # constants get no gradient, nor an id
            grads = tuple(g for g, i in zip(grads, positions) if has_gradient(inputs[i]))
            positions = tuple(i for i in positions if has_gradient(inputs[i]))
        grads = tuple(zip(positions, grads))
        wgrads = tuple((w.name, g) for w, g in zip(cfg.weights or (), wgrads))
    if cfg.kind == "gradop":
        wgrads = wgrads[0] if cfg.weights_form is None else cfg.weights_form(wgrads)
        if cfg.positions == "all" and cfg.weights is not None:
            result = (grads, wgrads)
        elif cfg.weights is not None:
            result = wgrads
        elif cfg.positions == "all":
            result = grads
        else:
            result = grads[0] if grads else ()
    else:
        g = grads[0] if cfg.single and grads else grads
        kept = tuple(d for d, i in zip(grads, positions) if has_gradient(inputs[i]))
        if not cfg.return_ids and len(kept) != len(grads):
            # constants (numbers, tuples...) get no gradient: MindSpore leaves them out,
            # and a lone remaining gradient comes alone
            g = kept[0] if len(kept) == 1 else kept
        if cfg.weights is not None:  # one Parameter gives one gradient
            wgrads = wgrads[0] if cfg.weights_form is None else tuple(wgrads)
            result = wgrads if cfg.positions is None else (g, wgrads)
        else:
            result = g
        if cfg.has_aux:  # as MindSpore: the aux outputs in a tuple, the value whole
            aux = tuple(value[1])
            if cfg.with_value:
                return (value[0], *aux), result
            return result, aux
    if cfg.with_value:
        return value, result
    return result


def _plain_container(x):
    """A mutable tuple/list/dict or number as a plain one: MindSpore's PyNative grad treats
    it as a constant (no gradient); a graph differentiates each tensor in it."""
    if isinstance(x, (tuple, list)) and dynamic_len_items(x) is not None:
        return list(x) if isinstance(x, list) else tuple(x)
    if isinstance(x, (tuple, list, dict)) and is_mutable(x):
        leaves, tree = flatten(x)
        return unflatten(tree, leaves, plain=True)
    plain = RUNTIME_SCALARS.get(type(x))
    return x if plain is None else plain(x)


class _Differentiated:
    """``fn`` wrapped to return gradients: traced in place inside a graph, compiled per
    signature when called in GRAPH_MODE, run eagerly on a tape in PYNATIVE_MODE."""

    def __init__(self, fn, cfg: _GradConfig, cache: CallCache):
        self.fn = fn
        self.cfg = cfg
        self.cache = cache

    def __call__(self, *args, **kwargs):
        if state.current() is not None:
            return _compute(self.fn, self.cfg, args, kwargs)
        name = f"grad_{getattr(self.fn, '__name__', type(self.fn).__name__)}"
        cell = self.fn if hasattr(self.fn, "cells_and_names") else None
        if get_context("mode") != PYNATIVE_MODE:
            return self.cache.run(self, self._traced, name, args, kwargs, cell=cell)
        args = tuple(_plain_container(a) for a in args)
        return _compute(self.fn, self.cfg, args, kwargs, eager=True)

    def _traced(self, *args, **kwargs):
        return _compute(self.fn, self.cfg, args, kwargs)

    def __gk_cache_identity__(self):
        """What the compile cache keys on: the differentiated function and the options."""
        cfg = self.cfg
        weights = tuple((w.name, w.dtype.name, w.shape) for w in cfg.weights or ())
        fn = self.fn
        target = fn if hasattr(fn, "__code__") or hasattr(fn, "__gk_cache_identity__") \
            else type(fn).construct
        return (function_identity(target), type(fn).__qualname__, cell_fingerprint(fn),
                cfg.kind, cfg.positions,
                weights, cfg.sens_param, cfg.has_aux, cfg.with_value, cfg.single,
                cfg.return_ids, getattr(cfg.weights_form, "__name__", None),
                cfg.weight_inputs_apart)


class GradOperation:
    """``GradOperation(get_all=False, get_by_list=False, sens_param=False)(fn[, weights])``."""

    def __init__(self, get_all: bool = False, get_by_list: bool = False,
                 sens_param: bool = False):
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        # compiled calls per differentiated function (weakly: they die with it) and weights
        self._caches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def __call__(self, fn, weights=None):
        used = self.get_by_list and weights is None
        if used:
            # MindSpore: a Cell's trainable weights; a function has none
            params = getattr(fn, "trainable_params", None)
            weights = tuple(params()) if callable(params) else ()
        ws = _weights(weights) if self.get_by_list else None
        # one Parameter gives one gradient; a list built in graph code a list; any other
        # weights (a list attribute of a Cell, a list given from Python, no weights) a tuple
        form = None if isinstance(weights, Parameter) else list if isinstance(weights, list) \
            and weights and state.current() is not None \
            and not is_parameter_list_attribute(weights) else tuple
        apart = get_context("mode") != PYNATIVE_MODE
        key = (getattr(fn, "__func__", None), tuple(id(w) for w in ws) if ws else None, form,
               apart)
        cache = self._call_cache(fn, key, ws)
        positions = "all" if self.get_all else 0
        cfg = _GradConfig("gradop", positions, ws, self.sens_param, False, False, True,
                          weights_form=form, weight_inputs_apart=apart, used_weights=used)
        return _Differentiated(fn, cfg, cache)

    def _call_cache(self, fn, key: tuple, ws) -> CallCache:
        """The compiled calls of ``fn`` for ``key``, made once. Held weakly by ``fn`` (a
        bound method is recreated at every attribute access: by its object) and, given
        weights, by the first weight (a weight lives as long as a network: what was compiled
        for it goes with it, even when ``fn`` lives on)."""
        owner = fn.__self__ if isinstance(fn, types.MethodType) else fn
        if ws:
            by_owner = kept_with(ws[0]).setdefault(GradOperation, weakref.WeakKeyDictionary())
            key = (key, self.get_all, self.sens_param, self.get_by_list)
        else:
            by_owner = self._caches
        per_fn = by_owner.get(owner)
        if per_fn is None:
            per_fn = by_owner[owner] = {}
        entry = per_fn.get(key)
        if entry is None:  # (the weights, kept with their ids)
            entry = per_fn[key] = (ws, CallCache())
        return entry[1]


def _lone(grad_position) -> bool:
    """One position, as an int or a 1-tuple: MindSpore returns its gradient unwrapped."""
    return isinstance(grad_position, int) or (
        isinstance(grad_position, (tuple, list)) and len(grad_position) == 1)


def _grad_config(name: str, grad_position, weights, has_aux: bool, with_value: bool,
                 return_ids: bool) -> _GradConfig:
    if grad_position is None and weights is None:  # MindSpore's error type
        raise ValueError(f"For '{name}', 'grad_position' and 'weights' cannot both be None.")
    return _GradConfig("grad", grad_position, _weights(weights), False, has_aux, with_value,
                       _lone(grad_position), bool(return_ids),
                       weights_form=None if isinstance(weights, Parameter) else tuple,
                       weight_inputs_apart=get_context("mode") != PYNATIVE_MODE)


def grad(fn, grad_position=0, weights=None, has_aux: bool = False, return_ids: bool = False):
    """``ms.grad``: gradients of ``fn`` at ``grad_position`` (and w.r.t. ``weights``; one
    Parameter gives its gradient alone)."""
    cfg = _grad_config("grad", grad_position, weights, has_aux, False, return_ids)
    return _Differentiated(fn, cfg, CallCache())


def value_and_grad(fn, grad_position=0, weights=None, has_aux: bool = False,
                   return_ids: bool = False):
    """``ms.value_and_grad``: ``(fn(*args), gradients)``."""
    cfg = _grad_config("value_and_grad", grad_position, weights, has_aux, True, return_ids)
    return _Differentiated(fn, cfg, CallCache())


def _find_grad(gradients, key):
    """The gradient paired with ``key`` in a ``return_ids`` structure, else None."""
    if isinstance(gradients, tuple):
        if len(gradients) == 2 and isinstance(gradients[0], (int, str)) \
                and not isinstance(gradients[0], bool) and gradients[0] == key \
                and type(gradients[0]) is type(key):
            return gradients[1]
        for g in gradients:
            found = _find_grad(g, key)
            if found is not None:
                return found
    return None


def get_grad(gradients, identifier):
    """The gradient of the input at position ``identifier`` (an int) or of the weight
    ``identifier`` (a Parameter) in what ``grad(..., return_ids=True)`` returned."""
    if isinstance(identifier, Parameter):
        key = identifier.name
    elif isinstance(identifier, int) and not isinstance(identifier, bool):
        key = identifier
    else:
        raise TypeError(f"For 'get_grad', the 'identifier' must be an int position or a "
                        f"Parameter, but got {type(identifier).__name__}.")
    if not isinstance(gradients, tuple):
        raise TypeError(f"For 'get_grad', the 'gradients' must be the tuple returned by "
                        f"grad(..., return_ids=True), but got {type(gradients).__name__}.")
    found = _find_grad(gradients, key)
    if found is None:
        what = f"Parameter '{key}'" if isinstance(key, str) else f"position {key}"
        raise RuntimeError(f"For 'get_grad', can not find the gradient for {what}: compute "
                           f"it with grad(..., grad_position/weights=..., return_ids=True).")
    return found
