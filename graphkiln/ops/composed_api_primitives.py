"""MindSpore primitive classes of the functional APIs that graphkiln composes of its own
primitives (``ops.Einsum("ij,jk->ik")(a, b)``, ``ops.Cdist(p)(x1, x2)``, ``ops.Logit(eps)``,
``ops.MirrorPad(mode)``, ``ops.LogSpace(steps)``, ``ops.TrilIndices(row, col)``...): each
instance keeps its attributes and, called, traces the function it stands for, so gradients
and vmap come from the parts' rules."""
from __future__ import annotations

import numpy as np

import graphkiln.ops.activation_functions as ACT
import graphkiln.ops.array_ops as AO
import graphkiln.ops.cumulative as CU
import graphkiln.ops.diagonals as DG
import graphkiln.ops.distance as DI
import graphkiln.ops.einsum_ops as EI
import graphkiln.ops.elementwise as EL
import graphkiln.ops.functional as F
import graphkiln.ops.index_put as IPUT
import graphkiln.ops.interpolation as IP
import graphkiln.ops.nn_functions as NF
import graphkiln.ops.products as PR
import graphkiln.ops.quantiles as QU
import graphkiln.ops.ranges as RA
import graphkiln.ops.searching as SE
import graphkiln.ops.unfold as UF

from ..common import dtype as mstype
from .composed_primitives import _Composed

_REQUIRED = object()


def _primitive(name: str, params: tuple, call, doc: str):
    """A class ``name`` whose ``__init__`` takes ``params`` (``(attribute, default)``
    pairs; ``_REQUIRED`` for none) and whose call is ``call(self, *inputs)``."""
    def __init__(self, *args, **kwargs):
        if len(args) > len(params):
            raise TypeError(f"{name}() takes at most {len(params)} arguments, but got "
                            f"{len(args)}.")
        given = dict(zip((p for p, _ in params), args))
        for key, value in kwargs.items():
            if key not in dict(params) or key in given:
                raise TypeError(f"{name}() got an unexpected or repeated argument '{key}'.")
            given[key] = value
        for attr, default in params:
            if attr not in given and default is _REQUIRED:
                raise TypeError(f"{name}() missing the required argument '{attr}'.")
            setattr(self, attr, given.get(attr, default))

    return type(name, (_Composed,), {"__init__": __init__, "__call__": call, "__doc__": doc,
                                      "__module__": __name__})


def _cumulative_logsumexp(self, x, axis):
    """``logcumsumexp`` along ``axis``, from the end when ``reverse``, each leaving out its
    own element when ``exclusive`` (the lowest float first, as MindSpore's)."""
    ax = int(axis.asnumpy()) if hasattr(axis, "asnumpy") else int(axis)
    v = F.flip(x, (ax,)) if self.reverse else x
    out = CU.logcumsumexp(v, ax)
    if self.exclusive:
        n = x.shape[ax % x.ndim]
        head = F.fill(x.dtype, tuple(1 if i == ax % x.ndim else d
                                     for i, d in enumerate(x.shape)),
                      float(np.finfo(x.dtype.np_dtype).min))
        out = F.concat([head, F.narrow(out, ax, 0, n - 1)], ax)
    return F.flip(out, (ax,)) if self.reverse else out


def _bincount(self, array, size, weights):
    """Counts of ``array``'s values below ``size``, each weighted by ``weights``."""
    length = int(size.asnumpy()) if hasattr(size, "asnumpy") else int(size)
    hits = F.equal(F.expand_dims(array, 0),
                   F.reshape(F.cast(F.range(0, length, 1), array.dtype), (-1, 1)))
    return F.reduce_sum(F.mul(F.cast(hits, weights.dtype), weights), 1)


Einsum = _primitive("Einsum", (("equation", _REQUIRED),),
                    lambda self, *operands: EI.einsum(self.equation, *operands),
                    "Einstein summation over the operands (see ``ops.einsum``).")
Cdist = _primitive("Cdist", (("p", 2.0),), lambda self, x1, x2: DI.cdist(x1, x2, self.p),
                   "The p-norm distances between rows (see ``ops.cdist``).")
Cross = _primitive("Cross", (("dim", -65530),),
                   lambda self, x1, x2: PR.cross(x1, x2, None if self.dim == -65530
                                                 else self.dim),
                   "The cross product of 3-vectors (see ``ops.cross``).")
Addcdiv = _primitive("Addcdiv", (), lambda self, x, t1, t2, value: EL.addcdiv(x, t1, t2, value),
                     "``x + value * t1 / t2``.")
Addcmul = _primitive("Addcmul", (), lambda self, x, t1, t2, value: EL.addcmul(x, t1, t2, value),
                     "``x + value * t1 * t2``.")
Logit = _primitive("Logit", (("eps", -1.0),), lambda self, x: EL.logit(x, self.eps),
                   "``log(x / (1 - x))`` (see ``ops.logit``).")
GLU = _primitive("GLU", (("axis", -1),), lambda self, x: ACT.glu(x, self.axis),
                 "The gated linear unit (see ``ops.glu``).")
HSigmoid = _primitive("HSigmoid", (), lambda self, x: ACT.hardsigmoid(x),
                      "``relu6(x + 3) / 6``.")
Softsign = _primitive("Softsign", (), lambda self, x: ACT.softsign(x), "``x / (1 + |x|)``.")
LRN = _primitive("LRN", (("depth_radius", 5), ("bias", 1.0), ("alpha", 1.0), ("beta", 0.5),
                         ("norm_region", "ACROSS_CHANNELS")),
                 lambda self, x: NF.lrn(x, self.depth_radius, self.bias, self.alpha, self.beta,
                                        self.norm_region),
                 "Local response normalization (see ``ops.lrn``).")
MirrorPad = _primitive("MirrorPad", (("mode", "REFLECT"),),
                       lambda self, x, paddings: NF.mirror_pad(x, paddings, self.mode),
                       "Padding with the mirror image (see ``ops.mirror_pad``).")
Mvlgamma = _primitive("Mvlgamma", (("p", _REQUIRED),), lambda self, x: EL.mvlgamma(x, self.p),
                      "The multivariate log-gamma (see ``ops.mvlgamma``).")
Polar = _primitive("Polar", (), lambda self, r, theta: EL.polar(r, theta),
                   "Complex numbers from magnitudes and angles.")
SearchSorted = _primitive(
    "SearchSorted", (("dtype", mstype.int64), ("right", False)),
    lambda self, seq, values: SE.searchsorted(seq, values, right=self.right,
                                              out_int32=self.dtype == mstype.int32),
    "Insertion indices into sorted rows (see ``ops.searchsorted``).")
UniqueConsecutive = _primitive(
    "UniqueConsecutive", (("return_inverse", False), ("return_counts", False), ("dim", None)),
    lambda self, x: SE.unique_consecutive(x, True, True, self.dim),
    "The runs of equal elements, with each element's run and the run lengths.")
LogSpace = _primitive("LogSpace", (("steps", 10), ("base", 10), ("dtype", mstype.float32)),
                      lambda self, start, end: RA.logspace(start, end, self.steps, self.base,
                                                           dtype=self.dtype),
                      "``base ** linspace(start, end, steps)``.")
TrilIndices = _primitive("TrilIndices", (("row", _REQUIRED), ("col", _REQUIRED), ("offset", 0),
                                         ("dtype", mstype.int32)),
                         lambda self: DG.tril_indices(self.row, self.col, self.offset,
                                                      dtype=self.dtype),
                         "The coordinates of a lower triangle.")
TriuIndices = _primitive("TriuIndices", (("row", _REQUIRED), ("col", _REQUIRED), ("offset", 0),
                                         ("dtype", mstype.int32)),
                         lambda self: DG.triu_indices(self.row, self.col, self.offset,
                                                      dtype=self.dtype),
                         "The coordinates of an upper triangle.")
Bucketize = _primitive("Bucketize", (("boundaries", _REQUIRED),),
                       lambda self, x: SE.bucketize(x, self.boundaries, right=True),
                       "The number of ``boundaries`` at or below each element.")
Expand = _primitive("Expand", (), lambda self, x, shape: AO.expand(x, shape),
                    "``x`` broadcast to ``shape`` (a Tensor).")
IndexFill = _primitive("IndexFill", (), lambda self, x, dim, index, value: AO.index_fill(
    x, dim, index, value), "Slices at ``index`` along ``dim`` set to ``value``.")
MatrixDiagV3 = _primitive("MatrixDiagV3", (("align", "RIGHT_LEFT"),),
                          lambda self, x, k, rows, cols, pad: DG.matrix_diag(
                              x, k, rows, cols, pad, self.align),
                          "Matrices with the given diagonals (see ``ops.matrix_diag``).")
MatrixDiagPartV3 = _primitive("MatrixDiagPartV3", (("align", "RIGHT_LEFT"),),
                              lambda self, x, k, pad: DG.matrix_diag_part(x, k, pad, self.align),
                              "The diagonals of matrices (see ``ops.matrix_diag_part``).")
MatrixSetDiagV3 = _primitive("MatrixSetDiagV3", (("align", "RIGHT_LEFT"),),
                             lambda self, x, diagonal, k: DG.matrix_set_diag(x, diagonal, k,
                                                                             self.align),
                             "Matrices with diagonals replaced (see ``ops.matrix_set_diag``).")
Col2Im = _primitive("Col2Im", (("kernel_size", _REQUIRED), ("dilation", 1), ("padding", 0),
                               ("stride", 1)),
                    lambda self, x, output_size: UF.col2im(x, output_size, self.kernel_size,
                                                           self.dilation, self.padding,
                                                           self.stride),
                    "Columns summed back into images (see ``ops.col2im``).")
CumulativeLogsumexp = _primitive("CumulativeLogsumexp", (("exclusive", False),
                                                         ("reverse", False)),
                                 _cumulative_logsumexp, _cumulative_logsumexp.__doc__)
Bincount = _primitive("Bincount", (), _bincount, _bincount.__doc__)
Quantile = _primitive("Quantile", (("dim", None), ("keep_dims", False), ("ignore_nan", False)),
                      lambda self, x, q: (QU.nanquantile if self.ignore_nan else QU.quantile)(
                          x, q, self.dim, self.keep_dims),
                      "The q-th quantiles (see ``ops.quantile``).")

__all__ = ["Einsum", "Cdist", "Cross", "Addcdiv", "Addcmul", "Logit", "GLU", "HSigmoid",
           "Softsign", "LRN", "MirrorPad", "Mvlgamma", "Polar", "SearchSorted",
           "UniqueConsecutive", "LogSpace", "TrilIndices", "TriuIndices", "Bucketize", "Expand",
           "IndexFill", "MatrixDiagV3", "MatrixDiagPartV3", "MatrixSetDiagV3", "Col2Im",
           "CumulativeLogsumexp", "Bincount", "Quantile"]
Lerp = _primitive("Lerp", (), lambda self, start, end, weight: EL.lerp(start, end, weight),
                  "``start + weight * (end - start)`` (see ``ops.lerp``).")
__all__ += ["Lerp"]


def _resize_linear_1d(self, x, size):
    """``x`` (``(N, C, L)``) resized linearly to ``size`` (a 1-element Tensor): the ends
    pinned (``align_corners``) or the pixel centres aligned (``half_pixel``)."""
    mode = self.coordinate_transformation_mode
    if mode not in ("align_corners", "half_pixel"):
        raise RuntimeError(f"For 'ResizeLinear1D', coordinate_transformation_mode not "
                           f"support now: '{mode}' (CPU: 'align_corners', 'half_pixel').")
    n = size.asnumpy() if hasattr(size, "asnumpy") else size
    wide = F.cast(x, mstype.float32) if x.dtype == mstype.float16 else x  # (as MindSpore's)
    out = IP.interpolate(wide, size=tuple(int(v) for v in np.reshape(n, -1)), mode="linear",
                         align_corners=mode == "align_corners")
    return F.cast(out, x.dtype) if out.dtype != x.dtype else out


ResizeLinear1D = _primitive("ResizeLinear1D", (("coordinate_transformation_mode",
                                                "align_corners"),),
                            _resize_linear_1d, _resize_linear_1d.__doc__)
__all__ += ["ResizeLinear1D"]


def _sparse_tensor_dense_matmul(self, indices, values, sparse_shape, dense):
    """The COO matrix (``indices``, ``values``, ``sparse_shape``) times ``dense``, each
    transposed first (conjugated too, for complex values) when ``adjoint_st``/``adjoint_dt``."""
    dims = sparse_shape.asnumpy() if hasattr(sparse_shape, "asnumpy") else sparse_shape
    a = F.scatter_nd(indices, values, tuple(int(v) for v in np.reshape(dims, -1)))
    if self.adjoint_st:
        a = F.transpose(F.conj(a) if a.dtype.is_complex else a, (1, 0))
    if self.adjoint_dt:
        dense = F.transpose(F.conj(dense) if dense.dtype.is_complex else dense, (1, 0))
    return F.matmul(a, dense)


SparseTensorDenseMatmul = _primitive("SparseTensorDenseMatmul", (("adjoint_st", False),
                                                                  ("adjoint_dt", False)),
                                     _sparse_tensor_dense_matmul,
                                     _sparse_tensor_dense_matmul.__doc__)
__all__ += ["SparseTensorDenseMatmul"]


def _index_put(self, x1, x2, indices):
    """``x1`` with ``x1[indices] = x2`` (``+=`` when ``accumulate`` is 1; see
    ``Tensor.index_put``)."""
    if isinstance(self.accumulate, bool) or not isinstance(self.accumulate, int):
        raise TypeError(f"For 'IndexPut', 'accumulate' must be an int, but got "
                        f"{type(self.accumulate).__name__}.")
    if self.accumulate not in (0, 1):
        raise ValueError(f"For 'IndexPut', 'accumulate' must be 0 or 1, but got "
                         f"{self.accumulate}.")
    return IPUT.index_put(x1, indices, x2, bool(self.accumulate))


IndexPut = _primitive("IndexPut", (("accumulate", 0),), _index_put, _index_put.__doc__)
__all__ += ["IndexPut"]
