"""vmap (transforms/vectorize.py, ops/composite/vmap.py): the spec's example, axes, nesting,
composition with jit/grad/cells/control flow, compiled graphs without a loop, errors.

Error types follow MindSpore 2.10 (measured): bad axes and inconsistent batch sizes are
``RuntimeError`` there; graphkiln's ``VmapError`` is both a ``RuntimeError`` and a
``ValueError``. A batched tensor ``if`` and side effects are ``ValueError``, as there.
"""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops
from graphkiln.transforms.vectorize import VmapError


def f32(a):
    return Tensor(np.asarray(a, np.float32))


def rand(*shape, seed=0):
    return f32(np.random.default_rng(seed).standard_normal(shape))


# ------------------------------------------------------------------ the spec's example

def hswish_func(x):
    return ops.HSwish()(x)


@ms.jit
def manually_batched(xs):
    output = []
    for i in range(xs.shape[0]):
        output.append(hswish_func(xs[i]))
    return ops.stack(output)


def _spec_input():
    x_np = (np.random.default_rng(1).standard_normal((100, 2)) * 100).astype(np.float32)
    return ops.sub(Tensor(x_np), 0)


def test_spec_example_eager_equals_loop():
    x = _spec_input()
    output_vmap = ms.vmap(hswish_func, in_axes=(0,))(x)
    output_manually = manually_batched(x)
    assert output_vmap.shape == (100, 2)
    np.testing.assert_array_equal(output_vmap.asnumpy(), output_manually.asnumpy())


def test_spec_example_inside_jit_is_one_kernel_call():
    x = _spec_input()

    @ms.jit
    def batched(xs):
        return ms.vmap(hswish_func, in_axes=(0,))(xs)

    np.testing.assert_array_equal(batched(x).asnumpy(), manually_batched(x).asnumpy())
    info = ms.compile_info(batched)
    assert info.count("HSwish") == 1 and info.count("Stack") == 0  # no loop
    assert ms.compile_info(manually_batched).count("HSwish") == 100


def test_spec_example_in_pynative_mode():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    x = _spec_input()
    np.testing.assert_array_equal(ms.vmap(hswish_func)(x).asnumpy(),
                                  manually_batched(x).asnumpy())


def test_eager_vmap_compiles_once_per_signature():
    v = ms.vmap(hswish_func)
    v(rand(4, 3))
    v(rand(4, 3, seed=2))
    assert len(v.cache.entries) == 1
    v(rand(5, 3))
    assert len(v.cache.entries) == 2


# ------------------------------------------------------------------ axes

def test_in_axes_tuple_with_none_and_negative_axis():
    x, w = rand(2, 5), rand(2, seed=1)
    out = ms.vmap(lambda a, b: a * b + 1, in_axes=(-1, None))(x, w)
    assert out.shape == (5, 2)
    np.testing.assert_allclose(out.asnumpy(), x.asnumpy().T * w.asnumpy() + 1, rtol=1e-6)


def test_in_axes_list_and_python_scalar_argument():
    x = rand(3, 4)
    out = ms.vmap(lambda a, s: a * s, in_axes=[0, None])(x, 2.5)
    np.testing.assert_allclose(out.asnumpy(), x.asnumpy() * 2.5, rtol=1e-6)


def test_nested_in_axes_for_tuple_arguments():
    a, b = rand(3, 2), rand(2, 3, seed=1)

    def f(t):
        return t[0] + t[1]

    out = ms.vmap(f, in_axes=((0, 1),))((a, b))
    np.testing.assert_allclose(out.asnumpy(), a.asnumpy() + b.asnumpy().T, rtol=1e-6)
    out = ms.vmap(f, in_axes=0)((a, a))  # an int applies to every element
    np.testing.assert_allclose(out.asnumpy(), 2 * a.asnumpy(), rtol=1e-6)
    out = ms.vmap(f, in_axes=((0, None),))((a, f32([1.0, 2.0])))
    np.testing.assert_allclose(out.asnumpy(), a.asnumpy() + [1.0, 2.0], rtol=1e-6)


def test_out_axes_int_tuple_negative_and_nested():
    x = rand(3, 4)
    xn = x.asnumpy()

    def two(a):
        return a * 2, (a + 1, a.sum())

    p, (q, s) = ms.vmap(two, out_axes=(1, (-1, 0)))(x)
    np.testing.assert_allclose(p.asnumpy(), (2 * xn).T, rtol=1e-6)
    np.testing.assert_allclose(q.asnumpy(), (xn + 1).T, rtol=1e-6)
    np.testing.assert_allclose(s.asnumpy(), xn.sum(1), rtol=1e-5)
    p, (q, s) = ms.vmap(two, out_axes=-1)(x)  # one int for every output
    assert p.shape == (4, 3) and q.shape == (4, 3) and s.shape == (3,)
    assert ms.vmap(hswish_func, out_axes=(0,))(x).shape == (3, 4)


def test_unbatched_and_python_outputs_are_broadcast():
    x, w = rand(3, 4), rand(2, seed=1)
    a, b, c = ms.vmap(lambda v, u: (u, 3, 2.5), in_axes=(0, None), out_axes=(1, 0, 0))(x, w)
    np.testing.assert_array_equal(a.asnumpy(), np.broadcast_to(w.asnumpy()[:, None], (2, 3)))
    assert b.dtype == ms.int64 and b.asnumpy().tolist() == [3, 3, 3]
    assert c.dtype == ms.float32 and c.asnumpy().tolist() == [2.5, 2.5, 2.5]


def test_out_axes_none_keeps_an_unbatched_output():
    x, w = rand(3, 4), rand(2, seed=1)
    a, u = ms.vmap(lambda v, k: (v + 1, k * 2), in_axes=(0, None), out_axes=(0, None))(x, w)
    assert a.shape == (3, 4)
    np.testing.assert_allclose(u.asnumpy(), w.asnumpy() * 2, rtol=1e-6)


def test_kwargs_pass_through_unbatched():
    x = rand(3, 4)
    out = ms.vmap(lambda a, scale=1.0: a * scale)(x, scale=3.0)
    np.testing.assert_allclose(out.asnumpy(), x.asnumpy() * 3, rtol=1e-6)


# ------------------------------------------------------------------ composition

def test_nested_vmap_matches_numpy():
    x = rand(3, 4, 5)

    def inner(a):  # a: (5,)
        return ops.softmax(a, -1) * a.sum()

    out = ms.vmap(ms.vmap(inner, in_axes=0), in_axes=1)(x)  # outer over axis 1
    xn = np.moveaxis(x.asnumpy(), 1, 0)  # (4, 3, 5)
    e = np.exp(xn - xn.max(-1, keepdims=True))
    want = e / e.sum(-1, keepdims=True) * xn.sum(-1, keepdims=True)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_nested_vmap_outer_product_inside_jit():
    a, b = rand(3), rand(4, seed=1)

    @ms.jit
    def outer(x, y):
        return ms.vmap(lambda u: ms.vmap(lambda v: u * v)(y))(x)

    np.testing.assert_allclose(outer(a, b).asnumpy(), np.outer(a.asnumpy(), b.asnumpy()),
                               rtol=1e-6)
    assert ms.compile_info(outer).count("Mul") == 1


def test_vmap_of_grad_gives_per_example_gradients():
    x, w = rand(5, 3), rand(3, seed=1)

    def loss(xi, wi):
        return ops.sum(ops.tanh(xi * wi) ** 2)

    per_example = ms.vmap(ms.grad(loss, grad_position=1), in_axes=(0, None))(x, w)
    loop = np.stack([ms.grad(loss, grad_position=1)(x[i], w).asnumpy() for i in range(5)])
    np.testing.assert_allclose(per_example.asnumpy(), loop, rtol=1e-5, atol=1e-6)


def test_grad_of_vmap():
    x = rand(4, 3)

    def f(v):
        return ops.sum(ms.vmap(lambda r: ops.sin(r) * r)(v))

    g = ms.grad(f)(x).asnumpy()
    xn = x.asnumpy()
    np.testing.assert_allclose(g, np.cos(xn) * xn + np.sin(xn), rtol=1e-5, atol=1e-6)


def test_vmap_of_a_cell_with_weights_graph_and_pynative():
    ms.set_seed(3)
    net = nn.SequentialCell([nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 2)])
    x = rand(6, 4)
    want = np.stack([net(x[i:i + 1]).asnumpy()[0] for i in range(6)])
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)
        np.testing.assert_allclose(ms.vmap(net)(x).asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_vmap_inside_a_cell_construct():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(rand(4, seed=5), name="w")

        def construct(self, xs):
            return ms.vmap(lambda row: ops.reduce_sum(row * self.w))(xs)

    ms.set_context(mode=ms.GRAPH_MODE)
    net, x = Net(), rand(3, 4)
    np.testing.assert_allclose(net(x).asnumpy(), x.asnumpy() @ net.w.asnumpy(), rtol=1e-5)


def test_vmap_of_lazy_inline_blocks_keeps_one_reusable_graph():
    class Block(nn.Cell):
        @ms.lazy_inline
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 4)

        def construct(self, a):
            return ops.relu(self.dense(a))

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.blocks = nn.CellList([Block() for _ in range(3)])

        def construct(self, a):
            for blk in self.blocks:
                a = blk(a)
            return a

    ms.set_seed(7)
    net, x = Net(), rand(5, 4)

    @ms.jit
    def run(v):
        return ms.vmap(net)(v)

    want = np.stack([net(x[i:i + 1]).asnumpy()[0] for i in range(5)])
    np.testing.assert_allclose(run(x).asnumpy(), want, rtol=1e-5, atol=1e-6)
    info = ms.compile_info(run)
    assert info.subgraphs == 2
    assert info.ir().count("= @vmap_Block_construct_reusable(") == 3


# ------------------------------------------------------------------ control flow

def test_tensor_if_with_unbatched_condition_batches_both_branches():
    x = rand(3, 4)

    def f(a, flag):
        if flag > 0:
            y = a * 2
        else:
            y = a - 1
        return y + flag

    for flag in (1.0, -1.0):
        out = ms.vmap(f, in_axes=(0, None))(x, f32(flag))
        want = (x.asnumpy() * 2 if flag > 0 else x.asnumpy() - 1) + flag
        np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-6)


def test_tensor_while_with_unbatched_condition():
    x = rand(3, 4)

    def f(a, n):
        i = Tensor(0)
        acc = ops.zeros((4,), ms.float32)
        while i < n:
            acc = acc + a * 2
            i = i + 1
        return acc

    out = ms.vmap(f, in_axes=(0, None))(x, Tensor(3))
    np.testing.assert_allclose(out.asnumpy(), x.asnumpy() * 6, rtol=1e-5)


def test_hypermap_inside_vmap():
    x, y = rand(3, 4), rand(3, 4, seed=1)
    hm = ops.HyperMap()

    def f(a, b):
        r = hm(lambda t: t * t + 1, (a, b, a))
        return r[0] + r[1] + r[2]

    want = 2 * x.asnumpy() ** 2 + y.asnumpy() ** 2 + 3
    np.testing.assert_allclose(ms.vmap(f)(x, y).asnumpy(), want, rtol=1e-5)


def test_select_is_the_batched_alternative_to_if():
    x = rand(3, 4)
    out = ms.vmap(lambda a: ops.select(a.sum() > 0, a * 2, a - 1))(x)
    xn = x.asnumpy()
    want = np.where(xn.sum(1, keepdims=True) > 0, xn * 2, xn - 1)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-6)


# ------------------------------------------------------------------ errors

def test_inconsistent_batch_sizes():
    with pytest.raises(ValueError, match="should be equal, but got 3 and 4"):
        ms.vmap(lambda a, b: a + b)(rand(3, 2), rand(4, 2))
    with pytest.raises(RuntimeError, match="axis_size"):  # MindSpore's type
        ms.vmap(lambda a, b: a + b)(rand(3, 2), rand(4, 2))


@pytest.mark.parametrize("in_axes,match", [
    (2, r"The axis: 2 in 'in_axes' is out of bounds for array of dimension \[-2,2\)"),
    (-3, r"The axis: -3 in 'in_axes' is out of bounds"),
    ((0,), "its size must be equal to the number of arguments of 'fn': 2, but got size: 1"),
    (None, "cannot be a single None"),
    ((None, None), "cannot be all None"),
    (1.5, "can only be of type Int or None"),
    ("a", "can only be of type Int or None"),
])
def test_bad_in_axes(in_axes, match):
    with pytest.raises(VmapError, match=match) as e:
        ms.vmap(lambda a, b: a + b, in_axes=in_axes)(rand(3, 2), rand(3, 2))
    assert isinstance(e.value, RuntimeError)


def test_bad_out_axes_and_scalar_with_axis():
    x = rand(3, 2)
    with pytest.raises(VmapError, match=r"The axis: 2 in 'out_axes' is out of bounds"):
        ms.vmap(hswish_func, out_axes=2)(x)
    with pytest.raises(VmapError, match="number of results of 'fn': 2, but got size: 3"):
        ms.vmap(lambda a: (a, a), out_axes=(0, 1, 1))(x)
    with pytest.raises(VmapError, match="cannot be a single None"):
        ms.vmap(hswish_func, out_axes=None)(x)
    with pytest.raises(VmapError, match="depends on the batched inputs"):
        ms.vmap(lambda a: (a, a), out_axes=(0, None))(x)
    with pytest.raises(VmapError, match="not a Tensor"):
        ms.vmap(lambda a, s: a * s, in_axes=(0, 0))(x, 2.0)
    with pytest.raises(VmapError, match=r"dimension \[0,0\)"):
        ms.vmap(hswish_func)(f32(1.0))
    with pytest.raises(TypeError, match="'fn' must be a function or a Cell"):
        ms.vmap(3)


def _branchy(a, y):
    if a.sum() > 0:
        out = a * y
    else:
        out = ops.exp(a) - y
    return out, a.sum()


def _branchy_reference(xs, y):
    rows = [(x * y if x.sum() > 0 else np.exp(x) - y) for x in xs]
    return np.stack(rows), xs.sum(axis=1)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_batched_tensor_if_selects_per_example(mode):
    """MindSpore refuses a tensor 'if' on batched values (a deliberate difference): each
    example takes its own branch, like JAX's cond under vmap."""
    ms.set_context(mode=mode)
    xs = rand(5, 2, seed=3)
    y = f32(1.5)
    out, sums = ms.vmap(_branchy, in_axes=(0, None))(xs, y)
    want, want_sums = _branchy_reference(xs.asnumpy(), 1.5)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(sums.asnumpy(), want_sums, rtol=1e-6)
    jitted = ms.jit(ms.vmap(_branchy, in_axes=(0, 1)))(xs, f32([[1.5] * 5] * 2))
    np.testing.assert_allclose(jitted[0].asnumpy(), want, rtol=1e-6)


def test_grad_of_batched_tensor_if_matches_finite_differences():
    xs = rand(4, 3, seed=5)

    def loss(xs):
        return ms.vmap(_branchy, in_axes=(0, None))(xs, f32(2.0))[0].sum()

    g = ms.grad(loss)(xs).asnumpy()
    x = xs.asnumpy().astype(np.float64)
    eps = 1e-3
    num = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        hi, lo = x.copy(), x.copy()
        hi[idx] += eps
        lo[idx] -= eps
        num[idx] = (_branchy_reference(hi, 2.0)[0].sum()
                    - _branchy_reference(lo, 2.0)[0].sum()) / (2 * eps)
    np.testing.assert_allclose(g, num, rtol=1e-2, atol=1e-3)


def test_batched_while_condition_is_refused():
    def f(a):
        i = Tensor(0.0)
        while i < a.sum():
            i = i + 1
        return i

    with pytest.raises(ValueError, match="vmap cannot batch a tensor 'while' loop"):
        ms.vmap(f)(f32([[1.0, 2.0], [3.0, 4.0]]))


def test_side_effects_are_refused():
    class Writer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(f32([0.0, 0.0]), name="w")

        def construct(self, a):
            ops.assign(self.w, a)
            return a

    with pytest.raises(ValueError, match="side effects.*'Assign'"):
        ms.vmap(Writer())(rand(3, 2))

    def printer(a):
        print(a)
        return a

    with pytest.raises(ValueError, match="side effects.*'Print'"):
        ms.vmap(printer)(rand(3, 2))


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_writes_into_a_batched_argument_write_the_caller_s_tensor(mode):
    """Assign / AssignAdd of a batched argument write the whole argument once (MindSpore
    2.10 gives these numbers); the function's result is the written value at that point."""
    ms.set_context(mode=mode)
    try:
        class Overwrite(nn.Cell):
            def construct(self, x):
                return ops.assign(x, Tensor(np.array([3, 4], np.int32)))

        overwrite = ms.vmap(Overwrite())

        @ms.jit
        def step(a):
            out = overwrite(a)
            ops.assign_add(a, a + Tensor(np.array([[1, 2], [3, 4], [5, 6]], np.int32)))
            return out, a

        a = Parameter(Tensor(np.array([[1, 2], [3, 4], [5, 6]], np.int32)), name="a")
        out, after = step(a)
        np.testing.assert_array_equal(out.asnumpy(), [[3, 4]] * 3)
        np.testing.assert_array_equal(after.asnumpy(), [[7, 10], [9, 12], [11, 14]])
        np.testing.assert_array_equal(a.asnumpy(), [[7, 10], [9, 12], [11, 14]])

        b = Parameter(Tensor(np.zeros((2, 3), np.float32)), name="b")
        v = np.arange(6, dtype=np.float32).reshape(3, 2)

        def add_row(x, row):
            ops.assign_add(x, row)
            return x * 2

        got = ms.vmap(add_row, in_axes=(1, 0))(b, Tensor(v))
        np.testing.assert_array_equal(got.asnumpy(), 2 * v)
        np.testing.assert_array_equal(b.asnumpy(), v.T)
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)


def test_identity_and_axis_moves():
    x = rand(2, 3, 4)
    out = ms.vmap(lambda a: a, in_axes=2, out_axes=0)(x)
    np.testing.assert_array_equal(out.asnumpy(), np.moveaxis(x.asnumpy(), 2, 0))


def test_persistent_cache_keeps_different_vmaps_apart(tmp_path, capsys):
    ms.set_context(enable_compile_cache=True, compile_cache_path=str(tmp_path))
    x = f32(np.ones((3, 2)))
    a, b = ms.vmap(lambda v: v * 2)(x), ms.vmap(lambda v: v + 7)(x)  # same line, same signature
    assert a.asnumpy()[0].tolist() == [2, 2] and b.asnumpy()[0].tolist() == [8, 8]
    capsys.readouterr()
    again = ms.vmap(hswish_func)(x)
    assert "Execute all the compilation actions" in capsys.readouterr().err  # logged, as MindSpore
    fresh = ms.vmap(hswish_func)(x)  # a new vmap object: loaded from the disk cache
    assert "Execute all the compilation actions" not in capsys.readouterr().err
    np.testing.assert_array_equal(again.asnumpy(), fresh.asnumpy())


@pytest.mark.parametrize("name, combine", [
    ("ScatterNdAdd", np.add), ("ScatterNdSub", np.subtract), ("ScatterNdMul", np.multiply),
    ("ScatterNdDiv", np.divide), ("ScatterNdMax", np.maximum),
    ("ScatterNdUpdate", lambda a, b: b)])
@pytest.mark.parametrize("in_axes", [(0, 0, None), (0, None, 0), (0, 0, 0)])
def test_scatter_nd_into_a_batched_argument(name, combine, in_axes):
    """ScatterNd* of a batched argument scatter into the caller's Parameter once, the same
    as a loop of per-example scatters (NumPy); the function reads the written value."""
    r = np.random.default_rng(4)
    x = r.uniform(1, 2, (3, 2, 4)).astype(np.float32)
    idx = np.array([[[0, 1], [1, 3]], [[1, 0], [0, 0]], [[0, 2], [1, 2]]], np.int32)
    upd = r.uniform(1, 2, (3, 2)).astype(np.float32)
    args = [idx if in_axes[1] == 0 else idx[0], upd if in_axes[2] == 0 else upd[0]]
    want = x.copy()
    for k in range(3):
        i, u = (a[k] if ax == 0 else a for a, ax in zip(args, in_axes[1:]))
        for row, v in zip(i, u):
            want[(k,) + tuple(row)] = combine(want[(k,) + tuple(row)], v)
    op = getattr(ops, name)()

    def scatter(p, i, u):
        op(p, i, u)
        return p * 1

    w = Parameter(Tensor(x), name="w")
    got = ms.vmap(scatter, in_axes=in_axes)(w, *(Tensor(a) for a in args))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(w.asnumpy(), want, rtol=1e-6)


@pytest.mark.parametrize("ref_axis, depth, in_axes", [
    (1, 2, (None, 0)), (1, 2, (0, 0)), (2, 2, (0, None)), (1, 1, (0, 0)),
    (2, 1, (None, 0)), (2, 1, (None, None)), (1, 1, (None, 0))])
def test_scatter_nd_into_an_argument_batched_on_another_axis(ref_axis, depth, in_axes):
    """The batch axis of the Parameter anywhere: among the dims the index rows address
    (each example's rows get its number there) or inside the slices they write; the same
    as a loop of per-example scatters (NumPy), into the caller's Parameter."""
    r = np.random.default_rng(5)
    per = r.uniform(1, 2, (3, 2, 4)).astype(np.float32)  # (batch, 2, 4)
    idx = np.array([[[0, 1], [1, 3]], [[1, 0], [0, 0]], [[0, 2], [1, 2]]], np.int32)
    idx = idx[..., :depth]
    upd = r.uniform(1, 2, (3, 2) + per.shape[1 + depth:]).astype(np.float32)
    args = [idx if in_axes[0] == 0 else idx[0], upd if in_axes[1] == 0 else upd[0]]
    want = per.copy()
    for k in range(3):
        i, u = (a[k] if ax == 0 else a for a, ax in zip(args, in_axes))
        for row, v in zip(i, u):
            want[(k,) + tuple(row)] += v

    def scatter(p, i, u):
        ops.ScatterNdAdd()(p, i, u)
        return p * 1

    w = Parameter(Tensor(np.moveaxis(per, 0, ref_axis).copy()), name="w")
    got = ms.vmap(scatter, in_axes=(ref_axis,) + in_axes)(w, *(Tensor(a) for a in args))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(np.moveaxis(w.asnumpy(), ref_axis, 0), want, rtol=1e-6)


@pytest.mark.parametrize("ref_axis, depth, in_axes, upd_axis", [
    (2, 1, (0, None), None), (2, 1, (0, 0), 0), (3, 1, (0, 0), 1), (3, 2, (0, 0), 0),
    (2, 1, (1, 0), 0)])
def test_scatter_nd_with_batched_rows_into_a_slice_batched_argument(ref_axis, depth, in_axes,
                                                                    upd_axis):
    """Batched index rows into a Parameter batched inside the slices they write: the rows
    are lengthened to the batch axis; the same as a loop of per-example scatters (NumPy)."""
    r = np.random.default_rng(6)
    per = r.uniform(1, 2, (3, 2, 4, 3)).astype(np.float32)  # (batch, 2, 4, 3)
    idx = r.integers(0, 2, (3, 2, depth)).astype(np.int32)
    upd = r.uniform(1, 2, (3, 2) + per.shape[1 + depth:]).astype(np.float32)
    want = per.copy()
    for k in range(3):
        u = upd[k] if in_axes[1] == 0 else upd[0]
        for row, v in zip(idx[k], u):
            want[(k,) + tuple(row)] += v

    def scatter(p, i, u):
        ops.ScatterNdAdd()(p, i, u)
        return p * 1

    idx_in = np.moveaxis(idx, 0, in_axes[0]).copy()
    upd_in = np.moveaxis(upd, 0, upd_axis).copy() if in_axes[1] == 0 else upd[0]
    axes = (ref_axis, in_axes[0], upd_axis if in_axes[1] == 0 else None)
    w = Parameter(Tensor(np.moveaxis(per, 0, ref_axis).copy()), name="w")
    got = ms.vmap(scatter, in_axes=axes)(w, Tensor(idx_in), Tensor(upd_in))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(np.moveaxis(w.asnumpy(), ref_axis, 0), want, rtol=1e-6)
