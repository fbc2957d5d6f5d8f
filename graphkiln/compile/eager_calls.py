"""Steps of an eager (PyNative) gradient that its tape records as one entry each: a
compiled call (``@jit`` function, GRAPH_MODE cell, eager composite) whose backward pass is
the compiled gradient of the same graph, and a cell with a custom ``bprop``, whose
backward pass is that ``bprop``, run eagerly.
"""
from __future__ import annotations

import weakref
from contextlib import contextmanager

from ..common.mutable import can_be_mutable, is_mutable
from ..common.tensor import Tensor
from ..frontend.control import call_user
from ..frontend.custom_bprop import UserBprop
from ..frontend.pytree import flatten, unflatten
from ..ir import tape as tp
from ..ir import tracing_state as state
from ..transforms.autodiff import grad_in_graph
from .compile_cache import function_identity


def check_mutable(args: tuple, kwargs: dict) -> None:
    """As MindSpore, a compiled call inside a PyNative gradient takes each argument holding
    a differentiated tensor as ``mutable``; one that cannot be is refused."""
    for arg in (*args, *kwargs.values()):
        if not is_mutable(arg) and not isinstance(arg, Tensor) \
                and any(t.depends(arg) for t in tp.mine()) and not can_be_mutable(arg):
            raise RuntimeError(f'Input "{arg}" contains tensor with gradient but can not '
                               f"mutable: only tensors, numbers and tuples/lists/dicts of "
                               f"them can be; pass the other values separately or as "
                               f"constants of the jit function.")


class _GraphVJP:
    """The vector-Jacobian product of one compiled function, compiled per signature: its
    inputs are the call's arguments and the output cotangents, its outputs the cotangents
    of the arguments' Tensors and of ``weights``."""

    def __init__(self, fn, has_self: bool, weights: tuple, cache):
        self.fn = fn
        self.has_self = has_self
        self.weights = weights
        self.cache = cache

    def traced(self, *call, **kwargs):
        """Traced by the call cache: ``([self_obj,] *args, douts, **kwargs)``."""
        head = call[:1] if self.has_self else ()
        args, douts = call[len(head):-1], call[-1]
        leaves, tree = flatten((args, kwargs))
        at = [i for i, x in enumerate(leaves) if _is_input(x)]

        def forward(*tensors):
            values = list(leaves)
            for i, t in zip(at, tensors):
                values[i] = t
            a, k = unflatten(tree, values)
            return call_user(self.fn, (*head, *a), k)
        prev = state.set_replaying_forward(True)  # the forward ran already
        try:
            _, grads, wgrads = grad_in_graph(forward, tuple(leaves[i] for i in at), {},
                                             positions=tuple(range(len(at))),
                                             weights=self.weights, sens=tuple(douts),
                                             weight_inputs_apart=False)
        finally:
            state.set_replaying_forward(prev)
        return (*grads, *wgrads)

    def __gk_cache_identity__(self):
        return ("vjp", function_identity(self.fn), self.has_self,
                tuple((w.name, w.dtype.name, w.shape) for w in self.weights))


def _is_input(x) -> bool:
    """A Tensor argument whose cotangent the step gives (Parameters: as weights)."""
    return isinstance(x, Tensor) and not x._is_param


# call cache -> {(weights ids): _GraphVJP}; weak, so they die with the compiled function
_VJPS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def record_compiled_call(cache, run, before: dict, fn, name: str, args: tuple, kwargs: dict,
                         self_obj=None, cell=None):
    """``run()`` (the compiled call of ``fn``), recorded on the active tapes as one step
    whose backward pass runs the compiled gradient of ``fn``. That recomputes the forward
    from ``before``, copies of the arrays the call writes in place (inputs, weights) taken
    before it (by the id of their Tensor: ``(Tensor, array)``), so it sees what the call
    saw and the writes happen once."""
    with tp.paused():
        out = run()
    weights = {id(w): w for t in tp.mine() for w in t.weights}
    # a Parameter given as an argument that a tape differentiates is a weight of the call
    weights.update((id(x), x) for x in flatten((args, kwargs))[0]
                   if isinstance(x, Tensor) and x._is_param
                   and any(id(x) in t.tracked for t in tp.mine()))
    collecting = [t for t in tp.mine() if t.collect]
    if collecting and cache.last_exe is not None:  # differentiate the Parameters it read
        read = tuple(w for w in cache.last_exe.weights
                     if isinstance(w, Tensor) and w._is_param and w.requires_grad)
        for t in collecting:
            t.meet(read)
        weights.update((id(w), w) for w in read)
    weights = tuple(weights.values())
    per_cache = _VJPS.get(cache)
    if per_cache is None:
        per_cache = _VJPS[cache] = {}
    key = tuple(id(w) for w in weights)
    vjp = per_cache.get(key)
    if vjp is None:
        vjp = per_cache[key] = _GraphVJP(fn, self_obj is not None, weights, type(cache)())
    inputs = [x for x in flatten((args, kwargs))[0] if _is_input(x)]
    outs = tuple(flatten(out)[0])

    def backward(*ins_out_dout):
        dout = ins_out_dout[-1]
        with _restored(before, (args, kwargs)) as (a, k):
            return vjp.cache.run(vjp, vjp.traced, f"bprop_{name}", (*a, list(dout)), k,
                                 self_obj, cell=cell)
    tp.record(backward, (*inputs, *weights), outs, {})
    return out


@contextmanager
def _restored(before: dict, call):
    """The call's ``(args, kwargs)`` with the written input Tensors replaced by copies of
    their values before the call, and the written weights holding (copies of) theirs until
    the block ends."""
    if not before:
        yield call
        return
    leaves, tree = flatten(call)
    leaves = [Tensor._from_array(before[id(x)][1].copy(), x.dtype)
              if id(x) in before and not x._is_param else x for x in leaves]
    weights = [(w, w._data) for w, _ in before.values() if w._is_param]
    for w, _ in weights:
        w._data = before[id(w)][1].copy()
    try:
        yield unflatten(tree, leaves)
    finally:
        for w, data in weights:
            w._data = data


def record_custom_bprop(cell, args: tuple, kwargs: dict):
    """A call of ``cell`` (which defines ``bprop``) whose backward pass is its ``bprop``:
    ``construct`` runs unrecorded, so the Parameters it reads get no gradient from it (as
    in a graph). An input returned as it is comes out as a new Tensor object on its data
    (as MindSpore's PyNative gives it)."""
    if not any(t.depends((args, kwargs)) for t in tp.mine()):
        return _fresh_outputs(cell.construct(*args, **kwargs), (args, kwargs))
    with tp.paused():
        out = _fresh_outputs(cell.construct(*args, **kwargs), (args, kwargs))
    out_leaves, out_tree = flatten(out)
    rule = UserBprop(cell, type(cell).bprop, args, kwargs, out_tree, [None] * len(out_leaves),
                     True, convert_rule=False)
    ins = [x for x in flatten((*args, *kwargs.values()))[0] if isinstance(x, Tensor)]

    def backward(*ins_out_dout):
        return rule(list(ins_out_dout[:-2]), list(ins_out_dout[-2]), list(ins_out_dout[-1]))
    tp.record(backward, tuple(ins), tuple(out_leaves), {})
    return out


def _fresh_outputs(out, inputs):
    """``out`` with each Tensor that is one of ``inputs``' Tensors replaced by a new
    Tensor object on the same data."""
    leaves, tree = flatten(out)
    given = {id(x) for x in flatten(inputs)[0] if isinstance(x, Tensor)}
    if not any(id(x) in given for x in leaves):
        return out
    leaves = [Tensor._from_array(x._data, x._dtype) if id(x) in given else x for x in leaves]
    return unflatten(tree, leaves)
