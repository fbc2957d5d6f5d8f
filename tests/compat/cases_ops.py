"""Primitives as MindSpore users call them (``P.<Name>(init args)(inputs)``), run eagerly and
inside a Cell's construct. Written against the ``mindspore`` API: ``fixtures/record.py ops``
runs them on real MindSpore, ``test_ops_recorded.py`` on graphkiln."""
import numpy as np


def _in_cell(ms, fn, *args):
    """``fn(*args)`` inside a Cell's construct (a graph in GRAPH_MODE)."""
    class Apply(ms.nn.Cell):
        def construct(self, *xs):
            return fn(*xs)
    return Apply()(*args)


def _t(ms, v, dtype=np.float32):
    return ms.Tensor(np.array(v, dtype))


def real_div_int(ms):
    from mindspore.ops import operations as P
    return _in_cell(ms, P.RealDiv(), _t(ms, [3, -3, 7], np.int32), _t(ms, [2, 2, 3], np.int32))


def real_div_float(ms):
    from mindspore.ops import operations as P
    return _in_cell(ms, P.RealDiv(), _t(ms, [3, -3, 7], np.int32), _t(ms, [2., 4., 8.]))


def tensor_add_legacy(ms):
    from mindspore.ops import operations as P
    return _in_cell(ms, P.TensorAdd(), _t(ms, [1., 2.]), _t(ms, [3., 4.]))


def reduce_sum_keep_dims(ms):
    from mindspore.ops import operations as P
    return _in_cell(ms, P.ReduceSum(keep_dims=True), _t(ms, [[1., 2.], [3., 4.]]), 1)


def matmul_transpose_b(ms):
    from mindspore.ops import operations as P
    x = _t(ms, np.arange(6).reshape(2, 3))
    return _in_cell(ms, P.MatMul(transpose_b=True), x, x)


def reciprocal_int(ms):
    return _in_cell(ms, ms.ops.Reciprocal(), _t(ms, [1, 2, 4], np.int32))


def sign_floor_etc(ms):
    x = _t(ms, [-1.5, 0.0, 2.5, 0.49])
    return tuple(_in_cell(ms, op, x) for op in (
        ms.ops.Sign(), ms.ops.Floor(), ms.ops.Ceil(), ms.ops.Round(), ms.ops.Log1p(),
        ms.ops.Expm1(), ms.ops.Atan(), ms.ops.Sinh(), ms.ops.Cosh()))


def top_k(ms):
    x = _t(ms, [[1., 5., 3., 5.], [7., 2., 9., 0.]])
    return _in_cell(ms, ms.ops.TopK(sorted=True), x, 2)


def top_k_int(ms):
    return _in_cell(ms, ms.ops.TopK(), _t(ms, [4, 1, 4, 9], np.int32), 3)


def slice_op(ms):
    x = _t(ms, np.arange(24).reshape(2, 3, 4))
    return _in_cell(ms, ms.ops.Slice(), x, (0, 1, 1), (2, -1, 2))


def flatten_op(ms):
    return _in_cell(ms, ms.ops.Flatten(), _t(ms, np.arange(24).reshape(2, 3, 4)))


def gather_nd(ms):
    x = _t(ms, np.arange(12).reshape(3, 4))
    return _in_cell(ms, ms.ops.GatherNd(), x, _t(ms, [[0, 1], [2, 3], [1, 0]], np.int32))


def scatter_nd(ms):
    return _in_cell(ms, ms.ops.ScatterNd(), _t(ms, [[1], [3], [1]], np.int32),
                    _t(ms, [[1., 2.], [3., 4.], [5., 6.]]), (4, 2))


def tensor_scatter_family(ms):
    x = _t(ms, np.arange(8).reshape(4, 2) + 1.0)
    idx = _t(ms, [[0], [2]], np.int32)
    upd = _t(ms, [[2., -1.], [10., 0.5]])
    return tuple(_in_cell(ms, getattr(ms.ops, f"TensorScatter{k}")(), x, idx, upd)
                 for k in ("Update", "Add", "Sub", "Mul", "Div", "Max", "Min"))


def _weight_net(ms, op_name, idx, upd):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.arange(8).reshape(4, 2) + 1.0, ms.float32),
                                  name="w")
            self.op = getattr(ms.ops, op_name)()

        def construct(self, i, u):
            self.op(self.w, i, u)
            self.op(self.w, i, u)
            return self.w + 0
    net = Net()
    out = net(idx, upd)
    return out, net.w


def scatter_in_place_family(ms):
    idx = _t(ms, [0, 2, 0], np.int32)
    upd = _t(ms, [[2., -1.], [3., 0.5], [1., 1.]])
    return tuple(_weight_net(ms, f"Scatter{k}", idx, upd)
                 for k in ("Add", "Sub", "Mul", "Div", "Max", "Min"))


def scatter_update_in_place(ms):
    return _weight_net(ms, "ScatterUpdate", _t(ms, [1, 3], np.int32),
                       _t(ms, [[2., -1.], [3., 0.5]]))


def scatter_nd_in_place_family(ms):
    idx = _t(ms, [[0, 1], [3, 0], [0, 1]], np.int32)
    upd = _t(ms, [5., 6., 7.])
    return tuple(_weight_net(ms, f"ScatterNd{k}", idx, upd)
                 for k in ("Add", "Sub", "Mul", "Div", "Max", "Min", "Update"))


def scatter_nd_div_integers(ms):
    """Truncating, and saturating by zero (MindSpore's CPU kernel)."""
    out = []
    for dtype in (np.int32, np.int8, np.uint8):
        x, upd = (np.array(v).astype(dtype) for v in ([-7, 7, -2, 5, 0, 3, 9],
                                                      [2, -2, 0, 0, 0, 2, 2, 2]))
        w = ms.Parameter(ms.Tensor(x), name="w")
        idx = _t(ms, [[0], [1], [2], [3], [4], [5], [6], [6]], np.int32)
        ms.ops.ScatterNdDiv()(w, idx, ms.Tensor(upd))
        out.append(w + 0)
    return tuple(out)


def shape_dtype_rank(ms):
    x = _t(ms, np.ones((2, 3)))

    def describe(x):
        return ms.ops.Shape()(x), ms.ops.Rank()(x), ms.ops.Size()(x), \
            ms.ops.DType()(x) == ms.float32
    return _in_cell(ms, describe, x)


def assign_family(ms):
    from mindspore.ops import operations as P

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.ones((2, 2)), ms.float32), name="w")
            self.add, self.sub, self.set = P.AssignAdd(), P.AssignSub(), P.Assign()

        def construct(self, x):
            self.add(self.w, x)
            a = self.w * 1
            self.sub(self.w, x * 3)
            b = self.w * 1
            self.set(self.w, x + 10)
            return a, b, self.w * 1
    return Net()(_t(ms, [[1., 2.], [3., 4.]]))


def int32_sum_dtypes(ms):
    x = _t(ms, [1, 2, 3], np.int32)
    return x.sum(), ms.ops.sum(x), ms.ops.ReduceSum()(x), x.sum(0), \
        _t(ms, [1, 2], np.int8).sum(), _t(ms, [True, False], np.bool_).sum()


def clip_by_value(ms):
    return ms.ops.clip_by_value(_t(ms, [-2., 0.5, 3.]), _t(ms, -1.), _t(ms, 2.))


def functional_topk_smallest(ms):
    return ms.ops.topk(_t(ms, [[3., 1., 2.], [0., 5., 4.]]), 2, dim=0, largest=False)


CASES = [real_div_int, real_div_float, tensor_add_legacy, reduce_sum_keep_dims,
         matmul_transpose_b, reciprocal_int, sign_floor_etc, top_k, top_k_int, slice_op,
         flatten_op, gather_nd, scatter_nd, tensor_scatter_family, scatter_in_place_family,
         scatter_update_in_place, scatter_nd_in_place_family, scatter_nd_div_integers,
         shape_dtype_rank, assign_family,
         int32_sum_dtypes, clip_by_value, functional_topk_smallest]
