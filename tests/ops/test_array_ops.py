"""Array ops (cast, creation, shape, select, join/split, tile, broadcast, gather) against
NumPy, in functional and primitive-class form, and their errors."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, ops

pytestmark = pytest.mark.filterwarnings("error")

RNG = np.random.default_rng(1)


def arr(*shape, dtype=np.float32):
    return RNG.uniform(-3, 3, shape).astype(dtype)


def check(out, ref):
    ref = np.asarray(ref)
    assert isinstance(out, Tensor)
    assert out.dtype is ms.dtype.from_numpy(ref.dtype), (out.dtype, ref.dtype)
    assert out.shape == ref.shape
    np.testing.assert_array_equal(out.asnumpy(), ref)


# ------------------------------------------------------------------ cast and creation

def test_cast():
    x = arr(2, 3)
    check(ops.cast(Tensor(x), ms.int32), x.astype(np.int32))
    check(ops.Cast()(Tensor(x), ms.float16), x.astype(np.float16))
    check(ops.cast(3, ms.float16), np.array(3, np.float16))
    check(ops.cast(Tensor(x), np.float64), x.astype(np.float64))
    # NaN and out-of-range values convert without warnings
    y = ops.cast(Tensor(np.array([np.nan, 1e20, -3.7], np.float32)), ms.int32).asnumpy()
    assert y[2] == -3


def test_cast_errors():
    with pytest.raises(TypeError, match="For 'Cast'.*mindspore dtype.*'a'"):
        ops.cast(Tensor(arr(2)), "a")
    with pytest.raises(TypeError, match="For 'Cast'.*mindspore dtype.*5"):
        ops.Cast()(Tensor(arr(2)), 5)


def test_fill_zeros_ones():
    check(ops.fill(ms.float32, (2, 3), 1), np.ones((2, 3), np.float32))
    check(ops.Fill()(ms.int32, (2, 3), 1.5), np.ones((2, 3), np.int32))
    check(ops.fill(ms.float16, [2], Tensor(np.float32(2.5))), np.full(2, 2.5, np.float16))
    check(ops.zeros((2, 3)), np.zeros((2, 3), np.float32))
    check(ops.zeros(3, ms.int32), np.zeros(3, np.int32))
    check(ops.Zeros()((2, 3), ms.float64), np.zeros((2, 3)))
    check(ops.ones((2, 1), ms.bool_), np.ones((2, 1), np.bool_))
    check(ops.Ones()((4,), ms.int8), np.ones(4, np.int8))


def test_fill_errors():
    with pytest.raises(ValueError, match=r"For 'Fill'.*\[2, -3\]"):
        ops.fill(ms.float32, (2, -3), 1)
    with pytest.raises(TypeError, match="For 'Fill'.*value"):
        ops.fill(ms.float32, (2,), "x")
    with pytest.raises(ValueError, match=r"For 'Zeros'.*\[2, -3\]"):
        ops.zeros((2, -3))
    with pytest.raises(TypeError, match=r"For 'Ones'.*shape"):
        ops.Ones()(("a",), ms.float32)


def test_zeros_like_ones_like():
    x = arr(2, 3).astype(np.int32)
    check(ops.zeros_like(Tensor(x)), np.zeros_like(x))
    check(ops.ones_like(Tensor(x)), np.ones_like(x))
    check(ops.ZerosLike()(Tensor(x)), np.zeros_like(x))
    check(ops.OnesLike()(Tensor(x)), np.ones_like(x))
    check(ops.zeros_like(Tensor(x), dtype=ms.float16), np.zeros((2, 3), np.float16))
    with pytest.raises(TypeError, match="For 'ZerosLike'.*int"):
        ops.ZerosLike()(3)
    with pytest.raises(TypeError, match="For 'OnesLike'.*list"):
        ops.OnesLike()([1, 2])


# ------------------------------------------------------------------ shapes

def test_reshape():
    x = arr(2, 3)
    check(ops.reshape(Tensor(x), (3, 2)), x.reshape(3, 2))
    check(ops.Reshape()(Tensor(x), (-1,)), x.reshape(-1))
    check(ops.reshape(Tensor(x), (1, -1, 2)), x.reshape(1, -1, 2))
    check(ops.reshape(Tensor(np.zeros((0, 3), np.float32)), (3, 0)), np.zeros((3, 0), np.float32))
    check(Tensor(x).reshape(6), x.reshape(6))


@pytest.mark.parametrize("shape", [(4, 2), (-1, 4), (0, 6), (-1, 2, -1), (-2, 3)])
def test_reshape_errors(shape):
    with pytest.raises(ValueError, match=r"For 'Reshape'"):
        ops.reshape(Tensor(arr(2, 3)), shape)


def test_transpose():
    x = arr(2, 3, 4)
    check(ops.transpose(Tensor(x), (2, 0, 1)), x.transpose(2, 0, 1))
    check(ops.Transpose()(Tensor(x), (-1, 0, 1)), x.transpose(2, 0, 1))
    check(Tensor(x).T, x.T)
    check(ops.transpose(Tensor(np.float32(2)), ()), np.float32(2))


def test_tensor_transpose_none_reverses_axes():
    """``x.transpose(None)`` (what ``np.transpose(x)`` calls) reverses the axes, in PyNative
    and in a graph, as MindSpore 2.10 does."""
    x = arr(2, 3, 4)
    check(Tensor(x).transpose(None), x.transpose())
    check(np.transpose(Tensor(x)), x.transpose())
    check(ms.jit(lambda t: t.transpose(None))(Tensor(x)), x.transpose())


@pytest.mark.parametrize("perm,err", [((1, 1, 0), ValueError), ((0, 1), ValueError),
                                      ((3, 0, 1), ValueError), ((0.5, 1, 2), TypeError)])
def test_transpose_errors(perm, err):
    with pytest.raises(err, match=r"For 'Transpose'"):
        ops.transpose(Tensor(arr(2, 3, 4)), perm)


def test_expand_dims_and_squeeze():
    x = arr(2, 3)
    check(ops.expand_dims(Tensor(x), 2), x[:, :, None])
    check(ops.ExpandDims()(Tensor(x), -3), x[None])
    y = arr(1, 3, 1)
    check(ops.squeeze(Tensor(y)), y.reshape(3))
    check(ops.squeeze(Tensor(y), 0), y.reshape(3, 1))
    check(ops.squeeze(Tensor(y), (0, 2)), y.reshape(3))
    check(ops.squeeze(Tensor(y), [-1]), y.reshape(1, 3))
    check(ops.Squeeze()(Tensor(y)), y.reshape(3))
    check(ops.Squeeze(0)(Tensor(y)), y.reshape(3, 1))
    check(ops.Squeeze((0, 2))(Tensor(y)), y.reshape(3))
    # MindSpore 2.10 keeps a named axis whose size is not 1 instead of failing
    check(ops.Squeeze(1)(Tensor(y)), y)
    check(Tensor(y).squeeze(), y.reshape(3))


def test_expand_dims_and_squeeze_errors():
    with pytest.raises(ValueError, match=r"For 'ExpandDims'.*\[-3, 3\).*3"):
        ops.expand_dims(Tensor(arr(2, 3)), 3)
    with pytest.raises(TypeError, match=r"For 'ExpandDims'.*int.*float"):
        ops.expand_dims(Tensor(arr(2, 3)), 1.0)
    with pytest.raises(ValueError, match=r"For 'Squeeze'.*\[-3, 3\).*5"):
        ops.Squeeze(5)(Tensor(arr(1, 3, 1)))


def test_tile():
    x = arr(2, 3)
    check(ops.tile(Tensor(x), (2, 1)), np.tile(x, (2, 1)))
    check(ops.Tile()(Tensor(x), (2,)), np.tile(x, (2,)))
    check(ops.tile(Tensor(x), (2, 2, 2)), np.tile(x, (2, 2, 2)))
    check(ops.tile(Tensor(x), [1, 0]), np.tile(x, (1, 0)))
    check(Tensor(x).tile((3, 1)), np.tile(x, (3, 1)))
    with pytest.raises(ValueError, match=r"For 'Tile'.*negative.*\[-1, 2\]"):
        ops.tile(Tensor(x), (-1, 2))
    with pytest.raises(TypeError, match=r"For 'Tile'.*tuple"):
        ops.tile(Tensor(x), 2)


def test_broadcast_to():
    x = arr(2, 1)
    check(ops.broadcast_to(Tensor(x), (4, 2, 3)), np.broadcast_to(x, (4, 2, 3)))
    check(ops.BroadcastTo((2, 5))(Tensor(x)), np.broadcast_to(x, (2, 5)))
    check(ops.broadcast_to(Tensor(x), (3, -1, 1)), np.broadcast_to(x, (3, 2, 1)))
    check(Tensor(x).broadcast_to((2, 2)), np.broadcast_to(x, (2, 2)))


def test_broadcast_to_errors():
    with pytest.raises(ValueError, match=r"For 'BroadcastTo'.*\[2, 3\].*\[4, 3\]"):
        ops.broadcast_to(Tensor(arr(2, 3)), (4, 3))
    with pytest.raises(ValueError, match=r"For 'BroadcastTo'.*rank"):
        ops.BroadcastTo((3,))(Tensor(arr(2, 3)))
    with pytest.raises(ValueError, match=r"For 'BroadcastTo'.*-1"):
        ops.broadcast_to(Tensor(arr(2, 3)), (-1, 2, 3))


# ------------------------------------------------------------------ select

def test_select():
    c = RNG.uniform(size=(2, 3)) > 0.5
    x, y = arr(2, 3), arr(3)
    check(ops.select(Tensor(c), Tensor(x), Tensor(y)), np.where(c, x, y))
    check(ops.Select()(Tensor(c), Tensor(x), Tensor(y)), np.where(c, x, y))
    check(ops.select(Tensor(c[:, :1]), Tensor(x), 0.0), np.where(c[:, :1], x, np.float32(0)))
    check(ops.select(Tensor(c), 1, Tensor(x.astype(np.int32))),
          np.where(c, np.int32(1), x.astype(np.int32)))


def test_select_errors():
    c = Tensor(np.array([True, False, True]))
    with pytest.raises(TypeError, match=r"For 'Select'.*'cond'.*Float32"):
        ops.select(Tensor(arr(3)), Tensor(arr(3)), Tensor(arr(3)))
    with pytest.raises(ValueError, match=r"For 'Select'.*\[3\].*\[4\]"):
        ops.select(c, Tensor(arr(3)), Tensor(arr(4)))
    with pytest.raises(ValueError, match=r"For 'Select'.*cond.*\[2\].*\[3\]"):
        ops.Select()(Tensor(np.array([True, False])), Tensor(arr(3)), Tensor(arr(3)))


# ------------------------------------------------------------------ join and split

def test_concat():
    a, b = arr(2, 3), arr(1, 3)
    check(ops.concat((Tensor(a), Tensor(b))), np.concatenate([a, b]))
    check(ops.Concat()((Tensor(a), Tensor(b))), np.concatenate([a, b]))
    c = arr(2, 1)
    check(ops.concat([Tensor(a), Tensor(c)], 1), np.concatenate([a, c], 1))
    check(ops.Concat(-1)((Tensor(a), Tensor(c), Tensor(a))), np.concatenate([a, c, a], -1))
    check(ops.cat((Tensor(a),)), a)


def test_concat_errors():
    a = Tensor(arr(2, 3))
    with pytest.raises(ValueError, match=r"For 'Concat'.*\[2, 3\].*\[2, 1\]"):
        ops.concat((a, Tensor(arr(2, 1))))
    with pytest.raises(ValueError, match=r"For 'Concat'.*\[2, 3\].*\[2, 3, 1\]"):
        ops.Concat()((a, Tensor(arr(2, 3, 1))))
    with pytest.raises(TypeError, match=r"For 'Concat'.*Float32.*Int32"):
        ops.concat((a, Tensor(arr(2, 3, dtype=np.int32))))
    with pytest.raises(ValueError, match=r"For 'Concat'.*\[-2, 2\).*2"):
        ops.concat((a,), 2)
    with pytest.raises(ValueError, match=r"For 'Concat'.*at least one"):
        ops.concat(())
    with pytest.raises(TypeError, match=r"For 'Concat'.*tuple"):
        ops.Concat()(a)


def test_stack():
    a, b = arr(2, 3), arr(2, 3)
    check(ops.stack((Tensor(a), Tensor(b))), np.stack([a, b]))
    check(ops.stack([Tensor(a), Tensor(b)], -1), np.stack([a, b], -1))
    check(ops.Stack(1)((Tensor(a), Tensor(b))), np.stack([a, b], 1))


def test_stack_errors():
    a = Tensor(arr(2, 3))
    with pytest.raises(ValueError, match=r"For 'Stack'.*\[2, 3\].*\[1, 3\]"):
        ops.stack((a, Tensor(arr(1, 3))))
    with pytest.raises(TypeError, match=r"For 'Stack'.*Float32.*Int32"):
        ops.Stack()((a, Tensor(arr(2, 3, dtype=np.int32))))
    with pytest.raises(ValueError, match=r"For 'Stack'.*\[-3, 3\).*3"):
        ops.stack((a, a), 3)


def _check_parts(parts, refs):
    assert isinstance(parts, tuple) and len(parts) == len(refs)
    for p, r in zip(parts, refs):
        check(p, r)


def test_split():
    x = arr(6, 2)
    _check_parts(ops.split(Tensor(x), 2), np.split(x, 3))
    y = arr(5, 2)
    _check_parts(ops.split(Tensor(y), 2), np.split(y, [2, 4]))
    _check_parts(ops.split(Tensor(x), (1, 5)), np.split(x, [1]))
    _check_parts(ops.split(Tensor(x), [2, 0, 4]), np.split(x, [2, 2]))
    _check_parts(ops.split(Tensor(x), 1, 1), np.split(x, 2, 1))
    _check_parts(ops.split(Tensor(x), 7), [x])
    _check_parts(ops.Split(0, 3)(Tensor(x)), np.split(x, 3))
    _check_parts(ops.Split(1, 2)(Tensor(x)), np.split(x, 2, 1))
    _check_parts(ops.Split()(Tensor(x)), [x])
    _check_parts(ops.SplitV((1, -1, 2), 0, 3)(Tensor(x)), np.split(x, [1, 4]))


def test_split_errors():
    x = Tensor(arr(6, 2))
    with pytest.raises(ValueError, match=r"For 'split'.*6"):
        ops.split(x, [1, 2])
    with pytest.raises(ValueError, match=r"For 'split'.*positive.*0"):
        ops.split(x, 0)
    with pytest.raises(TypeError, match=r"For 'split'.*float"):
        ops.split(x, 2.0)
    with pytest.raises(TypeError, match=r"For 'split'.*non-negative"):
        ops.split(x, (2, -1))
    with pytest.raises(ValueError, match=r"For 'split'.*\[-2, 2\)"):
        ops.split(x, 2, 2)
    with pytest.raises(ValueError, match=r"For 'Split'.*divisible.*4.*\[6, 2\]"):
        ops.Split(0, 4)(x)
    with pytest.raises(ValueError, match=r"For 'Split'.*\[-2, 2\).*2"):
        ops.Split(2, 2)(x)
    with pytest.raises(ValueError, match=r"For 'SplitV'.*sum"):
        ops.SplitV((1, 2), 0, 2)(x)


def test_addn():
    a, b, c = arr(2, 3), arr(2, 3), arr(2, 3)
    check(ops.addn((Tensor(a), Tensor(b), Tensor(c))), a + b + c)
    check(ops.AddN()([Tensor(a)]), a)


def test_addn_errors():
    with pytest.raises(ValueError, match=r"For 'AddN'.*\[2, 3\].*\[3, 3\]"):
        ops.AddN()((Tensor(arr(2, 3)), Tensor(arr(3, 3))))
    with pytest.raises(TypeError, match=r"For 'AddN'.*Float32.*Int32"):
        ops.addn((Tensor(arr(2, 3)), Tensor(arr(2, 3, dtype=np.int32))))
    with pytest.raises(TypeError, match=r"For 'AddN'.*tuple"):
        ops.AddN()(Tensor(arr(2, 3)))


# ------------------------------------------------------------------ gather

def test_gather():
    p = arr(4, 3)
    i = np.array([3, 0, -1], np.int32)
    check(ops.gather(Tensor(p), Tensor(i), 0), np.take(p, i, 0))
    check(ops.Gather()(Tensor(p), Tensor(i), 0), np.take(p, i, 0))
    i2 = np.array([[1, 0], [2, 2]], np.int64)
    check(ops.gather(Tensor(p), Tensor(i2), 1), np.take(p, i2, 1))
    check(ops.gather(Tensor(p), Tensor(np.array(1, np.int64)), -1), np.take(p, 1, -1))


def test_gather_batch_dims():
    p = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    i = np.array([[0, 2], [1, 1]], np.int32)
    expect = np.stack([np.take(p[k], i[k], 1) for k in range(2)])
    check(ops.gather(Tensor(p), Tensor(i), 2, 1), expect)
    check(ops.Gather(1)(Tensor(p), Tensor(i), 2), expect)


def test_gather_errors():
    p = Tensor(arr(4, 3))
    with pytest.raises(RuntimeError, match=r"For 'Gather'.*\[-4, 4\).*5"):
        ops.gather(p, Tensor(np.array([5, 0], np.int32)), 0)
    with pytest.raises(TypeError, match=r"For 'Gather'.*Int32, Int64.*Float32"):
        ops.gather(p, Tensor(arr(2)), 0)
    with pytest.raises(ValueError, match=r"For 'Gather'.*\[-2, 2\).*2"):
        ops.Gather()(p, Tensor(np.array([0], np.int32)), 2)
    with pytest.raises(ValueError, match=r"For 'Gather'.*batch_dims"):
        ops.gather(p, Tensor(np.array([0, 1], np.int32)), 0, 1)
    # an out-of-range index known only at run time fails in the kernel with the same error
    from graphkiln.ir.primitive import REGISTRY
    with pytest.raises(RuntimeError, match=r"For 'Gather'"):
        REGISTRY["Gather"].kernel(np.zeros((4, 3)), np.array([4]), 0)


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64", "complex64", "complex128"])
def test_addn_takes_wide_unsigned_and_complex_tensors(dtype):
    # MindSpore 2.10's CPU AddN accepts these (tests/st/ops/cpu/test_addn_op.py)
    a = np.array([1, 2, 3], dtype) + (np.array([0.5j, 0, 1j], dtype) if "complex" in dtype else 0)
    out = ops.addn([Tensor(a), Tensor(a), Tensor(a)])
    assert out.dtype == ms.dtype.from_numpy(np.dtype(dtype))
    np.testing.assert_array_equal(out.asnumpy(), a * 3)


def test_slice_of_a_scalar_is_refused_as_mindspore_does():
    # MindSpore 2.10: "For primitive[Slice], the rank of input_x must be greater than 0,
    # but got 0." (ValueError), in both modes
    with pytest.raises(ValueError, match=r"rank of input_x must be greater than 0"):
        ops.Slice()(Tensor(np.float64(1.0)), (), ())
    with pytest.raises(ValueError, match=r"rank of input_x must be greater than 0"):
        ms.jit(lambda x: ops.Slice()(x, (), ()))(Tensor(np.float64(1.0)))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_deepcopy_is_an_identity_copy(mode):
    """``ops.deepcopy`` (MindSpore's ``Identity``): a new Tensor of the same values, with
    the gradient of the identity; a non-Tensor is a TypeError."""
    x = arr(2, 3)
    ms.set_context(mode=mode)
    try:
        fn = ms.jit(ops.deepcopy) if mode == ms.GRAPH_MODE else ops.deepcopy
        t = Tensor(x)
        out = fn(t)
        grad = ops.grad(fn)(t)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert out is not t
    check(out, x)
    check(grad, np.ones_like(x))
    with pytest.raises(TypeError):
        ops.deepcopy([1.0])


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_strided_slice_bounds_read_at_run_time(mode):
    """``begin``/``end``/``strides`` given as Tensors (graph inputs, read when the graph
    runs: the sliced dimensions are unknown until then), as in MindSpore."""
    x = arr(5, 6, 7)
    b, e, s = (Tensor(np.array(v, np.int64)) for v in ([0, 1], [4, 5], [1, 2]))
    ms.set_context(mode=mode)
    try:
        fn = ms.jit(lambda t, *a: ops.StridedSlice()(t, *a)) if mode == ms.GRAPH_MODE else \
            ops.StridedSlice()
        check(fn(Tensor(x), b, e, s), x[0:4, 1:5:2])
        check(fn(Tensor(x), b, e, Tensor(np.array([2, -1], np.int64))), x[0:4:2, 1:5:-1])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    fn = ms.jit(lambda t, *a: ops.StridedSlice(shrink_axis_mask=1)(t, *a))
    with pytest.raises(ValueError, match="shrink_axis_mask"):
        fn(Tensor(x), b, e, s)
    with pytest.raises(ValueError, match="gradient needs constant"):
        ops.grad(ms.jit(lambda t, *a: ops.StridedSlice()(t, *a).sum()))(Tensor(x), b, e, s)
