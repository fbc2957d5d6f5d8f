"""``jacfwd`` and ``jacrev``: whole Jacobians, as MindSpore computes them.

``jacfwd`` maps ``jvp`` (forward mode) over the standard basis of each differentiated
input with ``vmap``; ``jacrev`` maps the vector-Jacobian product (reverse mode) over the
standard basis of the outputs. The Jacobian of output ``o`` with respect to input ``x`` has
the shape ``o.shape + x.shape``. With several outputs and several inputs the result is a
tuple over outputs of tuples over inputs; with one of either, a flat tuple; with one of
each, the Tensor.
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops.functional as F

from ...common.tensor import Tensor
from ...transforms.autodiff import grad_in_graph
from ...transforms.forward_mode import jvp_in_graph
from ...transforms.vectorize import vmap_in_graph
from .transformed import Transformed, transformed


def check_has_aux(has_aux) -> None:
    if not isinstance(has_aux, bool):
        raise TypeError(f"The 'has_aux' must be bool type, but got {type(has_aux).__name__}.")


def check_grad_position(grad_position, n_args: int) -> tuple[int, ...]:
    """``grad_position`` (an int or a tuple of ints) as a tuple, checked against the call."""
    if isinstance(grad_position, tuple):
        if len(set(grad_position)) != len(grad_position):
            raise ValueError("There are duplicate positions in `grad_position`, please check it")
        positions = tuple(int(p) if isinstance(p, bool) else p for p in grad_position)
        for p in positions:
            if not isinstance(p, int):
                raise TypeError(f"For 'F.grad', the element in 'grad_position' must be int, "
                                f"but got {type(p).__name__}.")
            if p < 0:
                raise ValueError("The element in grad_position must be >= 0.")
    elif isinstance(grad_position, int):
        if grad_position < 0:
            raise ValueError("grad_position must be >= 0.")
        positions = (grad_position,)
    else:
        raise TypeError(f"For 'F.grad', the 'grad_position' must be int or tuple, but got "
                        f"{type(grad_position).__name__}.")
    for p in positions:
        if p >= n_args:
            raise ValueError(f"The element in grad_position must belong to [0, args_num), "
                             f"but got {p} for {n_args} argument(s).")
    return positions


def split_aux(fn, has_aux: bool):
    """``fn`` itself, or (``has_aux``) the function of its first output."""
    if not has_aux:
        return fn

    def main(*args):
        outputs = fn(*args)
        if not isinstance(outputs, tuple) or len(outputs) < 2:
            raise ValueError("When 'has_aux' is True, origin 'fn' requires more than one "
                             "outputs.")
        return outputs[0]
    return main


def _aux_of(outputs):
    """MindSpore's auxiliary result: the second output alone, or the rest as a tuple."""
    return outputs[1] if len(outputs) == 2 else outputs[1:]


def _check_tensors(name: str, args: tuple) -> None:
    for a in args:
        if not isinstance(a, Tensor):
            raise TypeError(f"For '{name}', the inputs of 'fn' must be Tensors, but got "
                            f"{type(a).__name__}.")


def _basis(shape: tuple, dtype) -> Tensor:
    """The standard basis of a tensor space: ``(size, *shape)``, one-hot along axis 0."""
    n = int(np.prod(shape, dtype=np.int64))
    dt = dtype if dtype.is_float else F.float32
    return F.cast(Tensor(np.eye(n, dtype=np.float32).reshape((n, *shape))), dt)


def _to_jacobian(columns: Tensor, lead: tuple, trail: tuple) -> Tensor:
    """``columns`` shaped ``(size of trail, *lead)`` (one column per basis vector) as the
    Jacobian block shaped ``lead + trail``."""
    nd = len(columns.shape)
    moved = F.transpose(columns, (*range(1, nd), 0))
    return F.reshape(moved, (*lead, *trail))


def _arrange(blocks: list, n_outputs: int, n_inputs: int):
    """Jacobian blocks ``blocks[o][i]`` in MindSpore's result structure."""
    if n_outputs == 1 and n_inputs == 1:
        return blocks[0][0]
    if n_inputs == 1:
        return tuple(b[0] for b in blocks)
    if n_outputs == 1:
        return tuple(blocks[0])
    return tuple(tuple(b) for b in blocks)


def _outputs_tuple(out) -> tuple:
    return out if isinstance(out, tuple) else (out,)


def _forward_blocks(main, args: tuple, positions: tuple, main_out: tuple) -> list:
    """Jacobian blocks ``[output][position]``: ``jvp`` mapped over each input's basis."""
    blocks = [[None] * len(positions) for _ in main_out]
    for k, p in enumerate(positions):
        x = args[p]

        def of_x(xp, p=p):
            return main(*args[:p], xp, *args[p + 1:])

        def column(t, of_x=of_x, x=x):
            return jvp_in_graph(of_x, (x,), (t,))[1]

        cols = _outputs_tuple(vmap_in_graph(column, (_basis(x.shape, x.dtype),), {}, 0, 0))
        for o, c in enumerate(cols):
            blocks[o][k] = _to_jacobian(c, tuple(main_out[o].shape), tuple(x.shape))
    return blocks


def _reverse_blocks(main, args: tuple, positions: tuple, main_out: tuple) -> list:
    """Jacobian blocks ``[output][position]``: the vector-Jacobian product mapped over one
    batch of cotangents covering every output's elements (row r one-hot at element r)."""
    sizes = [int(np.prod(o.shape, dtype=np.int64)) for o in main_out]
    starts = np.cumsum([0, *sizes])
    total = int(starts[-1])
    eye = np.eye(total, dtype=np.float32)
    sens = tuple(F.cast(Tensor(eye[:, starts[o]:starts[o + 1]].reshape((total, *out.shape))),
                        out.dtype) for o, out in enumerate(main_out))

    def row(*v):
        return tuple(grad_in_graph(main, args, {}, positions=positions, weights=None,
                                   sens=v)[1])

    rows = vmap_in_graph(row, sens, {}, 0, 0)  # per position: (total, *x.shape)
    return [[F.reshape(rows[k][int(starts[o]):int(starts[o + 1])],
                       (*out.shape, *args[p].shape)) for k, p in enumerate(positions)]
            for o, out in enumerate(main_out)]


def _jacobian(kind: str, blocks_of, fn, options: tuple, args: tuple):
    grad_position, has_aux = options
    _check_tensors(kind, args)
    positions = check_grad_position(grad_position, len(args))
    main = split_aux(fn, has_aux)
    outputs = fn(*args)
    main_out = _outputs_tuple(outputs[0] if has_aux else outputs)
    jac = _arrange(blocks_of(main, args, positions, main_out), len(main_out), len(positions))
    return (jac, _aux_of(outputs)) if has_aux else jac


def _jacfwd(fn, options, *args):
    return _jacobian("jacfwd", _forward_blocks, fn, options, args)


def _jacrev(fn, options, *args):
    return _jacobian("jacrev", _reverse_blocks, fn, options, args)


def jacfwd(fn, grad_position=0, has_aux: bool = False) -> Transformed:
    """The Jacobian of ``fn`` with respect to the inputs at ``grad_position``, in forward
    mode (best when outputs outnumber inputs); ``has_aux``: ``fn`` returns
    ``(output, aux...)``, only the output is differentiated, the result is
    ``(jacobian, aux)``."""
    check_has_aux(has_aux)
    return transformed("jacfwd", _jacfwd, fn, (grad_position, has_aux))


def jacrev(fn, grad_position=0, has_aux: bool = False) -> Transformed:
    """The Jacobian of ``fn`` in reverse mode (best when inputs outnumber outputs); the
    arguments and result are those of :func:`jacfwd`."""
    check_has_aux(has_aux)
    return transformed("jacrev", _jacrev, fn, (grad_position, has_aux))


__all__ = ["jacfwd", "jacrev"]
