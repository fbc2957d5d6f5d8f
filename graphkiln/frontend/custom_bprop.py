"""A Cell's custom ``bprop(self, *inputs, out, dout)`` as autodiff applies it.

A cell with a ``bprop`` method is traced as a call of its own graph (see
:mod:`.reusable`); the compile's graph registry maps that graph to a :class:`UserBprop`,
which autodiff calls with the symbolic values of the call's inputs, outputs and output
cotangents. It rebuilds the user's arguments, traces the converted ``bprop`` and checks its
result as MindSpore does: one gradient per ``construct`` input (extra items are ignored),
cast and reduced or broadcast to the input's dtype and shape. Parameters the cell reads get
no gradient from the call (MindSpore gives them zeros).
"""
from __future__ import annotations

from ..common.symbolic_scalar import SymbolicScalar
from ..common.tensor import Tensor
from ..ir.anf import FuncGraph
from ..ops.rules.custom import fit_gradient
from .control import convert
from .pytree import flatten, unflatten


def custom_bprop_key(graph: FuncGraph) -> tuple:
    """The key of ``graph``'s :class:`UserBprop` in the compile's registry
    (``GraphBuilder.root.reusable``)."""
    return ("custom_bprop", id(graph))


def _is_input(x) -> bool:
    """Whether a leaf of the call's arguments is a graph input (a Parameter argument is
    one too, passed by value; so is a run-time number, which gets no gradient)."""
    return isinstance(x, Tensor) or type(x) is SymbolicScalar


class UserBprop:
    """The user's ``bprop`` of one traced cell call, as a cotangent rule for the call's
    graph inputs (its tensor arguments, then the cell's weights)."""

    def __init__(self, cell, bprop, args: tuple, kwargs: dict, out_tree, out_leaves,
                 single_ok: bool, convert_rule: bool = True):
        self.cell = cell
        self.bprop = convert(bprop) if convert_rule else bprop  # (PyNative: run as it is)
        self.inputs = (*args, *kwargs.values())
        self.leaves, self.tree = flatten(self.inputs)
        self.out_tree = out_tree
        self.out_leaves = out_leaves
        self.single_ok = single_ok  # PYNATIVE_MODE takes a lone gradient for a lone input

    def __call__(self, ins: list, outs: list, douts: list) -> list:
        """Cotangents of the graph inputs (None for weights) from the values of the
        inputs ``ins``, the output leaves ``outs`` and their cotangents ``douts``."""
        values = list(self.leaves)
        tensor_at = [i for i, x in enumerate(values) if _is_input(x)]
        for i, v in zip(tensor_at, ins):
            if not getattr(values[i], "_is_param", False):  # the bprop may Assign to a
                values[i] = v  # Parameter argument: it keeps the Parameter
        inputs = unflatten(self.tree, values)
        out, dout = self._output(outs), self._output(douts)
        grads = self.bprop(self.cell, *inputs, out, dout)
        grads = self._check_count(grads)
        cts = []
        for x, g in zip(self.inputs, grads):
            xs, _ = flatten(x)
            gs, _ = flatten(g) if isinstance(x, (tuple, list, dict)) else ([g], None)
            for xi, gi in zip(xs, gs + [None] * (len(xs) - len(gs))):
                if _is_input(xi):
                    cts.append(self._fit(gi, xi) if isinstance(gi, Tensor) and
                               isinstance(xi, Tensor) else None)
        n_weights = len(ins) - len(cts)
        return cts + [None] * n_weights

    def _output(self, leaves: list):
        values = list(self.out_leaves)
        dyn = [i for i, v in enumerate(values) if v is None]
        for i, v in zip(dyn, leaves):
            values[i] = v
        return unflatten(self.out_tree, values)

    def _check_count(self, grads) -> tuple:
        name = type(self.cell).__name__
        if not isinstance(grads, (tuple, list)):
            if not (self.single_ok and len(self.inputs) == 1):
                raise TypeError(f"For bprop function, output should be a tuple, but got "
                                f"{type(grads).__name__} (in the 'bprop' of '{name}'; "
                                f"return one gradient per input, e.g. 'return (dx,)').")
            grads = (grads,)
        if len(grads) < len(self.inputs):
            raise RuntimeError(f"The output size of the 'bprop' must match the number of "
                               f"parameters in its corresponding primal function '{name}()'"
                               f" : {len(grads)} vs. {len(self.inputs)}.")
        return tuple(grads)

    def _fit(self, g: Tensor, x: Tensor) -> Tensor:
        return fit_gradient(g, x, f"the 'bprop' of '{type(self.cell).__name__}'")
