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
import graphkiln.ops.linalg_ops as LA
import graphkiln.ops.moments as MO
import graphkiln.ops.nn_functions as NF
import graphkiln.ops.pooling as PL
import graphkiln.ops.pooling_functions as PO
import graphkiln.ops.products as PR
import graphkiln.ops.quantiles as QU
import graphkiln.ops.ranges as RA
import graphkiln.ops.searching as SE
import graphkiln.ops.unfold as UF

from ..common import dtype as mstype
from ..common.tensor import Tensor
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
Col2Im = _primitive("Col2Im", (("kernel_size", _REQUIRED), ("dilation", 1), ("padding", 0),
                               ("stride", 1)),
                    lambda self, x, output_size: UF.col2im(x, output_size, self.kernel_size,
                                                           self.dilation, self.padding,
                                                           self.stride),
                    "Columns summed back into images (see ``ops.col2im``).")
Im2Col = _primitive("Im2Col", (("ksizes", _REQUIRED), ("strides", 1), ("dilations", 1),
                               ("pads", 0)),
                    lambda self, x: UF.im2col(x, self.ksizes, self.strides, self.dilations,
                                              self.pads),
                    "The blocks of images as columns (N, C, kh * kw, L).")
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
           "IndexFill", "Col2Im",
           "Im2Col", "CumulativeLogsumexp", "Bincount", "Quantile"]
Lerp = _primitive("Lerp", (), lambda self, start, end, weight: EL.lerp(start, end, weight),
                  "``start + weight * (end - start)`` (see ``ops.lerp``).")
__all__ += ["Lerp"]


def _sparse_tensor_dense_matmul(self, indices, values, sparse_shape, dense):
    """The COO matrix (``indices``, ``values``, ``sparse_shape``) times ``dense``, each
    transposed first (conjugated too, for complex values) when ``adjoint_st``/``adjoint_dt``."""
    if isinstance(sparse_shape, Tensor):  # its values may be known only when a graph runs
        a = F.tensor_scatter_add(F.zeros(sparse_shape, values.dtype), indices, values)
    else:
        a = F.scatter_nd(indices, values, tuple(int(v) for v in np.reshape(sparse_shape, -1)))
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
NanToNum = _primitive("NanToNum", (("nan", None), ("posinf", None), ("neginf", None)),
                      lambda self, x: EL.nan_to_num(x, self.nan, self.posinf, self.neginf),
                      "NaN and the infinities replaced (see ``ops.nan_to_num``).")
__all__ += ["NanToNum"]


def _reduce_std(self, x):
    """``(std, mean)`` over ``axis`` (every axis when empty), Bessel-corrected when
    ``unbiased``."""
    axis = None if self.axis in ((), []) else self.axis
    return MO.std_mean(x, axis, 1 if self.unbiased else 0, self.keep_dims)


ReduceStd = _primitive("ReduceStd", (("axis", ()), ("unbiased", True), ("keep_dims", False)),
                       _reduce_std, _reduce_std.__doc__)
CholeskyInverse = _primitive("CholeskyInverse", (("upper", False),),
                             lambda self, x: LA.cholesky_inverse(x, self.upper),
                             "The inverse of ``u @ u^T`` from its Cholesky factor (see "
                             "``ops.cholesky_inverse``).")
CholeskySolve = _primitive("CholeskySolve", (("upper", False),),
                           lambda self, x1, x2: LA.cholesky_solve(x1, x2, self.upper),
                           "The solution of ``A X = x1`` from the Cholesky factor ``x2`` of "
                           "``A`` (see ``ops.cholesky_solve``).")
__all__ += ["ReduceStd", "CholeskyInverse", "CholeskySolve"]
Triu = _primitive("Triu", (("diagonal", 0),), lambda self, x: AO.triu(x, self.diagonal),
                  "The upper triangle from ``diagonal`` on (see ``ops.triu``).")
IsClose = _primitive("IsClose", (("rtol", 1e-05), ("atol", 1e-08), ("equal_nan", False)),
                     lambda self, x, other: EL.isclose(x, other, self.rtol, self.atol,
                                                       self.equal_nan),
                     "``|input - other| <= atol + rtol * |other|`` (see ``ops.isclose``).")
__all__ += ["Triu", "IsClose"]
def _adaptive_max_pool2d(self, x):
    """``(output, argmax)`` of the adaptive max pooling to ``output_size``, a tuple or list
    of ints (see ``ops.adaptive_max_pool2d``)."""
    size = self.output_size
    if not isinstance(size, (tuple, list)) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in size):
        raise TypeError(f"For 'AdaptiveMaxPool2D', the type of 'output_size' should be one of "
                        f"'[list of int, tuple of int]', but got {size!r}.")
    return PO.adaptive_max_pool2d(x, tuple(size), True)


AdaptiveMaxPool2D = _primitive("AdaptiveMaxPool2D", (("output_size", _REQUIRED),),
                               _adaptive_max_pool2d, _adaptive_max_pool2d.__doc__)


def _upsample_trilinear_3d(self, x, output_size=None, scales=None):
    """``x`` (NCDHW) resized trilinearly to ``output_size`` or by ``scales``."""
    return IP.interpolate(x, None if output_size is None else tuple(output_size),
                          None if scales is None else tuple(scales), "trilinear",
                          self.align_corners)


UpsampleTrilinear3D = _primitive("UpsampleTrilinear3D", (("align_corners", False),),
                                 _upsample_trilinear_3d, _upsample_trilinear_3d.__doc__)
__all__ += ["AdaptiveMaxPool2D", "UpsampleTrilinear3D"]


def _adaptive_avg_pool3d(self, x):
    """The average over ``output_size`` bins of the last three axes (see
    ``ops.adaptive_avg_pool3d``; -1 in ``output_size`` keeps that size)."""
    return PO.adaptive_avg_pool3d(x, tuple(None if v == -1 else v for v in self.output_size))


class AdaptiveAvgPool3D(_primitive("AdaptiveAvgPool3D", (("output_size", _REQUIRED),),
                                   _adaptive_avg_pool3d, _adaptive_avg_pool3d.__doc__)):
    def __init__(self, output_size):
        if isinstance(output_size, bool) or not isinstance(output_size, (int, tuple)):
            raise TypeError(f"For 'AdaptiveAvgPool3D', the type of 'output_size' should be "
                            f"one of '['int', 'tuple']', but got type "
                            f"'{type(output_size).__name__}'.")
        sizes = (output_size,) * 3 if isinstance(output_size, int) else output_size
        super().__init__(tuple(-1 if v is None else v for v in sizes))


__all__ += ["AdaptiveAvgPool3D"]
ResizeBicubic = _primitive(
    "ResizeBicubic", (("align_corners", False), ("half_pixel_centers", False)),
    lambda self, images, size: IP.resize_bicubic(images, size, self.align_corners,
                                                 self.half_pixel_centers),
    "NCHW ``images`` resized bicubically to ``size`` (see ``interpolation.resize_bicubic``).")
__all__ += ["ResizeBicubic"]


def _split_with_size(self, input, split_size, dim=0):  # noqa: A002
    """``input`` cut along ``dim`` into pieces of the sizes listed in ``split_size`` (which
    must add up to that axis)."""
    if not isinstance(split_size, (tuple, list)):
        raise TypeError(f"For 'SplitWithSize', the 'split_size' must be a tuple or list of "
                        f"ints, but got {type(split_size).__name__}.")
    return F.split(input, list(split_size), dim)


SplitWithSize = _primitive("SplitWithSize", (), _split_with_size, _split_with_size.__doc__)
__all__ += ["SplitWithSize"]


def _div_no_nan(self, x1, x2):
    """``x1 / x2``, 0 where ``x2`` is 0 (the division is by 1 there, so gradients stay
    finite)."""
    zero = F.equal(x2, F.zeros_like(x2))
    quotient = F.div(x1, F.select(zero, F.ones_like(x2), x2))
    return F.select(F.broadcast_to(zero, quotient.shape), F.zeros_like(quotient), quotient)


def _equal_count(self, x, y):
    """How many elements of ``x`` and ``y`` are equal, as a 1-element Tensor of their
    dtype."""
    return F.reshape(F.reduce_sum(F.cast(F.equal(x, y), x.dtype)), (1,))


DivNoNan = _primitive("DivNoNan", (), _div_no_nan, _div_no_nan.__doc__)
L2Loss = _primitive("L2Loss", (), lambda self, x: F.mul(F.reduce_sum(F.mul(x, x)), 0.5),
                    "Half the sum of the squares of ``x``, a 0-D Tensor.")
ConjugateTranspose = _primitive(
    "ConjugateTranspose", (), lambda self, x, perm: F.transpose(F.conj(x), perm)
    if x.dtype.is_complex else F.transpose(x, perm),
    "The conjugate of ``x`` with its axes permuted by ``perm``.")
EqualCount = _primitive("EqualCount", (), _equal_count, _equal_count.__doc__)
Tril = _primitive("Tril", (("diagonal", 0),), lambda self, x: AO.tril(x, self.diagonal),
                  "The lower triangle up to ``diagonal`` (see ``ops.tril``).")
__all__ += ["DivNoNan", "L2Loss", "ConjugateTranspose", "EqualCount", "Tril"]


def _in_top_k(self, x1, x2):
    """Whether each row's score of its target class ``x2[i]`` is among the row's ``k``
    largest (ties with the k-th count in)."""
    target = F.gather_d(x1, 1, F.expand_dims(F.cast(x2, mstype.int64), 1))
    above = F.reduce_sum(F.cast(F.greater(x1, target), mstype.int32), 1)
    return F.less(above, self.k)


Xlogy = _primitive("Xlogy", (), lambda self, x, y: EL.xlogy(x, y),
                   "``x * log(y)``, 0 where ``x`` is 0 (see ``ops.xlogy``).")
ComplexAbs = _primitive("ComplexAbs", (), lambda self, x: F.real(F.abs(x)),
                        "The modulus of each complex element (a real Tensor).")
Diag = _primitive("Diag", (), lambda self, x: AO.diag(x),
                  "The tensor with ``x`` on its diagonal (see ``ops.diag``).")
Rint = _primitive("Rint", (), lambda self, x: F.round(x),
                  "Each element rounded to the nearest integer, halves to even.")
InTopK = _primitive("InTopK", (("k", _REQUIRED),), _in_top_k, _in_top_k.__doc__)
__all__ += ["Xlogy", "ComplexAbs", "Diag", "Rint", "InTopK"]


def _lp_norm(self, x):
    """The p-norm over ``axis`` (p = 0: how many elements are not 0)."""
    axis = tuple(self.axis) if isinstance(self.axis, (tuple, list)) else (self.axis,)
    p = self.p
    if p == 0:
        return F.reduce_sum(F.cast(F.not_equal(x, F.zeros_like(x)), x.dtype), axis,
                            self.keep_dims)
    total = F.reduce_sum(F.pow(F.abs(x), float(p)), axis, self.keep_dims)
    return total if p == 1 else F.pow(total, 1.0 / p)


_FILL_DIAGONAL_TYPES = frozenset(("Float16", "Float32", "Float64", "Int8", "Int16", "Int32",
                                  "Int64", "UInt8"))


def _fill_diagonal(self, x):
    """``x`` with ``fill_value`` on its main diagonal (all axes of one size beyond two;
    ``wrap``: a tall matrix's diagonal starts again every ``columns + 1`` rows, as NumPy's
    ``fill_diagonal``)."""
    if not isinstance(self.fill_value, float):
        raise TypeError(f"For 'FillDiagonal', the 'fill_value' must be a float, but got "
                        f"{type(self.fill_value).__name__}.")
    if not isinstance(self.wrap, bool):
        raise TypeError(f"For 'FillDiagonal', the 'wrap' must be a bool, but got "
                        f"{type(self.wrap).__name__}.")
    if str(x.dtype) not in _FILL_DIAGONAL_TYPES:
        raise TypeError(f"For 'FillDiagonal', the input must be float16, float32, float64, "
                        f"int8, int16, int32, int64 or uint8, but got {x.dtype}.")
    shape = tuple(x.shape)
    if len(shape) < 2 or (len(shape) > 2 and len(set(shape)) != 1):
        raise ValueError(f"For 'FillDiagonal', the input must be at least 2-D, with all "
                         f"dimensions of equal length beyond 2-D, but got shape {list(shape)}.")
    mask = np.zeros(shape, np.bool_)
    np.fill_diagonal(mask, True, wrap=bool(self.wrap))
    return F.select(Tensor(mask), F.fill(x.dtype, shape, self.fill_value), x)


LpNorm = _primitive("LpNorm", (("axis", _REQUIRED), ("p", 2), ("keep_dims", False),
                               ("epsilon", 1e-12)), _lp_norm, _lp_norm.__doc__)
FillDiagonal = _primitive("FillDiagonal", (("fill_value", _REQUIRED), ("wrap", False)),
                          _fill_diagonal, _fill_diagonal.__doc__)
__all__ += ["LpNorm", "FillDiagonal"]


def _pair(name: str, value) -> tuple[int, int]:
    """An int, a pair or a 4-tuple ``(1, 1, h, w)`` as ``(h, w)``."""
    values = (value, value) if isinstance(value, int) else tuple(value)[-2:]
    if len(values) != 2 or not all(isinstance(v, int) and v > 0 for v in values):
        raise ValueError(f"For 'MaxPoolWithArgmax', the '{name}' must be a positive int or a "
                         f"tuple of positive ints, but got {value!r}.")
    return values


def _max_pool_with_argmax(self, x):
    """``(output, argmax)``: the max pooling of NCHW ``x`` and, per output, the flat index
    ``c * H * W + h * W + w`` of the maximum within its example (int32); ``'same'`` pads
    with -inf as TensorFlow (the extra row or column at the end)."""
    if self.data_format != "NCHW":
        raise ValueError(f"For 'MaxPoolWithArgmax', graphkiln supports data_format 'NCHW' on "
                         f"the CPU, but got {self.data_format!r}.")
    mode = str(self.pad_mode).lower()
    if mode not in ("valid", "same"):
        raise ValueError(f"For 'MaxPoolWithArgmax', the 'pad_mode' must be 'valid' or 'same', "
                         f"but got {self.pad_mode!r}.")
    kernel, stride = _pair("kernel_size", self.kernel_size), _pair("strides", self.strides)
    _, c, h, w = x.shape
    if h < 0 or w < 0:
        raise ValueError(f"For 'MaxPoolWithArgmax', graphkiln needs the height and width of "
                         f"'x' known when the graph compiles, but got shape {list(x.shape)}.")
    pads = []
    for n, k, s in ((h, kernel[0], stride[0]), (w, kernel[1], stride[1])):
        total = max((-(-n // s) - 1) * s + k - n, 0) if mode == "same" else 0
        pads.append((total // 2, total - total // 2))
    padded = x if not any(sum(p) for p in pads) else F.pad(
        x, (pads[1][0], pads[1][1], pads[0][0], pads[0][1]), value=float("-inf"))
    out, index = PL.max_pool2d(padded, kernel, stride, 0, return_indices=True)
    wp = w + sum(pads[1])
    row = F.sub(F.floor_div(index, wp), pads[0][0])
    col = F.sub(F.floor_mod(index, wp), pads[1][0])
    if c >= 0:
        channel = Tensor(np.arange(c, dtype=np.int64).reshape(1, c, 1, 1) * (h * w))
    else:  # the channels are known when the graph runs: 0, 1, ... counted along axis 1
        ones = F.ones_like(index[:1, :, :1, :1])
        channel = F.mul(F.sub(CU.cumsum(ones, 1), ones), h * w)
    argmax = F.add(F.add(F.mul(row, w), col), channel)
    return out, F.cast(argmax, mstype.int32)


MaxPoolWithArgmax = _primitive(
    "MaxPoolWithArgmax", (("kernel_size", 1), ("strides", 1), ("pad_mode", "valid"),
                          ("data_format", "NCHW")),
    _max_pool_with_argmax, _max_pool_with_argmax.__doc__)
__all__ += ["MaxPoolWithArgmax"]


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
