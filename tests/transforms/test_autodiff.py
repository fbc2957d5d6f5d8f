"""Autodiff (transforms/autodiff.py and ops/composite/grad.py): values against hand-derived
gradients and finite differences, GRAPH == PYNATIVE, control flow, weights, errors."""
import functools

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops
from graphkiln.transforms.autodiff import GradError


def f32(*v):
    return Tensor(np.array(v, np.float32))


def poly(x, y):
    return x * x * y + 3 * y - x / y


def test_grad_of_polynomial_matches_hand_derivative():
    x, y = f32(1.5, -2.0), f32(2.0, 4.0)
    gx, gy = ms.grad(poly, grad_position=(0, 1))(x, y)
    xn, yn = x.asnumpy(), y.asnumpy()
    np.testing.assert_allclose(gx.asnumpy(), 2 * xn * yn - 1 / yn, rtol=1e-6)
    np.testing.assert_allclose(gy.asnumpy(), xn * xn + 3 + xn / yn ** 2, rtol=1e-6)


def test_value_and_grad():
    x, y = f32(1.0), f32(2.0)
    v, g = ms.value_and_grad(poly)(x, y)
    np.testing.assert_allclose(v.asnumpy(), poly(x, y).asnumpy())
    np.testing.assert_allclose(g.asnumpy(), [2 * 1 * 2 - 1 / 2])


def branchy(x, y):
    if x.sum() > y.sum():
        z = x * y
    else:
        z = x - y * y
    return z * x


def _branchy_grads(x: np.ndarray, y: np.ndarray):
    """Hand-derived gradients of ``branchy``: x*y*x (then) or (x - y*y)*x (else)."""
    if x.sum() > y.sum():
        return 2 * x * y, x * x
    return 2 * x - y * y, -2 * y * x


@pytest.mark.parametrize("a,b", [(2.0, 1.0), (-1.0, 3.0)])  # then-branch, else-branch
def test_grad_through_tensor_if_graph_equals_pynative(a, b):
    x, y = f32(a, a + 1), f32(b, b)
    want = _branchy_grads(x.asnumpy(), y.asnumpy())
    ms.set_context(mode=ms.GRAPH_MODE)
    grad_fn = ms.jit(lambda x, y: ms.grad(branchy, grad_position=(0, 1))(x, y))
    g_graph = grad_fn(x, y)
    info = ms.compile_info(grad_fn)
    assert info.count("Switch") >= 1, "the tensor `if` must be a Switch in the compiled graph"
    ms.set_context(mode=ms.PYNATIVE_MODE)
    g_eager = ms.grad(branchy, grad_position=(0, 1))(x, y)
    for got_graph, got_eager, w in zip(g_graph, g_eager, want):
        np.testing.assert_allclose(got_graph.asnumpy(), w, rtol=1e-6)
        np.testing.assert_allclose(got_eager.asnumpy(), w, rtol=1e-6)


def _numeric_grad(fn, args, i, eps=1e-3):
    base = [a.asnumpy().astype(np.float64) for a in args]
    g = np.zeros_like(base[i])
    for idx in np.ndindex(base[i].shape):
        for sign in (1, -1):
            pert = [b.copy() for b in base]
            pert[i][idx] += sign * eps
            out = fn(*[Tensor(p) for p in pert]).asnumpy().sum()
            g[idx] += sign * out / (2 * eps)
    return g


def test_grad_through_tensor_if_matches_finite_differences():
    x, y = Tensor(np.array([0.5, 1.5])), Tensor(np.array([0.25, 0.75]))
    gx, gy = ms.grad(branchy, grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), _numeric_grad(branchy, [x, y], 0), rtol=1e-5)
    np.testing.assert_allclose(gy.asnumpy(), _numeric_grad(branchy, [x, y], 1), rtol=1e-5)


class Linear(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(f32(1.0, 2.0), name="w")
        self.b = Parameter(f32(0.5), name="b")

    def construct(self, x):
        return (x * self.w + self.b).sum()


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_gradients_of_weights(mode):
    ms.set_context(mode=mode)
    net = Linear()
    grad_op = ops.GradOperation(get_by_list=True)
    gw, gb = grad_op(net, net.trainable_params())(f32(3.0, 4.0))
    np.testing.assert_allclose(gw.asnumpy(), [3.0, 4.0])
    np.testing.assert_allclose(gb.asnumpy(), [2.0])


def test_get_all_and_get_by_list_together():
    net = Linear()
    (gx,), (gw, gb) = ops.GradOperation(get_all=True, get_by_list=True)(
        net, net.trainable_params())(f32(3.0, 4.0))
    np.testing.assert_allclose(gx.asnumpy(), [1.0, 2.0])
    np.testing.assert_allclose(gw.asnumpy(), [3.0, 4.0])


def test_sens_param():
    g = ops.GradOperation(sens_param=True)(lambda x: x * x)(f32(1.0, 2.0), f32(10.0, 1.0))
    np.testing.assert_allclose(g.asnumpy(), [20.0, 4.0])


def test_sens_param_without_sens_is_an_error():
    with pytest.raises(GradError, match="sens"):
        ops.GradOperation(sens_param=True)(lambda x: x * x)()


def test_grad_inside_jit_and_across_jit_calls():
    @ms.jit
    def inner(x):
        return x * x * x

    @ms.jit
    def outer(x):
        return ms.grad(inner)(x) + 1

    np.testing.assert_allclose(outer(f32(2.0)).asnumpy(), [13.0])


def test_grad_through_nested_cells_with_assign():
    class Inner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(f32(2.0), name="w")

        def construct(self, x):
            ops.assign(self.w, self.w + 1)
            return x * self.w

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner()

        def construct(self, x):
            return self.inner(x) * x

    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)
        net = Outer()
        g = ms.grad(net)(f32(5.0))
        # w becomes 3 before use: d/dx (3x * x) = 6x = 30
        np.testing.assert_allclose(g.asnumpy(), [30.0])
        assert net.inner.w.asnumpy().tolist() == [3.0]


def tensor_while(x, y):
    i = x.sum() * 0
    while i < 3:
        x = x * y + ops.sin(x)
        i = i + 1
    return x.sum()


def tensor_range(x, n):
    acc = x * 0
    for _ in range(n):
        acc = acc + x * x
        x = x * 0.5
    return acc.sum()


def test_grad_through_tensor_while_matches_finite_differences():
    x, y = Tensor(np.array([0.5, 1.0])), Tensor(np.array([1.5, -0.5]))
    gx, gy = ms.grad(tensor_while, grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), _numeric_grad(tensor_while, [x, y], 0),
                               rtol=1e-5)
    np.testing.assert_allclose(gy.asnumpy(), _numeric_grad(tensor_while, [x, y], 1),
                               rtol=1e-5)


def test_grad_through_for_over_tensor_range():
    x = Tensor(np.array([1.0, 2.0]))
    g = ms.grad(tensor_range)(x, Tensor(np.array(3)))
    # acc = x^2 (1 + 1/4 + 1/16): d/dx = 2x * 1.3125
    np.testing.assert_allclose(g.asnumpy(), 2 * x.asnumpy() * 1.3125)


def test_one_grad_operation_many_functions_never_mixes_them_up():
    grad_op = ops.GradOperation()
    outs = []
    for k in range(1, 6):  # a new function each time (ids of dead ones get reused)
        outs.append(float(grad_op(lambda x, k=k: x * k)(f32(1.0)).asnumpy()[0]))
    assert outs == [1.0, 2.0, 3.0, 4.0, 5.0]


def test_grad_of_a_bound_method_is_compiled_once():
    ms.set_context(mode=ms.GRAPH_MODE)  # (PYNATIVE_MODE runs it eagerly: nothing compiles)

    class Scale(nn.Cell):
        def construct(self, x):
            return x * 3

        def twice(self, x):
            return self(x) * 2

    net = Scale()
    grad_op = ops.GradOperation()
    for _ in range(3):
        assert float(grad_op(net.twice)(f32(1.0)).asnumpy()[0]) == 6.0
    assert len(next(iter(grad_op._caches[net].values()))[1].entries) == 1


class WeightInTensorWhile(nn.Cell):
    """A Parameter used inside a tensor ``while`` loop (a loop invariant that is a Ref),
    the loop ``repeats`` times in a row (the later loops also take the monad along)."""

    def __init__(self, repeats):
        super().__init__()
        self.w = Parameter(Tensor(np.array([0.5, -1.5])), name="w")
        self.repeats = repeats

    def construct(self, x, n):
        out = x
        for _ in range(self.repeats):
            i = n * 0
            while i < n:
                out = out * self.w + x
                i = i + 1
        return out.sum()


def _numeric_weight_grad(net, param, args, eps=1e-3):
    base = param.asnumpy().copy()
    g = np.zeros_like(base)
    for idx in np.ndindex(base.shape):
        for sign in (1, -1):
            pert = base.copy()
            pert[idx] += sign * eps
            param.set_data(Tensor(pert))
            g[idx] += sign * net(*args).asnumpy() / (2 * eps)
    param.set_data(Tensor(base))
    return g


@pytest.mark.parametrize("repeats", [1, 2])
def test_grad_of_weight_in_tensor_while_graph_equals_pynative_and_finite_differences(repeats):
    x, n = Tensor(np.array([1.0, 2.0])), Tensor(np.array(3, np.int32))
    grads = {}
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)
        net = WeightInTensorWhile(repeats)
        (gx, _), (gw,) = ops.GradOperation(get_all=True, get_by_list=True)(
            net, net.trainable_params())(x, n)
        grads[mode] = gx.asnumpy(), gw.asnumpy()
        np.testing.assert_allclose(gw.asnumpy(), _numeric_weight_grad(net, net.w, (x, n)),
                                   rtol=1e-5)
        np.testing.assert_allclose(gx.asnumpy(), _numeric_grad(
            functools.partial(net, n=n), [x], 0), rtol=1e-5)
    for a, b in zip(grads[ms.GRAPH_MODE], grads[ms.PYNATIVE_MODE]):
        np.testing.assert_allclose(a, b, rtol=1e-12)


class AssignInTensorIf(nn.Cell):
    """A tensor ``if`` whose branch has a side effect: the Switch also returns a monad."""

    def __init__(self):
        super().__init__()
        self.seen = Parameter(Tensor(np.zeros(2)), name="seen", requires_grad=False)

    def construct(self, x, y):
        if x.sum() > y.sum():
            out = x * y
            ops.assign(self.seen, out)
        else:
            out = x - y * y
        return (out * x).sum()


@pytest.mark.parametrize("a", [2.0, -2.0])  # the branch with the Assign, the other one
def test_grad_through_tensor_if_with_assign_graph_equals_pynative_and_finite_differences(a):
    x, y = Tensor(np.array([a, a + 0.5])), Tensor(np.array([0.5, 1.5]))
    grads = {}
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)
        net = AssignInTensorIf()
        grads[mode] = [g.asnumpy() for g in ms.grad(net, grad_position=(0, 1))(x, y)]
        for i in (0, 1):
            np.testing.assert_allclose(grads[mode][i], _numeric_grad(net, [x, y], i),
                                       rtol=1e-5)
    for g_graph, g_eager in zip(grads[ms.GRAPH_MODE], grads[ms.PYNATIVE_MODE]):
        np.testing.assert_allclose(g_graph, g_eager, rtol=1e-12)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_bool_outputs_pass_no_gradient(mode):
    """MindSpore 2.10 gives zero gradients for a function whose output is a comparison,
    and a bool output beside a float one adds nothing (checked by hand on MindSpore)."""
    ms.set_context(mode=mode)
    try:
        x = Tensor(np.array([1.0, -2.0], np.float32))
        y = Tensor(np.array([0.5, 0.5], np.float32))

        def compare(a, b):
            return ops.greater(a, b)

        gx, gy = ms.grad(compare, grad_position=(0, 1))(x, y)
        np.testing.assert_array_equal(gx.asnumpy(), [0, 0])
        np.testing.assert_array_equal(gy.asnumpy(), [0, 0])

        def both(a, b):
            return (a * b).sum(), ops.greater(a, b)

        gx = ms.grad(both)(x, y)
        np.testing.assert_array_equal(gx.asnumpy(), [0.5, 0.5])
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)


def test_backward_nodes_are_located_at_their_forward_line():
    """A backward rule's nodes carry the forward node's source line (MindSpore's backward
    nodes name their forward node), not the line of the call that took the gradient."""
    def forward(x, w):
        h = ops.relu(x * w)  # the forward line of ReLU and Mul
        return h.sum()

    line = forward.__code__.co_firstlineno + 1
    ms.set_context(mode=ms.GRAPH_MODE)
    grad_fn = ms.jit(lambda x, w: ms.grad(forward, grad_position=(0, 1))(x, w))
    grad_fn(f32(1.0, -2.0), f32(3.0, 4.0))
    graph = ms.compile_info(grad_fn).graph
    from graphkiln.ir.anf import iter_nodes
    located = {n.prim_name(): n.loc for _, order in iter_nodes(graph) for n in order
               if n.prim_name() in ("ReluGrad", "Mul") and n.loc is not None}
    assert located["ReluGrad"].lineno == line
    assert located["ReluGrad"].filename == __file__
