"""Reductions and arg-reductions against NumPy, with MindSpore 2.10's signatures and result
dtypes (``ops.sum`` of ints gives int64, ``ReduceSum`` keeps the dtype, ``ops.argmax`` gives
int64 but ``ops.argmin`` int32...)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

pytestmark = pytest.mark.filterwarnings("error")

RNG = np.random.default_rng(2)


def arr(*shape, dtype=np.float32):
    return RNG.uniform(-3, 3, shape).astype(dtype)


def check(out, ref, rtol=1e-6):
    ref = np.asarray(ref)
    assert isinstance(out, Tensor)
    assert out.dtype is ms.dtype.from_numpy(ref.dtype), (out.dtype, ref.dtype)
    assert out.shape == ref.shape, (out.shape, ref.shape)
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=rtol)


REDUCE = {
    "ReduceSum": (ops.ReduceSum, np.sum),
    "ReduceMean": (ops.ReduceMean, np.mean),
    "ReduceMax": (ops.ReduceMax, np.max),
    "ReduceMin": (ops.ReduceMin, np.min),
    "ReduceProd": (ops.ReduceProd, np.prod),
}


@pytest.mark.parametrize("name", sorted(REDUCE))
@pytest.mark.parametrize("axis", [(), 0, 1, -1, (0, 2), [1, 2]])
@pytest.mark.parametrize("keep", [False, True])
def test_reduce_primitives(name, axis, keep):
    cls, ref = REDUCE[name]
    x = arr(2, 3, 4)
    np_axis = None if axis == () else tuple(axis) if isinstance(axis, list) else axis
    expect = ref(x, axis=np_axis, keepdims=keep).astype(np.float32)
    check(cls(keep)(Tensor(x), axis), expect, rtol=1e-5)
    check(cls(keep_dims=keep)(Tensor(x), axis), expect, rtol=1e-5)


@pytest.mark.parametrize("name", sorted(REDUCE))
@pytest.mark.parametrize("axis", [1, (0, -1), (2,)])
@pytest.mark.parametrize("keep", [False, True])
def test_reduce_over_mutable_axes(name, axis, keep):
    """``ms.mutable`` axes in a graph: read when the graph runs, checked then; the gradient
    equals the one over constant axes."""
    cls, ref = REDUCE[name]
    x = arr(2, 3, 4)
    expect = ref(x, axis=axis, keepdims=keep).astype(np.float32)
    fn = ms.jit(lambda t, a: cls(keep)(t, a))
    check(fn(Tensor(x), ms.mutable(axis)), expect, rtol=1e-5)
    grad = ops.grad(fn)(Tensor(x), ms.mutable(axis))
    want = ops.grad(lambda t: cls(keep)(t, axis))(Tensor(x))
    np.testing.assert_allclose(grad.asnumpy(), want.asnumpy(), rtol=1e-6)


def test_mutable_axes_out_of_range():
    """(MindSpore 2.10: ValueError for ``mutable((0, 1))`` on a rank-1 Tensor)"""
    fn = ms.jit(lambda t, a: ops.ReduceMean()(t, a))
    with pytest.raises(ValueError, match="ReduceMean"):
        fn(Tensor(np.ones(1, np.float32)), ms.mutable((0, 1)))
    with pytest.raises(ValueError, match="ReduceMean"):
        fn(Tensor(np.ones((2, 3), np.float32)), ms.mutable((0, 5)))


def test_reduce_default_axis_and_tensor_methods():
    x = arr(2, 3)
    check(ops.ReduceSum()(Tensor(x)), np.sum(x), rtol=1e-5)
    check(Tensor(x).sum(), np.sum(x), rtol=1e-5)
    check(Tensor(x).mean(1, True), np.mean(x, 1, keepdims=True), rtol=1e-5)
    check(Tensor(x).max(axis=0), np.max(x, 0))
    values, indices = Tensor(x).max(0)  # MindSpore 2.10, eagerly: x.max(dim) -> (values, indices)
    check(values, np.max(x, 0))
    check(indices, np.argmax(x, 0))
    check(Tensor(x).min(), np.min(x))
    check(Tensor(x).prod(-1), np.prod(x, -1), rtol=1e-5)


def test_reduce_primitive_dtypes():
    i = np.arange(6, dtype=np.int8).reshape(2, 3)
    check(ops.ReduceSum()(Tensor(i), 0), np.sum(i, 0).astype(np.int8))
    check(ops.ReduceProd()(Tensor(i.astype(np.int32)), 1), np.prod(i, 1).astype(np.int32))
    b = np.ones((2, 3), np.bool_)
    check(ops.ReduceSum()(Tensor(b)), np.array(True))
    # integer means truncate toward zero, in the input dtype, as on MindSpore
    check(ops.ReduceMean()(Tensor(np.array([-1, -4], np.int32))), np.array(-2, np.int32))
    check(ops.mean(Tensor(np.arange(6, dtype=np.int32))), np.array(2, np.int32))
    x = arr(2)
    check(ops.ReduceSum(False, True)(Tensor(x)), x)  # skip_mode: an empty axis is a no-op


def test_functional_reductions():
    x = arr(2, 3, 4)
    check(ops.sum(Tensor(x)), np.sum(x), rtol=1e-5)
    check(ops.sum(Tensor(x), 1), np.sum(x, 1), rtol=1e-5)
    check(ops.sum(Tensor(x), dim=(0, 1), keepdim=True), np.sum(x, (0, 1), keepdims=True),
          rtol=1e-5)
    check(ops.sum(Tensor(x), dtype=ms.float64), np.sum(x.astype(np.float64)))
    i = np.arange(6, dtype=np.int32).reshape(2, 3)
    check(ops.sum(Tensor(i)), np.sum(i).astype(np.int64))  # ints accumulate in int64
    check(ops.sum(Tensor(np.ones(4, np.bool_))), np.int64(4))
    check(ops.prod(Tensor(i), 1), np.prod(i, 1).astype(np.int64))
    check(ops.prod(Tensor(x), 1, True), np.prod(x, 1, keepdims=True), rtol=1e-5)
    check(ops.mean(Tensor(x), 1, True), np.mean(x, 1, keepdims=True), rtol=1e-5)
    check(ops.mean(Tensor(x), axis=(0, 2)), np.mean(x, (0, 2)), rtol=1e-5)
    check(ops.amax(Tensor(x), 1), np.max(x, 1))
    check(ops.amin(Tensor(x), (0, 1), True), np.min(x, (0, 1), keepdims=True))


def test_max_min_return_values_and_indices():
    x = arr(2, 3)
    v, i = ops.max(Tensor(x), 1)
    check(v, np.max(x, 1))
    check(i, np.argmax(x, 1).astype(np.int64))
    v, i = ops.min(Tensor(x), 0, True)
    check(v, np.min(x, 0, keepdims=True))
    check(i, np.argmin(x, 0, keepdims=True).astype(np.int64))
    v, i = ops.max(Tensor(x))  # MindSpore 2.10: index 0 when ``axis`` is None
    check(v, np.max(x))
    check(i, np.int64(0))
    idx, val = ops.ArgMaxWithValue(1)(Tensor(x))
    check(idx, np.argmax(x, 1).astype(np.int64))
    check(val, np.max(x, 1))
    idx, val = ops.ArgMinWithValue(0, True)(Tensor(x))
    check(idx, np.argmin(x, 0, keepdims=True).astype(np.int64))
    check(val, np.min(x, 0, keepdims=True))


def test_argmax_argmin():
    x = arr(2, 3, 4)
    check(ops.argmax(Tensor(x)), np.int64(np.argmax(x)))
    check(ops.argmax(Tensor(x), 1), np.argmax(x, 1).astype(np.int64))
    check(ops.argmax(Tensor(x), dim=-1, keepdim=True),
          np.argmax(x, -1, keepdims=True).astype(np.int64))
    # over all elements the index is 0-d even with keepdim (MindSpore 2.10 gives shape ())
    check(ops.argmax(Tensor(x), keepdim=True), np.int64(np.argmax(x)))
    check(ops.argmin(Tensor(x)), np.int32(np.argmin(x)))
    check(ops.argmin(Tensor(x), 1, True), np.argmin(x, 1, keepdims=True).astype(np.int32))
    check(ops.Argmax()(Tensor(x)), np.argmax(x, -1).astype(np.int32))
    check(ops.Argmax(0, ms.int64)(Tensor(x)), np.argmax(x, 0).astype(np.int64))
    check(ops.Argmin()(Tensor(x)), np.argmin(x, -1).astype(np.int32))
    check(ops.Argmin(axis=1, output_type=ms.int64)(Tensor(x)), np.argmin(x, 1).astype(np.int64))
    check(Tensor(x).argmax(1), np.argmax(x, 1).astype(np.int64))
    b = np.array([[False, True, True], [False, False, True]])
    check(ops.argmax(Tensor(b), 1), np.argmax(b, 1).astype(np.int64))


@pytest.mark.parametrize("name", sorted(REDUCE))
def test_reduce_errors(name):
    cls, _ = REDUCE[name]
    x = Tensor(arr(2, 3))
    with pytest.raises(ValueError, match=rf"For '{name}'.*\[-2, 2\).*2"):
        cls()(x, 2)
    with pytest.raises(TypeError, match=rf"For '{name}'.*axis.*1.5"):
        cls()(x, 1.5)
    with pytest.raises(RuntimeError, match=rf"For '{name}'.*more than once"):
        cls()(x, (0, 0))
    with pytest.raises(TypeError, match=rf"For '{name}'.*Tensor"):
        cls()([1, 2], 0)


def test_reduce_dtype_errors():
    b = Tensor(np.ones((2, 3), np.bool_))
    with pytest.raises(TypeError, match=r"For 'ReduceMax'.*Bool"):
        ops.ReduceMax()(b, 1)
    with pytest.raises(TypeError, match=r"For 'ReduceMin'.*Bool"):
        ops.ReduceMin()(b, 1)
    with pytest.raises(RuntimeError, match=r"For 'ReduceMean'.*Bool"):
        ops.ReduceMean()(b)
    empty = Tensor(np.zeros((0, 3), np.float32))
    with pytest.raises(ValueError, match=r"For 'ReduceMax'.*empty.*\[0, 3\]"):
        ops.ReduceMax()(empty, 0)
    check(ops.ReduceSum()(empty, 0), np.zeros(3, np.float32))
    assert np.isnan(ops.ReduceMean()(empty, 0).asnumpy()).all()


@pytest.mark.parametrize("cls", [ops.Argmax, ops.Argmin])
def test_arg_errors(cls):
    name = cls.__name__
    x = Tensor(arr(2, 3))
    with pytest.raises(ValueError, match=rf"For '{name}'.*\[-2, 2\).*2"):
        cls(2)(x)
    with pytest.raises(ValueError, match=rf"For '{name}'.*output_type.*Float32"):
        cls(0, ms.float32)(x)
    with pytest.raises(ValueError, match=rf"For '{name}'.*empty"):
        cls(0)(Tensor(np.zeros((0, 3), np.float32)))


@pytest.mark.parametrize("cls", [ops.ArgMaxWithValue, ops.ArgMinWithValue])
def test_arg_with_value_errors(cls):
    name = cls.__name__
    with pytest.raises(ValueError, match=rf"For '{name}'.*\[-2, 2\).*3"):
        cls(3)(Tensor(arr(2, 3)))
    with pytest.raises(TypeError, match=rf"For '{name}'.*Bool"):
        cls()(Tensor(np.ones(3, np.bool_)))
    with pytest.raises(ValueError, match=r"For 'ArgMaxWithValue'.*\[-2, 2\).*3"):
        ops.max(Tensor(arr(2, 3)), 3)
