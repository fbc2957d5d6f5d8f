"""MindSpore's module layout, ``mindspore.numpy``, HyperMap over mixed elements and its
argument errors, jit of a Cell. Written against the ``mindspore`` API: recorded on MindSpore
by ``fixtures/record.py api``, run on graphkiln by ``test_api_recorded.py``. A case with a
``phrase`` raises on both, and both messages contain it."""
import numpy as np


def layout_imports(ms):
    from mindspore import mutable  # noqa: F401
    from mindspore.common import Parameter, ParameterTuple, Tensor, dtype  # noqa: F401
    from mindspore.common.api import jit  # noqa: F401
    from mindspore.common.initializer import Normal, TruncatedNormal, initializer  # noqa: F401
    from mindspore.ops import composite as C  # noqa: F401
    from mindspore.ops import functional as F
    from mindspore.ops import operations as P
    from mindspore.ops.operations import math_ops, nn_ops  # noqa: F401
    from mindspore.ops.primitive import constexpr  # noqa: F401
    x = ms.Tensor(np.array([[1., 2.], [3., 4.]], np.float32))
    return (P.Add()(x, x), math_ops.MatMul(transpose_b=True)(x, x), nn_ops.ReLU()(x - 2),
            F.partial(F.mul, x)(2.0), ms.ops.partial(P.Sub(), x)(x), F.shape(x), F.dtype(x) ==
            ms.float32, F.tuple_to_array((1, 2, 3)), F.stop_gradient(x),
            initializer(Normal(), [2, 3]).shape, initializer("ones", (2,), ms.int32))


def mnp_basics(ms):
    import mindspore.numpy as mnp
    x = mnp.arange(6).reshape(2, 3).astype("float32")
    return (mnp.arange(5), mnp.arange(0., 1., 0.25), mnp.array([1, 2]), mnp.zeros((2,)),
            mnp.full((2,), 3), mnp.linspace(0, 1, 5), mnp.dot(x, mnp.ones((3,))),
            mnp.stack([x, x]), mnp.concatenate([x, x], axis=1), mnp.sum(x),
            mnp.mean(x, axis=0), mnp.where(x > 2, x, 0), mnp.eye(2),
            mnp.sum(mnp.arange(3)))


def _hyper_map_add(ms, x, y):
    from mindspore.ops import composite as C

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.hyper_map = C.HyperMap()
            self.add = ms.ops.Add()

        def construct(self, a, b):
            return self.hyper_map(self.add, a, b)
    return Net()(x, y)


def _t(ms):
    return ms.Tensor(np.array([1.5, 2.5], np.float32))


def hyper_map_mixed_elements(ms):
    return _hyper_map_add(ms, (_t(ms), _t(ms) * 2), (_t(ms), _t(ms)))[1]


def hyper_map_tuple_and_list(ms):
    return _hyper_map_add(ms, (_t(ms), _t(ms)), [_t(ms), _t(ms)])


hyper_map_tuple_and_list.phrase = "the types of arguments in HyperMap must be consistent"


def hyper_map_tuple_lengths(ms):
    return _hyper_map_add(ms, (_t(ms), _t(ms)), (_t(ms),))


hyper_map_tuple_lengths.phrase = "The tuples in HyperMap should have the same length"


def hyper_map_list_lengths(ms):
    return _hyper_map_add(ms, [_t(ms)], [_t(ms), _t(ms)])


hyper_map_list_lengths.phrase = "The lists in HyperMap should have the same length"


def jit_of_a_cell(ms):
    class Net(ms.nn.Cell):
        def construct(self, x):
            return x * 2 + 1
    return ms.jit(Net())(_t(ms))


def matmul_p_shape_error(ms):
    x = ms.Tensor(np.ones((2, 3), np.float32))
    return _in_cell(ms, ms.ops.MatMul(), x, x)


matmul_p_shape_error.phrase = "MatMul"


def _in_cell(ms, fn, *args):
    class Apply(ms.nn.Cell):
        def construct(self, *xs):
            return fn(*xs)
    return Apply()(*args)


def matmul_functional_shape_error(ms):
    x = ms.Tensor(np.ones((2, 3), np.float32))
    return _in_cell(ms, ms.ops.matmul, x, x)


matmul_functional_shape_error.phrase = "shape1[-1] must be equal to shape2[-2]"


def scatter_add_shape_error(ms):
    w = ms.Parameter(ms.Tensor(np.zeros((3, 2), np.float32)), name="w")
    return ms.ops.ScatterAdd()(w, ms.Tensor(np.array([0], np.int32)),
                               ms.Tensor(np.ones((2, 2), np.float32)))


scatter_add_shape_error.phrase = "updates_shape = indices_shape + input_x_shape[1:]"


def assign_shape_error(ms):
    w = ms.Parameter(ms.Tensor(np.zeros((3, 2), np.float32)), name="w")
    return ms.ops.Assign()(w, ms.Tensor(np.ones((3, 3), np.float32)))


assign_shape_error.phrase = "must have the same shape as 'variable'"


CASES = [layout_imports, mnp_basics, hyper_map_mixed_elements, hyper_map_tuple_and_list,
         hyper_map_tuple_lengths, hyper_map_list_lengths, jit_of_a_cell, matmul_p_shape_error,
         matmul_functional_shape_error, scatter_add_shape_error, assign_shape_error]


def tensor_any_all_std(ms):
    x = ms.Tensor(np.array([[False, True], [False, False]]))
    y = ms.Tensor(np.arange(6.).reshape(2, 3).astype(np.float32))
    return x.any(), x.all(), x.any(1), y.std(), y.var(axis=1, ddof=1)


def parameter_update(ms):
    p = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="p")
    out = ms.nn.ParameterUpdate(p)(ms.Tensor(np.ones(2, np.float32)))
    return out, p


CASES += [tensor_any_all_std, parameter_update]
