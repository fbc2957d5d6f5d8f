"""Discrete Fourier transforms over a set of axes: ``FFTN(x, sizes, axes, norm, inverse)``
(complex to complex; a real or integer ``x`` is taken as complex), ``RFFTN`` (the half
spectrum along the last axis; of a complex ``x``, the first half of its full transform, as
MindSpore's), ``IRFFTN`` (a half spectrum back to real values) and ``DCTN`` (the
orthonormal type-2 discrete cosine transform, or with ``inverse`` its inverse, of real
values: ``mindspore.scipy.fft``'s); ``FFTAdjoint`` is the gradient of all four.

``sizes`` gives each axis' transform length (the input is cut or zero-padded to it, as
NumPy's ``s``; for ``IRFFTN`` the last one is the output length); ``norm`` is
``"backward"`` (the forward transform unscaled, the inverse scaled by ``1/n``),
``"forward"`` or ``"ortho"``. Results are complex128 (float64 for ``IRFFTN``) from
float64/complex128 inputs, else complex64 (float32), as MindSpore's.

``sizes`` and ``axes`` are attributes when they are constants (resolved by :func:`plan`:
non-negative, distinct axes and positive lengths) or, as MindSpore's ``s``/``dim``
inputs, run-time inputs (``FFTN(x, s, dim, norm)``: tuples of ints or None, ``-1`` in ``s``
for "the input's length") that the kernel resolves. ``batch_dims`` leading axes of
``x`` are not counted by ``axes`` (the vmap rules add one)."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import UNKNOWN, Abstract, AbstractScalar, AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import COMPLEX, NUMBERS, UNKNOWN_DIM, norm_axis, quiet, require_dtype, tensor_type

_WIDE = (mstype.float64, mstype.complex128)
_DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _complex_type(t: mstype.Type) -> mstype.Type:
    return mstype.complex128 if t in _WIDE else mstype.complex64


def _real_type(t: mstype.Type) -> mstype.Type:
    return mstype.float64 if t in _WIDE else mstype.float32


def plan(name: str, shape: tuple, s, dim, half_input: bool = False) -> tuple:
    """``(sizes, axes)`` of a transform of an input of ``shape``: the axes ``dim`` (None:
    all, or the last ``len(s)``) made non-negative and each one's length (``s``, where
    None or ``-1`` means the input's; ``half_input``: the last one ``2 * (m - 1)``)."""
    ndim = len(shape)
    if dim is None:
        dim = tuple(range(ndim)) if s is None else tuple(range(ndim - len(s), ndim))
    dim = (dim,) if isinstance(dim, (int, np.integer)) else tuple(dim)
    axes = tuple(norm_axis(name, d, ndim, "dim") for d in dim)
    if len(set(axes)) != len(axes) or not axes:
        raise ValueError(f"For '{name}', 'dim' must be distinct axes, but got {dim}.")
    if s is None:
        s = [shape[a] for a in axes]
        if half_input:
            s[-1] = 2 * (s[-1] - 1)
    s = tuple(s)
    if len(s) != len(axes):
        raise ValueError(f"For '{name}', 's' and 'dim' must have the same length, but got "
                         f"{len(s)} and {len(axes)}.")
    sizes = tuple(shape[a] if n == -1 else n for a, n in zip(axes, s))
    for n in sizes:
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"For '{name}', each transform length must be a positive int, "
                             f"but got {s}.")
    return tuple(int(n) for n in sizes), axes


def _resolved(name: str, shape: tuple, sizes, axes, batch_dims: int, half: bool) -> tuple:
    sizes, axes = plan(name, tuple(shape[batch_dims:]), sizes, axes, half)
    return sizes, tuple(a + batch_dims for a in axes)


def _known(a):
    """The value of an attribute or of a constant input; UNKNOWN for a run-time one."""
    if isinstance(a, AbstractScalar):
        return a.value
    if isinstance(a, AbstractTuple):
        values = tuple(_known(e) for e in a.elements)
        return UNKNOWN if UNKNOWN in values else values
    if isinstance(a, Abstract):  # a tensor, a sequence of run-time length...
        return UNKNOWN
    return a


def _out_shape(name: str, x, sizes, axes, batch_dims: int, half: bool, half_input: bool):
    """The result's shape; every dimension unknown while a length or an axis is, or while
    a length comes from a dimension of ``x`` known only at run time."""
    shape = tuple(x.shape)
    sizes, axes = _known(sizes), _known(axes)
    lengths_known = UNKNOWN not in (sizes, axes) and (
        UNKNOWN_DIM not in shape or sizes is not None and -1 not in sizes)
    if not lengths_known:
        return (UNKNOWN_DIM,) * len(shape)
    # the lengths are given, so unknown dimensions stand in as 1 for resolving the axes
    known = tuple(1 if d == UNKNOWN_DIM else d for d in shape)
    sizes, axes = _resolved(name, known, sizes, axes, batch_dims, half_input)
    out = list(shape)
    for a, n in zip(axes, sizes):
        out[a] = n
    if half:
        out[axes[-1]] = sizes[-1] // 2 + 1
    return tuple(out)


def _infer(name: str, result, half: bool, half_input: bool):
    def infer(x, sizes=None, axes=None, norm=None, inverse=False, batch_dims=0):
        t = tensor_type(name, "input", x)
        require_dtype(name, "input", t, NUMBERS + COMPLEX)
        return AbstractTensor(result(t), _out_shape(name, x, sizes, axes, batch_dims, half,
                                                    half_input))
    return infer


def _wide(x: np.ndarray) -> bool:
    return x.dtype in (np.float64, np.complex128)


@quiet
def _fftn(x, sizes=None, axes=None, norm=None, inverse=False, batch_dims=0):
    x = np.asarray(x)
    sizes, axes = _resolved("FFTN", x.shape, sizes, axes, batch_dims, False)
    fn = np.fft.ifftn if inverse else np.fft.fftn
    return fn(x, s=sizes, axes=axes, norm=norm or "backward").astype(
        np.complex128 if _wide(x) else np.complex64)


@quiet
def _rfftn(x, sizes=None, axes=None, norm=None, batch_dims=0):
    x, norm = np.asarray(x), norm or "backward"
    sizes, axes = _resolved("RFFTN", x.shape, sizes, axes, batch_dims, False)
    out_type = np.complex128 if _wide(x) else np.complex64
    if x.dtype.kind != "c":
        return np.fft.rfftn(x, s=sizes, axes=axes, norm=norm).astype(out_type)
    full = np.fft.fftn(x, s=sizes, axes=axes, norm=norm)  # MindSpore's: the first half
    return np.take(full, range(sizes[-1] // 2 + 1), axis=axes[-1]).astype(out_type)


@quiet
def _irfftn(x, sizes=None, axes=None, norm=None, batch_dims=0):
    x = np.asarray(x)
    sizes, axes = _resolved("IRFFTN", x.shape, sizes, axes, batch_dims, True)
    return np.fft.irfftn(x, s=sizes, axes=axes, norm=norm or "backward").astype(
        np.float64 if _wide(x) else np.float32)


def dct_matrix(n: int) -> np.ndarray:
    """The orthonormal DCT-II matrix ``C[k, j] = s_k cos(pi k (2j + 1) / 2n)`` (``s_0 =
    sqrt(1/n)``, else ``sqrt(2/n)``); ``C^T`` is its inverse."""
    k = np.arange(n)[:, None]
    c = np.cos(np.pi * k * (2 * np.arange(n)[None, :] + 1) / (2 * n)) * np.sqrt(2.0 / n)
    c[0] /= np.sqrt(2.0)
    return c


def _cosine(x: np.ndarray, sizes: tuple, axes: tuple, inverse: bool) -> np.ndarray:
    """The DCT-II (``C @ v``) or its inverse (``C^T @ v``) along each axis, the input cut
    or zero-padded to each length first."""
    for a, n in zip(axes, sizes):
        shape = list(x.shape)
        shape[a] = n
        x = np.moveaxis(_fit(x, (a,), tuple(shape)), a, -1)
        c = dct_matrix(n)
        x = np.moveaxis(x @ (c if inverse else c.T), -1, a)
    return x


@quiet
def _dctn(x, sizes=None, axes=None, norm=None, inverse=False, batch_dims=0):
    x = np.asarray(x)
    sizes, axes = _resolved("DCTN", x.shape, sizes, axes, batch_dims, False)
    return _cosine(x.astype(np.float64), sizes, axes, inverse).astype(
        np.float64 if x.dtype == np.float64 else np.float32)


def _fit(g: np.ndarray, axes: tuple, shape: tuple) -> np.ndarray:
    """``g`` cut or zero-padded along ``axes`` to the lengths of ``shape``."""
    for a in axes:
        have, want = g.shape[a], shape[a]
        if have > want:
            g = np.take(g, range(want), axis=a)
        elif have < want:
            pad = [(0, 0)] * g.ndim
            pad[a] = (0, want - have)
            g = np.pad(g, pad)
    return g


@quiet
def _adjoint(dout, x, sizes=None, axes=None, norm=None, kind="FFTN", inverse=False,
             batch_dims=0):
    """The cotangent of ``x`` from ``dout``, that of ``kind(x, sizes, axes...)``: with
    MindSpore's convention (the cotangent of ``a + bi`` is ``da + db i``) the adjoint of
    the linear map, the opposite-direction transform with the dual scaling, cut or
    zero-padded back to ``x``'s lengths; a real ``x`` takes the real part. ``IRFFTN``
    counts each half-spectrum entry that stands for two (a conjugate pair) twice."""
    dout, x = np.asarray(dout), np.asarray(x)
    sizes, axes = _resolved(kind, x.shape, sizes, axes, batch_dims, kind == "IRFFTN")
    dual = _DUAL[norm or "backward"]
    if kind == "DCTN":  # orthonormal: the adjoint is the opposite transform
        g = _cosine(dout.astype(np.float64), sizes, axes, not inverse)
    elif kind == "IRFFTN":
        g = np.fft.rfftn(dout, s=sizes, axes=axes, norm=dual)
        n = sizes[-1]
        weight = np.full(n // 2 + 1, 2.0)
        weight[0] = 1.0
        if n % 2 == 0:
            weight[-1] = 1.0
        shape = [1] * g.ndim
        shape[axes[-1]] = weight.size
        g = g * weight.reshape(shape)
    else:  # FFTN, or RFFTN's half spectrum zero-padded to the full one
        fn = np.fft.fftn if kind == "FFTN" and inverse else np.fft.ifftn
        g = fn(dout, s=sizes, axes=axes, norm=dual)
    g = _fit(g, axes, x.shape)
    return (g if x.dtype.kind == "c" else g.real).astype(x.dtype)


def _adjoint_infer(dout, x, sizes=None, axes=None, norm=None, kind="FFTN", inverse=False,
                   batch_dims=0):
    tensor_type("FFTAdjoint", "dout", dout)
    return AbstractTensor(tensor_type("FFTAdjoint", "x", x), tuple(x.shape))


# As MindSpore's, ``ops.FFTN()`` (and RFFTN, IRFFTN) take no constructor arguments and are
# called with ``(input, s, dim, norm)``; graphkiln's own calls pass constant lengths and
# axes as the attributes ``sizes``/``axes`` (and ``inverse``, ``batch_dims``) instead.
FFTN = OpDef("FFTN", _infer("FFTN", _complex_type, False, False), _fftn)
RFFTN = OpDef("RFFTN", _infer("RFFTN", _complex_type, True, False), _rfftn)
IRFFTN = OpDef("IRFFTN", _infer("IRFFTN", _real_type, False, True), _irfftn)
DCTN = OpDef("DCTN", _infer("DCTN", _real_type, False, False), _dctn,
             attrs={"inverse": False})
# the gradient of FFTN/RFFTN/IRFFTN (``kind``) with respect to ``x``
FFTAdjoint = OpDef("FFTAdjoint", _adjoint_infer, _adjoint, attrs={"kind": "FFTN"})
