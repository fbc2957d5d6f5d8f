"""Tensor methods of MindSpore 2.10's API (``x.log2()``, ``x.tril()``, ``x.narrow()``...),
called inside a Cell's construct (a graph in GRAPH_MODE). Written against the ``mindspore``
API: ``fixtures/record.py tensor_methods`` runs them on real MindSpore,
``test_tensor_methods_recorded.py`` on graphkiln."""
import numpy as np


def _in_cell(ms, fn, *args):
    class Apply(ms.nn.Cell):
        def construct(self, *xs):
            return fn(*xs)
    return Apply()(*args)


def _t(ms, v, dtype=np.float32):
    return ms.Tensor(np.array(v, dtype))


_SPECIAL = [[1.5, -2.5, 0.0, -0.0], [np.inf, -np.inf, np.nan, 7.25]]
_M = np.arange(12, dtype=np.float32).reshape(3, 4) - 5.5


def log2_log10(ms):
    x = _t(ms, [1.0, 2.0, 8.0, 100.0])
    def apply(v):
        return (v.log2(), v.log10())
    return _in_cell(ms, apply, x)


def float_checks(ms):
    x = _t(ms, _SPECIAL)
    def apply(v):
        return (v.isnan(), v.isinf(), v.isfinite(), v.isposinf(), v.isneginf(), v.signbit())
    return _in_cell(ms, apply, x)


def int_checks(ms):
    x = _t(ms, [[1, -2], [0, 3]], np.int32)
    def apply(v):
        return (v.isnan(), v.isfinite())
    return _in_cell(ms, apply, x)


def trunc_frac(ms):
    x = _t(ms, [[1.75, -2.5], [0.25, -0.75]])
    def apply(v):
        return (v.trunc(), v.frac(), v.sgn())
    return _in_cell(ms, apply, x)


def erfc_sinc(ms):
    x = _t(ms, [-1.5, 0.0, 0.5, 2.0])
    def apply(v):
        return (v.erfc(), v.sinc())
    return _in_cell(ms, apply, x)


def hyperbolic_inverses(ms):
    x = _t(ms, [-0.5, 0.0, 0.25, 0.75])
    y = _t(ms, [1.0, 1.5, 3.0, 10.0])
    def apply(a, b):
        return (a.asinh(), a.atanh(), b.acosh(), a.arcsinh())
    return _in_cell(ms, apply, x, y)


def deg_rad(ms):
    x = _t(ms, [0.0, 90.0, -180.0])
    def apply(v):
        return (v.deg2rad(), v.rad2deg())
    return _in_cell(ms, apply, x)


def binary_math(ms):
    x = _t(ms, [[1.5, -2.0], [0.0, 3.0]])
    y = _t(ms, [[-1.0, 2.0], [-4.0, 0.5]])
    def apply(a, b):
        return (a.copysign(b), a.hypot(b), a.logaddexp(b), a.logaddexp2(b), a.xlogy(b.abs()),
                a.fmod(b), a.true_divide(b), a.lerp(b, 0.25))
    return _in_cell(ms, apply, x, y)


def float_power_int(ms):
    x = _t(ms, [1, 2, 3], np.int32)
    def apply(v):
        return v.float_power(2)
    return _in_cell(ms, apply, x)


def heaviside_values(ms):
    x = _t(ms, [-1.5, 0.0, 2.0])
    def apply(v, w):
        return v.heaviside(w)
    return _in_cell(ms, apply, x, _t(ms, [0.5, 0.5, 0.5]))


def fmax_nan(ms):
    x = _t(ms, [1.0, np.nan, 3.0, np.nan])
    y = _t(ms, [2.0, 5.0, np.nan, np.nan])
    def apply(a, b):
        return a.fmax(b)
    return _in_cell(ms, apply, x, y)


def hardshrink_default(ms):
    def apply(v):
        return v.hardshrink()
    return _in_cell(ms, apply, _t(ms, [-1.0, -0.5, 0.2, 0.6]))


def nan_to_num_defaults(ms):
    def apply(v):
        return (v.nan_to_num(), v.nan_to_num(1.0, 2.0, -2.0))
    return _in_cell(ms, apply, _t(ms, _SPECIAL))


def isclose_kwargs(ms):
    x = _t(ms, [1.0, 2.0, np.nan, np.inf])
    y = _t(ms, [1.0 + 1e-6, 2.1, np.nan, np.inf])
    def apply(a, b):
        return (a.isclose(b), a.isclose(b, rtol=0.1, equal_nan=True))
    return _in_cell(ms, apply, x, y)


def logsumexp_dims(ms):
    x = _t(ms, _M)
    def apply(v):
        return (v.logsumexp(1), v.logsumexp(0, True))
    return _in_cell(ms, apply, x)


def nansum_nanmean(ms):
    x = _t(ms, [[1.0, np.nan], [2.5, 4.0]])
    def apply(v):
        return (v.nansum(), v.nansum(axis=1, keepdims=True), v.nanmean(0))
    return _in_cell(ms, apply, x)


def count_nonzero_forms(ms):
    x = _t(ms, [[0, 2, 0], [1, 0, 3]], np.int32)
    def apply(v):
        return (v.count_nonzero(), v.count_nonzero(axis=1, keep_dims=True))
    return _in_cell(ms, apply, x)


def median_forms(ms):
    x = _t(ms, [[3.0, 1.0, 2.0, 5.0], [4.0, 4.0, 0.0, 1.0]])
    def apply(v):
        return (v.median(), v.median(axis=1), v.median(axis=0, keepdims=True))
    return _in_cell(ms, apply, x)


def tril_triu(ms):
    x = _t(ms, _M)
    def apply(v):
        return (v.tril(), v.tril(-1), v.triu(), v.triu(2))
    return _in_cell(ms, apply, x)


def flips(ms):
    x = _t(ms, _M)
    def apply(v):
        return (v.flip((0, 1)), v.fliplr(), v.flipud())
    return _in_cell(ms, apply, x)


def narrow_chunk(ms):
    x = _t(ms, np.arange(10).reshape(2, 5))
    def apply(v):
        return (v.narrow(1, 1, 3), v.chunk(2, 1), v.chunk(3))
    return _in_cell(ms, apply, x)


def split_forms(ms):
    x = _t(ms, np.arange(10).reshape(5, 2))
    def apply(v):
        return (v.split(2), v.split([1, 4]), v.tensor_split(3), v.tensor_split((1, 3)))
    return _in_cell(ms, apply, x)


def unbind_movedim(ms):
    x = _t(ms, np.arange(24).reshape(2, 3, 4))
    def apply(v):
        return (v.unbind(1), v.movedim(0, 2), v.moveaxis((0, 1), (2, 0)), v.swapdims(0, 2))
    return _in_cell(ms, apply, x)


def diagonal_trace(ms):
    x = _t(ms, np.arange(24).reshape(2, 3, 4))
    m = _t(ms, _M)
    def apply(v, w):
        return (v.diagonal(), v.diagonal(1, 1, 2), w.trace(), w.diagonal(-1))
    return _in_cell(ms, apply, x, m)


def index_select_take(ms):
    x = _t(ms, _M)
    idx = _t(ms, [2, 0], np.int32)
    def apply(v, i):
        return (v.index_select(1, i), v.index_select(0, i), v.take(_t(ms, [0, 5, 20], np.int64)))
    return _in_cell(ms, apply, x, idx)


def masked_fill_where(ms):
    x = _t(ms, [[1.0, 2.0], [3.0, 4.0]])
    mask = ms.Tensor(np.array([[True, False], [False, True]]))
    def apply(v, m):
        return (v.masked_fill(m, -1.0), v.where(m, 0.0))
    return _in_cell(ms, apply, x, mask)


def repeat_interleave_forms(ms):
    x = _t(ms, [[1, 2], [3, 4]], np.int32)
    def apply(v):
        return (v.repeat_interleave(2), v.repeat_interleave(2, 0), v.repeat_interleave([1, 2], 1))
    return _in_cell(ms, apply, x)


def select_forms(ms):
    x = _t(ms, _M)
    def apply(v):
        return (v.select(1, 2), v.select(0, -1))
    return _in_cell(ms, apply, x)


def scatter_forms(ms):
    x = _t(ms, np.zeros((3, 4)))
    idx = _t(ms, [[0, 1], [2, 0]], np.int64)
    src = _t(ms, [[1.0, 2.0], [3.0, 4.0]])
    def apply(v, i, s):
        return v.scatter(1, i, s)
    return _in_cell(ms, apply, x, idx, src)


def products(ms):
    a = _t(ms, np.arange(6).reshape(2, 3))
    b = _t(ms, np.arange(12).reshape(3, 4) / 4)
    v = _t(ms, [1.0, -1.0, 2.0])
    def apply(x, y, z):
        return (x.mm(y), z.outer(z), x.inner(x))
    return _in_cell(ms, apply, a, b, v)


def fused_products(ms):
    c = _t(ms, np.ones((2, 4)))
    a = _t(ms, np.arange(6).reshape(2, 3))
    b = _t(ms, np.arange(12).reshape(3, 4) / 4)
    ba = _t(ms, np.arange(12).reshape(2, 2, 3))
    bb = _t(ms, np.arange(24).reshape(2, 3, 4) / 8)
    def apply(o, x, y, p, q):
        return (o.addmm(x, y, beta=2, alpha=0.5), o.addbmm(p, q), o.baddbmm(p, q, alpha=2))
    return _in_cell(ms, apply, c, a, b, ba, bb)


def layout_queries(ms):
    x = _t(ms, np.arange(24).reshape(2, 3, 4))
    return (x.ndimension(), x.is_floating_point(), x.is_complex(), x.is_signed(),
            x.stride(), x.stride(1), x.storage_offset(), x.is_contiguous(),
            x.contiguous().shape)


def transposes(ms):
    x = _t(ms, np.arange(6).reshape(2, 3))
    def apply(v):
        return (v.t(), v.mT, v.H, v.adjoint())
    return _in_cell(ms, apply, x)


def casts(ms):
    x = _t(ms, [1.5, -2.0, 300.0])
    y = _t(ms, [1, 2], np.int64)
    def apply(v, w):
        return (v.short(), v.type_as(w), v.type(ms.int32))
    return _in_cell(ms, apply, x, y)


def type_name(ms):
    return _t(ms, [1.0]).type()


def new_tensors(ms):
    x = _t(ms, [1, 2], np.int32)
    def apply(v):
        return (v.new_zeros((2, 3)), v.new_ones((1, 2), ms.float32))
    return _in_cell(ms, apply, x)


def diff_forms(ms):
    x = _t(ms, [[1.0, 4.0, 9.0, 16.0], [2.0, 3.0, 5.0, 8.0]])
    def apply(v):
        return (v.diff(), v.diff(1, 0), v.diff(axis=0))
    return _in_cell(ms, apply, x)


def slice_select_scatter(ms):
    x = _t(ms, np.zeros((3, 4)))
    row = _t(ms, [1.0, 2.0, 3.0, 4.0])
    block = _t(ms, np.ones((3, 2)))
    def apply(v, r, b):
        return (v.select_scatter(r, 0, 1), v.slice_scatter(b, 1, 0, 4, 2))
    return _in_cell(ms, apply, x, row, block)


def argwhere_msort(ms):
    x = _t(ms, [[0.0, 3.0], [2.0, 0.0], [1.0, 5.0]])
    def apply(v):
        return (v.argwhere(), v.msort())
    return _in_cell(ms, apply, x)


def sum_positional_dtype(ms):
    x = _t(ms, [[1.0, 2.0], [3.0, 4.0]])
    def apply(v):
        return (v.sum(1, ms.int32, True), v.sum(0, True))
    return _in_cell(ms, apply, x)


def max_min_forms(ms):
    x = _t(ms, [[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]])
    def apply(v):
        return (v.max(), v.max(axis=1), v.max(dim=0), v.min(0, True),
                v.min(axis=1, return_indices=True))
    return _in_cell(ms, apply, x)


def arg_extremum_forms(ms):
    x = _t(ms, [[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]])
    def apply(v):
        return (v.argmax(), v.argmax(axis=1, keepdims=True), v.argmin(axis=0))
    return _in_cell(ms, apply, x)


def flatten_forms(ms):
    x = _t(ms, np.arange(24).reshape(2, 3, 4))
    def apply(v):
        return (v.flatten(), v.flatten(1), v.flatten(start_dim=0, end_dim=1), v.flatten(order='F'))
    return _in_cell(ms, apply, x)


def add_sub_alpha(ms):
    x = _t(ms, [1.0, 2.0])
    y = _t(ms, [3.0, 5.0])
    def apply(a, b):
        return (a.add(b, alpha=2), a.sub(b, alpha=0.5))
    return _in_cell(ms, apply, x, y)


def div_rounding(ms):
    x = _t(ms, [7.0, -7.0, 5.0])
    y = _t(ms, [2.0, 2.0, -3.0])
    def apply(a, b):
        return (a.div(b, rounding_mode='floor'), a.divide(b, rounding_mode='trunc'),
                a.remainder(divisor=b))
    return _in_cell(ms, apply, x, y)


def var_std_forms(ms):
    x = _t(ms, [[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]])
    def apply(v):
        return (v.var(), v.var(axis=1, ddof=1), v.var(0, 0, True), v.std(axis=0))
    return _in_cell(ms, apply, x)


def any_all_dim(ms):
    x = ms.Tensor(np.array([[True, False], [True, True]]))
    def apply(v):
        return (v.any(dim=1), v.all(dim=0, keepdim=True))
    return _in_cell(ms, apply, x)


def sort_dim(ms):
    x = _t(ms, [[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    def apply(v):
        return v.sort(axis=0, descending=True)
    return _in_cell(ms, apply, x)


def expand_as_keyword(ms):
    x = _t(ms, [1.0, 2.0])
    y = _t(ms, np.zeros((3, 2)))
    def apply(a, b):
        return a.expand_as(x=b)
    return _in_cell(ms, apply, x, y)


def tril_rank_error(ms):
    return _t(ms, [1.0, 2.0]).tril()


tril_rank_error.phrase = "rank must be greater than or equal to 2"


def dot_matrices(ms):
    a = _t(ms, np.arange(6).reshape(2, 3))
    b = _t(ms, np.arange(24).reshape(2, 3, 4))
    return a.dot(b)


def masked_fill_mask_error(ms):
    return _t(ms, [1.0, 2.0]).masked_fill(_t(ms, [1, 0], np.int32), 0.0)


masked_fill_mask_error.phrase = "mask"


def chunk_zero_error(ms):
    return _t(ms, [1.0, 2.0]).chunk(0)


chunk_zero_error.phrase = "must be greater than 0"


def flatten_start_end(ms):
    x = _t(ms, np.arange(24).reshape(2, 3, 4))

    def apply(v):
        return v.flatten(1, 2)
    return _in_cell(ms, apply, x)


def is_tensor_values(ms):
    return ms.is_tensor(_t(ms, [1.0])), ms.is_tensor([1.0])


def clamp_bool_error(ms):
    return _t(ms, [1.0, 2.0]).clamp(1, True)


clamp_bool_error.phrase = "must not be bool"

CASES = [flatten_start_end, is_tensor_values, clamp_bool_error,
         log2_log10, float_checks, int_checks, trunc_frac, erfc_sinc, hyperbolic_inverses,
         deg_rad, binary_math, float_power_int, heaviside_values, fmax_nan, hardshrink_default,
         nan_to_num_defaults, isclose_kwargs, logsumexp_dims, nansum_nanmean,
         count_nonzero_forms, median_forms, tril_triu, flips, narrow_chunk, split_forms,
         unbind_movedim, diagonal_trace, index_select_take, masked_fill_where,
         repeat_interleave_forms, select_forms, scatter_forms, products, fused_products,
         layout_queries, transposes, casts, type_name, new_tensors, diff_forms,
         slice_select_scatter, argwhere_msort, sum_positional_dtype, max_min_forms,
         arg_extremum_forms, flatten_forms, add_sub_alpha, div_rounding, var_std_forms,
         any_all_dim, sort_dim, expand_as_keyword, tril_rank_error, dot_matrices,
         masked_fill_mask_error, chunk_zero_error]
