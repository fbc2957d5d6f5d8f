"""Reverse-mode autodiff of PyNative code: the function runs eagerly, op by op, as plain
Python (hooks, prints, NumPy, data-dependent control flow and shapes all work) while a
:class:`~graphkiln.ir.tape.Tape` records each step on a differentiated value; the backward
pass walks the tape in reverse with the same ``bprop`` rules the graph transformation
(``autodiff.py``) uses, so both give the same gradients.

Higher derivatives: the backward ops run eagerly too, and every tape still recording (an
outer gradient's) records them, so grad of grad differentiates them in turn.
"""
from __future__ import annotations

import graphkiln.ops.functional as F

from ..common import dtype as mstype
from ..common.sparse_tensor import SPARSE_TYPES
from ..common.tensor import Tensor
from ..ir import tape as tp
from ..ir.primitive import REGISTRY, OpDef
from .autodiff import Backprop, add_ct, omitted_inputs, opdef_rule, sens_values, split_output

# structural ops as the graph transformation treats them: the cotangent goes to the first
# input (Depend, TensorMove, Load), or nowhere (UpdateState, Print, Fill...)
_FIRST_INPUT = frozenset(k for k, v in Backprop.STRUCTURAL.items() if v == "first_input")
_NO_GRADIENT = frozenset(k for k, v in Backprop.STRUCTURAL.items() if v == "no_gradient")


class EagerBackprop:
    """Cotangents of the Tensors of one tape, by identity, accumulated backwards."""

    def __init__(self, tape: tp.Tape):
        self.tape = tape
        self.ct: dict = {}  # Tensor id -> cotangent

    def add(self, x, g) -> None:
        """Add ``g`` to the cotangent of ``x`` (a Tensor, or a tuple/list of them with
        ``g`` alike); values that depend on nothing differentiated are skipped."""
        if g is None:
            return
        if isinstance(x, Tensor):
            if id(x) in self.tape.tracked and x.dtype is not mstype.bool_:
                self.ct[id(x)] = add_ct(self.ct.get(id(x)), g)
        elif isinstance(x, (tuple, list)) and isinstance(g, (tuple, list)):
            for xi, gi in zip(x, g):
                self.add(xi, gi)

    def take(self, x: Tensor):
        """The final cotangent of ``x`` (None if it got none), after ``x``'s Tensor hooks
        (each may replace it)."""
        g = self.ct.pop(id(x), None)
        return None if g is None else run_tensor_hooks(x, g)

    def leaf(self, x: Tensor):
        """The gradient of an input or weight ``x`` (after the walk; asked again, the
        same)."""
        key = ("leaf", id(x))
        if key not in self.ct:
            self.ct[key] = self.take(self.tape.renamed.get(id(x), x))
        return self.ct[key]

    def _douts(self, out, dense: bool = True):
        """The cotangent of an entry's output (None when nothing reached it); the items of
        a tuple output that got none get zeros, as rules want them dense (None for a rule
        that ``keeps_none``)."""
        if isinstance(out, Tensor):
            return self.take(out)
        if not isinstance(out, tuple):
            return None
        gs = [self._douts(o, dense) for o in out]
        if all(g is None for g in gs):
            return None
        if not dense:
            return tuple(gs)
        return tuple(_zeros(o) if g is None else g for o, g in zip(out, gs))

    def run(self) -> None:
        with tp.running_backward():
            self._walk()

    def _walk(self) -> None:
        for e in reversed(self.tape.entries):
            dout = self._douts(e.out, not getattr(e.op, "keeps_none", False))
            if dout is None:
                continue
            op = e.op
            if isinstance(op, OpDef):
                if op.name in _NO_GRADIENT:
                    continue
                if op.name in _FIRST_INPUT:
                    cts = (dout,)
                else:
                    rule = opdef_rule(op)
                    if rule is None:
                        continue
                    ins = list(e.inputs) + omitted_inputs(op, rule, len(e.inputs))
                    cts = rule(*ins, e.out, dout, **e.attrs)
            else:
                cts = op(*e.inputs, e.out, dout, **e.attrs)
            for x, c in zip(e.inputs, cts):
                self.add(x, c)


def _zeros(x):
    if isinstance(x, Tensor):
        return F.zeros_like(x)
    if isinstance(x, tuple):
        return tuple(_zeros(e) for e in x)
    return None


def _alias(x):
    """A new Tensor object on ``x``'s data (so each differentiated position has its own
    cotangent), recorded as the identity where an outer tape tracks ``x``."""
    if type(x) is not Tensor or x._data is None:
        return x
    y = Tensor._from_array(x._data, x._dtype)
    tp.share_hooks(y, x)
    if tp.ACTIVE:
        tp.record(tp.pass_through, (x,), y, {})
    return y


def _differentiated(x):
    """``_alias`` of a differentiated input; a sparse tensor's values are its differentiated
    part (MindSpore's PyNative gives their gradient as the input's)."""
    if not isinstance(x, SPARSE_TYPES):
        return _alias(x)
    parts, shape = x.__gk_flatten__()
    return type(x).__gk_unflatten__(shape, (*parts[:-1], _alias(parts[-1])))


def _grad_leaf(x):
    """The Tensor whose gradient is the gradient of input ``x`` (None: a constant)."""
    if isinstance(x, SPARSE_TYPES):
        return x.values
    return x if isinstance(x, Tensor) else None


def run_tensor_hooks(x: Tensor, g):
    """``g`` (``x``'s gradient) after ``x``'s Tensor hooks, each of which may replace it."""
    for hook in tp.tensor_hooks(x):
        g = REGISTRY["RunBackwardHook"](g, hook_fn=hook)
    return g


def grad_eager(fn, args: tuple, kwargs: dict, *, positions, weights, sens=None,
               has_aux: bool = False, compiled=None, used_weights: bool = False) -> tuple:
    """Run ``fn(*args, **kwargs)`` eagerly on a tape and return ``(value, grads_inputs,
    grads_weights)`` as :func:`~graphkiln.transforms.autodiff.grad_in_graph` does (a
    Parameter given as an input gets the sum of its cotangents as the input and as a
    weight, as in MindSpore's PyNative mode). ``compiled(tape, seeds, leaves)`` may give
    the leaves' gradients from a compiled backward pass (None: walk the tape here).
    ``used_weights`` (``weights`` is then ignored): the weights are the Parameters the
    output depends on, in order of first use (MindSpore's PyNative GradOperation without
    weights)."""
    if not tp.grad_enabled():
        raise RuntimeError("In no_grad context, you can not calculate gradient.")
    given = (*args, *kwargs.values())
    # one stand-in per differentiated object: a Tensor given at several positions is one
    # value, whose whole gradient each of them gets (MindSpore's PyNative)
    stand_in = {}
    for i in positions:
        if i < len(given) and id(given[i]) not in stand_in:
            stand_in[id(given[i])] = _differentiated(given[i])
    inputs = [stand_in.get(id(a), a) for a in given]
    tape = tp.Tape(() if used_weights else weights or (), collect=used_weights)
    for i in positions:
        if _grad_leaf(inputs[i]) is not None:
            tape.track(_grad_leaf(inputs[i]))
    call_args = tuple(inputs[:len(args)])
    call_kwargs = dict(zip(kwargs, inputs[len(args):]))
    with tp.recording(tape):
        out = fn(*call_args, **call_kwargs)
    value = out
    out, aux, outs = split_output(out, has_aux)
    if used_weights:
        tape.meet(outs)  # a Parameter returned as it is is used too
        weights = tuple(tape.found)
    seeds = [(o, s) for o, s in zip(outs, sens_values(sens, outs)) if id(o) in tape.tracked]
    leaves = [_grad_leaf(inputs[i]) for i in positions if _grad_leaf(inputs[i]) is not None]
    leaves += [w for w in weights or () if all(w is not x for x in leaves)]
    # (which Parameters a gradient reaches shows on the tape walk only)
    found = compiled(tape, seeds, leaves) if compiled is not None and not used_weights \
        else None
    if found is None:
        bp = EagerBackprop(tape)
        for o, s in seeds:
            bp.add(o, s)
        bp.run()
        found = [bp.leaf(x) for x in leaves]
    by_id = {id(x): g for x, g in zip(leaves, found)}
    grads = []
    for i in positions:
        a = _grad_leaf(inputs[i])
        if a is not None:
            g = by_id[id(a)]
            grads.append(g if g is not None else F.zeros_like(a))
        else:  # a plain container or number is a constant: MindSpore gives () or None
            grads.append(() if isinstance(inputs[i], (tuple, list, dict)) else None)
    wgrads = []
    if used_weights:  # only the Parameters a gradient reached
        weights = [w for w in weights if by_id[id(w)] is not None]
    for w in weights or ():
        # a weight whose requires_grad is False when the forward ends (even if set while it
        # ran) gets zeros, as in MindSpore's PyNative mode
        if not getattr(w, "requires_grad", True):
            wgrads.append(F.fill(w.dtype, w.shape, 0))
            continue
        g = by_id[id(w)]
        # a weight the output does not depend on: zeros, which its hooks still see
        wgrads.append(g if g is not None else run_tensor_hooks(w, F.fill(w.dtype, w.shape, 0)))
    return value if not has_aux else (out, aux), grads, wgrads


__all__ = ["EagerBackprop", "grad_eager"]
