"""Input signatures with unknown dimensions: ``Cell.set_inputs(*placeholders)``,
``jit(input_signature=...)`` and ``jit(dynamic=1)``.

A placeholder is a Tensor without data (``Tensor(shape=[None, 3], dtype=ms.float32)``).
A call whose tensor argument fits its placeholder is compiled with the placeholder's
shape (``-1`` for each unknown dimension), so one compile serves every batch size: the
call cache keys that argument on its dtype and that shape. An unknown rank
(``Tensor(shape=None)``) compiles once per rank, every dimension unknown.

``set_inputs`` is strict, as MindSpore's: an argument that does not fit raises its
TypeError (dtype) or ValueError (rank, a known dimension). ``input_signature`` is a hint,
as MindSpore 2.10 treats it: an argument that does not fit compiles for its own shape.
"""
from __future__ import annotations

from ..common.mutable import RUNTIME_SCALARS
from ..common.tensor import DYNAMIC_RANK, UNKNOWN_DIM, Tensor
from ..frontend.pytree import flatten, unflatten


class InputSignature:
    """Placeholders for the positional arguments of a compiled function (or all tensor
    arguments dynamic, with ``all_dynamic``)."""

    __slots__ = ("specs", "strict", "all_dynamic")

    def __init__(self, specs: tuple = (), strict: bool = False, all_dynamic: bool = False):
        self.specs = specs
        self.strict = strict
        self.all_dynamic = all_dynamic

    def trace_args(self, args: tuple, known_vectors: bool = False, n_kwargs: int = 0) -> tuple:
        """``args`` with each tensor that fits its placeholder replaced by a placeholder of
        the shape to compile for; the others stay as they are. ``known_vectors``: an
        integer vector keeps its length (it gave an output's rank: a
        :class:`~graphkiln.errors.DynamicRankError` while compiling). Placeholders past the
        positional arguments stand for the ``n_kwargs`` keyword arguments (MindSpore
        accepts ``set_inputs(x, y, 1)`` for ``net(x, y, seed=1)``)."""
        out = self._trace_args(args, n_kwargs)
        if not known_vectors:
            return out
        return tuple(_known_vectors(t, arg) for t, arg in zip(out, args))

    def _trace_args(self, args: tuple, n_kwargs: int) -> tuple:
        if self.all_dynamic:
            return tuple(_map_tensors(a, lambda t: _placeholder(t, (UNKNOWN_DIM,) * t.ndim))
                         for a in args)
        if self.strict and not len(args) <= len(self.specs) <= len(args) + n_kwargs:
            raise TypeError(
                f"For 'Cell', set_inputs was given {len(self.specs)} inputs, but construct "
                f"was called with {len(args)} positional arguments. When using set_inputs, "
                f"please make sure that all networks and loss functions are configured with "
                f"set_inputs.")
        out = list(args)
        seen: dict = {}  # unique Symbol -> its value in this call
        for i, (arg, spec) in enumerate(zip(args, self.specs)):
            out[i] = self._fit(i + 1, arg, spec, seen)
        return tuple(out)

    def _fit(self, position: int, arg, spec, seen: dict):
        spec_leaves, spec_tree = flatten(spec)
        arg_leaves, arg_tree = flatten(arg)
        if self.strict and isinstance(spec, (tuple, list)):
            _check_sequence(position, spec, arg)
        if not _same_structure(spec_tree, arg_tree):
            if self.strict:
                raise ValueError(f"For set_inputs and tuple(list) in set_inputs, the "
                                 f"{position}th input must have the structure of "
                                 f"{spec!r}, but got {arg!r}.")
            return arg
        fitted = []
        for s, a in zip(spec_leaves, arg_leaves):
            if self.strict and not isinstance(s, Tensor):
                _check_scalar(position, s, a)
            if not isinstance(s, Tensor) or not isinstance(a, Tensor) or a._is_param:
                if self.strict and isinstance(s, Tensor) and not isinstance(a, Tensor):
                    raise TypeError(f"For set_inputs or tuple(list) in set_inputs, the "
                                    f"{position}th type should be Tensor[{s.dtype}], but "
                                    f"got {type(a).__name__}!")
                fitted.append(a)
                continue
            shape = _fitting_shape(position, s, a, self.strict)
            if self.strict:
                _check_symbols(position, s, a, seen)
            fitted.append(a if shape is None else _placeholder(a, shape))
        return unflatten(arg_tree, fitted)


def _check_mutability(position: int, spec_mutable: bool, arg_mutable: bool) -> None:
    """MindSpore's rule for ``mutable`` under ``set_inputs``: on both sides or on neither."""
    if spec_mutable and not arg_mutable:
        raise TypeError(f"For set_inputs or tuple(list) in set_inputs, the {position}th should "
                        f"be mutable one, but got static!")
    if arg_mutable and not spec_mutable:
        raise TypeError(f"For set_inputs or tuple(list) in set_inputs, the {position}th should "
                        f"be static one, but got mutable!")


def _check_scalar(position: int, spec, arg) -> None:
    """A number under ``set_inputs``, as MindSpore checks it: a ``mutable`` entry wants a
    mutable argument, a plain one a plain argument of the same value."""
    spec_mutable, arg_mutable = type(spec) in RUNTIME_SCALARS, type(arg) in RUNTIME_SCALARS
    if (spec_mutable and isinstance(arg, _NUMBERS)) or (arg_mutable and
                                                        isinstance(spec, _NUMBERS)):
        _check_mutability(position, spec_mutable, arg_mutable)
    if not (spec_mutable or arg_mutable) and isinstance(spec, _NUMBERS) \
            and isinstance(arg, _NUMBERS) and (type(spec) is not type(arg) or spec != arg):
        raise ValueError(f"For set_inputs or tuple(list) in set_inputs, the {position}th should "
                         f"be {spec!r}, but got {arg!r}!")


_NUMBERS = (bool, int, float)


def _mutable(x) -> bool:
    return getattr(x, "__ms_mutable__", False)


def _check_sequence(position: int, spec, arg) -> None:
    """MindSpore's checks of a tuple/list placeholder: ``mutable`` on both sides or on
    neither; a tuple that is not mutable is compiled for its exact shapes, so it may not
    hold a placeholder with unknown dimensions."""
    _check_mutability(position, _mutable(spec), _mutable(arg))
    if not _mutable(spec) and any(isinstance(t, Tensor) and t.is_placeholder and
                                  (UNKNOWN_DIM in t.shape or DYNAMIC_RANK in t.shape)
                                  for t in flatten(spec)[0]):
        raise ValueError(f"For set_inputs or tuple(list) in set_inputs, the {position}th "
                         f"should be {spec!r}: a tuple or list that is not mutable is "
                         f"compiled for its exact shapes (use mutable(...) for unknown "
                         f"dimensions), but got {arg!r}.")


_SAME_KIND = {"mutable_list": "mutable_tuple"}  # a mutable list fills a mutable tuple


def _same_structure(a, b) -> bool:
    """Trees equal up to mutable tuple vs mutable list (MindSpore matches those)."""
    if _SAME_KIND.get(a.kind, a.kind) != _SAME_KIND.get(b.kind, b.kind) or \
            a.meta != b.meta or len(a.children) != len(b.children):
        return False
    return all(_same_structure(x, y) for x, y in zip(a.children, b.children))


def _fitting_shape(position: int, spec: Tensor, arg: Tensor, strict: bool) -> tuple | None:
    """The shape to compile ``arg`` for under ``spec``, or None when it does not fit (a
    ValueError/TypeError under ``set_inputs``)."""
    if arg.dtype is not spec.dtype:
        if not strict:
            return None
        raise TypeError(f"For set_inputs or tuple(list) in set_inputs, the {position}th type "
                        f"should be Tensor[{spec.dtype}], but got Tensor[{arg.dtype}]!")
    want = tuple(spec.shape)
    got = tuple(arg.shape)
    if want == (DYNAMIC_RANK,):
        return (UNKNOWN_DIM,) * len(got)
    if not got and all(w == UNKNOWN_DIM for w in want):
        return got  # (MindSpore 2.10 lets a 0-D Tensor fill a placeholder of unknown dims)
    if len(want) != len(got):
        if not strict:
            return None
        raise ValueError(f"For set_inputs and tuple(list) in set_inputs, the dims of "
                         f"{position}th input must be the same as expected, but got "
                         f"expected: {len(want)}, and input: {len(got)}!")
    for w, g in zip(want, got):
        if w >= 0 and w != g:
            if not strict:
                return None
            raise ValueError(f"For set_inputs and tuple(list) in set_inputs, the shape of "
                             f"{position}th input must be the same as expected, but got "
                             f"expected: {w}, and input: {g}!")
    return want


def _check_symbols(position: int, spec: Tensor, arg: Tensor, seen: dict) -> None:
    """MindSpore's ValueError when a dimension of ``arg`` breaks the ``Symbol`` its
    placeholder gives it (bounds, divisor, a unique Symbol's one value)."""
    for axis, (symbol, value) in enumerate(zip(getattr(spec, "_symbols", ()), arg.shape)):
        problem = symbol.violation(int(value), seen) if symbol is not None else None
        if problem:
            raise ValueError(f"The {axis + 1}th shape value of {position}th actual input "
                             f"args {problem} Actual shape: {list(arg.shape)}, axis: {axis}.")


def _placeholder(t: Tensor, shape: tuple) -> Tensor:
    return Tensor(shape=shape, dtype=t.dtype) if UNKNOWN_DIM in shape else t


def _map_tensors(x, fn):
    leaves, tree = flatten(x)
    return unflatten(tree, [fn(v) if isinstance(v, Tensor) and not v._is_param
                            and not v.is_placeholder else v for v in leaves])


def _known_vectors(traced, actual):
    """``traced`` with each integer vector placeholder of unknown length replaced by the
    argument it stands for (so the vector's length is known)."""
    leaves, tree = flatten(traced)
    return unflatten(tree, [
        a if isinstance(t, Tensor) and t.is_placeholder and t.dtype.is_int
        and t.ndim == 1 and isinstance(a, Tensor) and a.ndim == 1 else t
        for t, a in zip(leaves, flatten(actual)[0])])


def jit_signature(input_signature, dynamic: int) -> InputSignature | None:
    """The signature of ``jit(input_signature=..., dynamic=...)`` (None: static shapes)."""
    if dynamic:
        return InputSignature(all_dynamic=True)
    if input_signature is None:
        return None
    specs = tuple(input_signature) if isinstance(input_signature, (tuple, list)) \
        else (input_signature,)
    return InputSignature(specs)


def set_inputs_signature(inputs: tuple | None) -> InputSignature | None:
    """The strict signature of ``Cell.set_inputs(*inputs)`` (None when not set)."""
    return None if not inputs else InputSignature(tuple(inputs), strict=True)


__all__ = ["InputSignature", "jit_signature", "set_inputs_signature"]
