"""Extra tests for what the tests/st/pi_jit s4o2 slice needed (recorded cases:
fixtures/api_pijit_s4o2_cases.py)."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops


class _Write(nn.Cell):
    def __init__(self, op, shape):
        super().__init__()
        self.op = op
        self.w = Parameter(Tensor(np.ones(shape, np.float32)), name="w")

    def construct(self, v):
        return self.op(self.w, v)


@pytest.mark.parametrize("op, ref, val", [(ops.AssignAdd, (), (1,)), (ops.AssignAdd, (1,), ()),
                                          (ops.AssignSub, (), (1,)), (ops.AssignSub, (1,), ())])
def test_scalar_and_one_element_writes_in_a_graph(op, ref, val):
    """A graph writes as PyNative does, and the weight keeps its shape."""
    v = Tensor(np.full(val, 3, np.float32))
    eager, graph = _Write(op(), ref), _Write(op(), ref)
    graph.construct = ms.jit(graph.construct)
    out_e, out_g = eager(v), graph(v)
    assert graph.w.shape == eager.w.shape == ref and out_g.shape == ref
    np.testing.assert_array_equal(graph.w.asnumpy(), eager.w.asnumpy())
    np.testing.assert_array_equal(out_g.asnumpy(), out_e.asnumpy())


@pytest.mark.parametrize("graph", [False, True])
def test_write_shape_messages(graph):
    """MindSpore's words: rank first, then shape; Assign refuses a scalar for a vector."""
    def run(op, ref, val):
        net = _Write(op(), ref)
        if graph:
            net.construct = ms.jit(net.construct)
        return net(Tensor(np.ones(val, np.float32)))
    with pytest.raises(ValueError, match=r"For 'AssignAdd','value' must have the same rank as "
                       r"'variable'. But got 'value' rank: 2, 'variable' rank: 0."):
        run(ops.AssignAdd, (), (1, 1))
    with pytest.raises(ValueError, match=r"For 'AssignSub','value' must have the same shape as "
                       r"'variable'. But got 'value' shape: \(2, 3\), 'variable' shape: "
                       r"\(2, 2\)."):
        run(ops.AssignSub, (2, 2), (2, 3))
    with pytest.raises(RuntimeError, match="For 'Assign', the 'x' and 'y' must have the same "
                       "dimension, but got the dimension of 'x': 0 and the dimension of 'y': 1"):
        run(ops.Assign, (), (1,))


def _tensor_copies(x):
    return (Tensor(x), ms.tensor(x, x.dtype), Tensor(x, ms.float16) * 2,
            ms.tensor(x + 1, dtype=ms.int32), ms.tensor([x, x * 2]),
            Tensor([[x], [x]], ms.float64))


@pytest.mark.parametrize("capture", ["ast", "bytecode"])
def test_tensor_of_a_graph_tensor(capture):
    """``Tensor(x)``/``ms.tensor(x, dtype)`` of a graph Tensor or a list of them inside a
    graph: a copy (stacked), cast to ``dtype``; a bytecode capture does not break there."""
    a = np.array([1.5, 2.5], np.float32)
    fn = ms.jit(_tensor_copies, capture_mode=capture)
    got = fn(Tensor(a))
    want = [(a, np.float32), (a, np.float32), (2 * a, np.float16), (a + 1, np.int32),
            (np.stack([a, 2 * a]), np.float32), (np.stack([[a], [a]]), np.float64)]
    for g, (values, dtype) in zip(got, want):
        assert g.asnumpy().dtype == dtype
        np.testing.assert_array_equal(g.asnumpy(), values.astype(dtype))
    if capture == "bytecode":
        assert ms.compile.pijit.record_of(_tensor_copies).break_count == 0


def _copy_loss(x):
    return (Tensor(x) * x).sum() + ms.tensor([x, 3 * x]).sum()


def test_tensor_of_a_graph_tensor_gradient():
    """The copy is differentiable: d/dx sum(Tensor(x) * x) = 2x, and a stacked list
    passes each item's gradient back."""
    a = np.array([1.5, -2.5], np.float32)
    grad = ms.jit(ms.grad(_copy_loss))
    np.testing.assert_allclose(grad(Tensor(a)).asnumpy(), 2 * a + 4, rtol=1e-6)


def _with_shape(x):
    return Tensor(x, ms.float32, (2,))


def _with_number(x):
    return Tensor([x, 1.0])


def test_tensor_of_a_graph_tensor_errors():
    """Only the data and dtype may be given; a list must hold Tensors."""
    x = Tensor(np.ones(2, np.float32))
    with pytest.raises(TypeError, match="'shape' and 'init' cannot be given"):
        ms.jit(_with_shape)(x)
    with pytest.raises(TypeError, match="must hold only Tensors"):
        ms.jit(_with_number)(x)
