"""``PadV3(mode, paddings_contiguous)(x, paddings, constant_value)`` and its backward
``PadV3Grad(mode, paddings_contiguous)(dout, paddings)``.

``paddings`` (a 1-D int Tensor or a tuple, possibly known only at run time) holds
(before, after) pairs for the last dimensions, the last dimension first; with
``paddings_contiguous=False`` all the befores come first, then the afters. A negative size
crops its side of the dimension, the positive sizes pad (in the order of MindSpore's CPU
kernel, see :func:`positions`): with ``constant_value`` (``constant``), the mirror image
without the edge (``reflect``), the edge repeated (``edge``) or the other end
(``circular``). Every mode is one gather of positions per axis (``-1``: the constant), so
the backward adds each output's cotangent back to the position it was read from.
"""
from __future__ import annotations

import numpy as np

from ...ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import INDEX_TYPES, UNKNOWN_DIM, describe, quiet, require_dtype, tensor_type

MODES = ("constant", "reflect", "edge", "circular")
_NUMPY_MODE = {"reflect": "reflect", "edge": "edge", "circular": "wrap"}
_ATTRS = {"mode": "constant", "paddings_contiguous": True}


def _check_attrs(attrs: dict) -> None:
    mode = attrs.get("mode", "constant")
    if mode not in MODES:
        raise ValueError(f"For 'PadV3', the 'mode' must be one of {list(MODES)}, but got "
                         f"{mode!r}.")
    if not isinstance(attrs.get("paddings_contiguous", True), bool):
        raise TypeError(f"For 'PadV3', the 'paddings_contiguous' must be a bool, but got "
                        f"{type(attrs['paddings_contiguous']).__name__}.")


def pairs(paddings, contiguous: bool) -> list:
    """``[(before, after), ...]``, the last dimension first, from the flat ``paddings``."""
    flat = [int(p) for p in np.ravel(np.asarray(paddings))]
    if not contiguous:
        half = len(flat) // 2
        flat = [v for pair in zip(flat[:half], flat[half:]) for v in pair]
    return [(flat[2 * k], flat[2 * k + 1]) for k in range(len(flat) // 2)]


def _check_count(name: str, count: int, rank: int) -> None:
    if count % 2 or count // 2 > rank:
        raise ValueError(f"For '{name}', the number of elements of 'paddings' must be even "
                         f"and at most twice the rank of the input {rank}, but got {count}.")


def _known_paddings(name: str, paddings):
    """The paddings' values when known before the run, else None; and their count (-1:
    unknown)."""
    if isinstance(paddings, AbstractTuple):
        for e in paddings.elements:
            if not _scalar_of(e, (int, np.integer)) or _scalar_of(e, (bool, np.bool_)):
                raise TypeError(f"For '{name}', the 'paddings' must be a tuple of ints or "
                                f"an int Tensor, but got a {describe(paddings)} holding "
                                f"{describe(e)}.")
        values = [e.value for e in paddings.elements]
        known = all(isinstance(v, (int, np.integer)) for v in values)
        return (values if known else None), len(values)
    if not isinstance(paddings, AbstractTensor):
        raise TypeError(f"For '{name}', the 'paddings' must be a tuple of ints or an int "
                        f"Tensor, but got {describe(paddings)}.")
    tensor_type(name, "paddings", paddings)
    require_dtype("PadV3", "paddings", paddings.dtype, INDEX_TYPES)
    if len(paddings.shape) != 1:
        raise ValueError(f"For 'PadV3', the 'paddings' must be 1-D, but got shape "
                         f"{list(paddings.shape)}.")
    value = paddings.value
    return (None if value is None else list(np.ravel(value))), paddings.shape[0]


def _infer_for(name: str, sign: int):
    """``sign`` 1: the padded shape (PadV3); -1: the shape before padding (PadV3Grad)."""
    def infer(x, paddings, constant_value=None, mode="constant", paddings_contiguous=True):
        tensor_type(name, "x", x)
        if sign > 0 and mode == "constant" and _is_none(constant_value):
            raise ValueError("For primitive[PadV3], the input number must be equal to 3, but "
                             "got 2: the 'constant_value' is NoneType, and 'constant' mode "
                             "needs a value.")
        if sign > 0 and not _is_none(constant_value) and not (
                isinstance(constant_value, AbstractTensor) or
                _scalar_of(constant_value, (int, float, complex, np.number))):
            raise TypeError(f"For 'PadV3', the 'constant_value' must be a number or a "
                            f"Tensor, but got {describe(constant_value)}.")
        values, count = _known_paddings(name, paddings)
        rank = len(x.shape)
        if count >= 0:
            _check_count(name, count, rank)
            if mode != "constant" and (count != 2 * (rank - 2) or not 3 <= rank <= 5):
                raise ValueError(f"For '{name}' in {mode} mode, the input must be 3-D to 5-D "
                                 f"with 2 paddings per dimension after the first two, but got "
                                 f"a {rank}-D input and {count} paddings.")
        shape = list(x.shape)
        if values is None:
            lo = 0 if count < 0 else rank - count // 2
            return AbstractTensor(x.dtype, tuple(shape[:lo]) + (UNKNOWN_DIM,) * (rank - lo))
        for k, (before, after) in enumerate(pairs(values, paddings_contiguous)):
            ax = rank - 1 - k
            if shape[ax] != UNKNOWN_DIM:
                shape[ax] += sign * (before + after)
                if shape[ax] <= 0:
                    raise ValueError(f"For '{name}', the padded dimension {ax} must be "
                                     f"positive, but got {shape[ax]}.")
        return AbstractTensor(x.dtype, tuple(shape))
    return infer


def _scalar_of(a, kinds: tuple) -> bool:
    """Whether ``a`` is a scalar of one of ``kinds`` (known or only at run time)."""
    return isinstance(a, AbstractScalar) and isinstance(a.kind, type) and \
        issubclass(a.kind, kinds)


def _is_none(a) -> bool:
    return a is None or isinstance(a, AbstractScalar) and a.value is None and \
        a.kind is type(None)


def positions(size: int, before: int, after: int, mode: str) -> np.ndarray:
    """The input position each output position along one axis reads (``-1``: the
    constant). As MindSpore's kernel, ``reflect`` mirrors the whole dimension and then
    crops the negative sides; the other modes crop first and pad what is left (a
    circular pad wraps around the cropped dimension)."""
    grow = (max(before, 0), max(after, 0))
    crop = (max(-before, 0), max(-after, 0))
    if mode == "reflect":
        if max(grow) >= size:
            raise ValueError(f"For 'PadV3' in reflect mode, the paddings must be less than "
                             f"the padded dimension {size}, but got {grow}.")
        index = np.pad(np.arange(size, dtype=np.int64), grow, mode="reflect")
        return index[crop[0]:len(index) - crop[1]]
    index = np.arange(size, dtype=np.int64)[crop[0]:size - crop[1]]
    if grow == (0, 0):
        return index
    if mode == "constant":
        return np.pad(index, grow, constant_values=-1)
    return np.pad(index, grow, mode=_NUMPY_MODE[mode])


def _check_value_mode(x: np.ndarray, pads: list, mode: str) -> None:
    if len(pads) > x.ndim:
        raise ValueError(f"For 'PadV3', the number of elements of 'paddings' must be at most "
                         f"twice the rank of the input {x.ndim}, but got {2 * len(pads)}.")
    if mode not in MODES:
        raise ValueError(f"For 'PadV3', the 'mode' must be one of {list(MODES)}, but got "
                         f"{mode!r}.")


@quiet
def _pad_v3(x, paddings, constant_value=None, mode="constant", paddings_contiguous=True):
    x = np.asarray(x)
    pads = pairs(paddings, paddings_contiguous)
    _check_value_mode(x, pads, mode)
    fill = 0 if constant_value is None else np.asarray(constant_value).astype(x.dtype)
    for k, (before, after) in enumerate(pads):
        ax = x.ndim - 1 - k
        index = positions(x.shape[ax], before, after, mode)
        out = np.take(x, np.maximum(index, 0), axis=ax)
        if (index < 0).any():
            shape = [1] * x.ndim
            shape[ax] = len(index)
            out = np.where((index < 0).reshape(shape), fill, out).astype(x.dtype)
        x = out
    return x


@quiet
def _pad_v3_grad(dout, paddings, mode="constant", paddings_contiguous=True):
    g = np.asarray(dout)
    pads = pairs(paddings, paddings_contiguous)
    _check_value_mode(g, pads, mode)
    for k, (before, after) in enumerate(pads):
        ax = g.ndim - 1 - k
        size = g.shape[ax] - before - after
        index = positions(size, before, after, mode)
        moved = np.moveaxis(g, ax, 0)
        acc = np.zeros((size,) + moved.shape[1:], g.dtype)
        keep = index >= 0
        np.add.at(acc, index[keep], moved[keep])
        g = np.moveaxis(acc, 0, ax)
    return g


PadV3 = OpDef("PadV3", _infer_for("PadV3", 1), _pad_v3, attrs=dict(_ATTRS),
              check_attrs=_check_attrs)
PadV3Grad = OpDef("PadV3Grad", _infer_for("PadV3Grad", -1), _pad_v3_grad,
                  attrs=dict(_ATTRS), check_attrs=_check_attrs)
