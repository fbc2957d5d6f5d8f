"""COOTensor and CSRTensor (common/sparse_tensor.py, ops/sparse_methods.py, ops/sparse_unary.py):
MindSpore-recorded results (fixtures/record_sparse_tensors.py) for what MindSpore CPU runs,
NumPy references for the CSR products and conversions (MindSpore CPU builds those with
AKG), and PYNATIVE == GRAPH."""
import json
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import COOTensor, CSRTensor, Tensor, context, jit, nn, ops
from graphkiln.ops.operations import _csr_ops

REC = json.loads((Path(__file__).parent / "fixtures" / "sparse_tensors.json").read_text())
DENSE = np.asarray(REC["dense"], np.float32)


@pytest.fixture(autouse=True)
def _pynative():
    context.set_context(mode=context.PYNATIVE_MODE)
    yield
    context.set_context(mode=context.PYNATIVE_MODE)


def csr(parts=None):
    indptr, indices, values, shape = parts or REC["csr_a"]
    return CSRTensor(Tensor(indptr, ms.int32), Tensor(indices, ms.int32),
                     Tensor(values, ms.float32), tuple(shape))


def coo(parts=None):
    indices, values, shape = parts or REC["coo_a"]
    return COOTensor(Tensor(indices, ms.int64), Tensor(values, ms.float32), tuple(shape))


def np_dense(parts=None) -> np.ndarray:
    indptr, indices, values, shape = parts or REC["csr_a"]
    out = np.zeros(shape, np.float32)
    for r in range(shape[0]):
        for k in range(indptr[r], indptr[r + 1]):
            out[r, indices[k]] += values[k]
    return out


def np_rows(parts=None) -> np.ndarray:
    indptr = (parts or REC["csr_a"])[0]
    return np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))


def both_modes(fn, *args):
    """``fn(*args)`` eagerly and under ``@jit``."""
    return fn(*args), jit(fn)(*args)


def test_csr_conversions_and_products_match_numpy():
    a = csr()
    rows, cols = np_rows(), np.asarray(REC["csr_a"][1])
    column = np.array([[1.0], [2.0], [-1.0], [0.5]], np.float32)
    matrix = DENSE.T[:, :2].copy()

    def run(x):
        return (x.to_dense(), x.to_coo().indices, (x * Tensor(DENSE)).values,
                (Tensor(DENSE) * x).values, (x / Tensor(DENSE + 10)).values,
                ops.csr_reduce_sum(x, 1), ops.csr_mv(x, Tensor(column)), x.mm(Tensor(matrix)))
    dense = np_dense()
    expect = (dense, np.stack([rows, cols], 1), a.values.asnumpy() * DENSE[rows, cols],
              a.values.asnumpy() * DENSE[rows, cols], a.values.asnumpy() / (DENSE + 10)[rows, cols],
              dense.sum(1, keepdims=True), dense @ column, dense @ matrix)
    for out in both_modes(run, a):
        for got, want in zip(out, expect):
            np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)


def test_csr_broadcast_mul_and_batched_values():
    """``csr * dense`` broadcasts the dense tensor; values may carry trailing dims."""
    x = CSRTensor(Tensor([0, 1, 1, 2, 2], ms.int32), Tensor([0, 1], ms.int32),
                  Tensor([[2, 1, 3], [2, 1, 3]], ms.float32), (4, 2, 3))
    dense = np.tile(np.array([[1.0], [2.0]], np.float32), (4, 1, 3))
    got = (x * Tensor(dense)).values.asnumpy()
    np.testing.assert_allclose(got, [[2, 1, 3], [4, 2, 6]])
    np.testing.assert_allclose(ops.csr_reduce_sum(x, 1).asnumpy()[[0, 2], 0], [[2, 1, 3]] * 2)
    gathered = _csr_ops.CSRGather()(x.indptr, x.indices, Tensor(dense), (4, 2, 3))
    np.testing.assert_allclose(gathered.asnumpy(), [[1, 1, 1], [2, 2, 2]])


def test_coo_to_csr_sorts_rows():
    x = COOTensor(Tensor([[1, 2], [0, 1]], ms.int32), Tensor([2, 1], ms.float32), (3, 4))
    for c in both_modes(lambda t: t.to_csr(), x):
        assert isinstance(c, CSRTensor)
        np.testing.assert_array_equal(c.indptr.asnumpy(), [0, 1, 2, 2])
        np.testing.assert_array_equal(c.indices.asnumpy(), [1, 2])
        np.testing.assert_array_equal(c.values.asnumpy(), [1, 2])


@pytest.mark.parametrize("key", ["csr_add", "csr_add_scaled"])
def test_csr_add_recorded(key):
    alpha, beta, indptr, indices, values = REC[key]

    def run(a, b):
        return ops.csr_add(a, b, Tensor(alpha, ms.float32), Tensor(beta, ms.float32))
    for c in both_modes(run, csr(), csr(REC["csr_b"])):
        np.testing.assert_array_equal(c.indptr.asnumpy(), indptr)
        np.testing.assert_array_equal(c.indices.asnumpy(), indices)
        np.testing.assert_allclose(c.values.asnumpy(), values)
        assert c.shape == (3, 4)


def test_csr_operators_chain_through_unknown_sizes():
    """``-x + y + z``: the second sum takes the first's data-dependent size in a graph."""
    a = csr()
    for c in both_modes(lambda x: -x + x + x, a):
        np.testing.assert_allclose(c.to_dense().asnumpy(), np_dense())


@pytest.mark.parametrize("key", ["coo_add", "coo_add_thresh"])
def test_coo_add_recorded(key):
    thresh, indices, values = REC[key]
    for s in both_modes(lambda a, b: a.add(b, Tensor(thresh, ms.float32)), coo(),
                        coo(REC["coo_b"])):
        np.testing.assert_array_equal(s.indices.asnumpy(), indices)
        np.testing.assert_allclose(s.values.asnumpy(), values)


def test_coo_operators_recorded():
    add, rsub, mul, div = REC["coo_dense_ops"]
    sub_indices, sub_values = REC["coo_sub"]

    def run(a, b, d):
        return a - b, a + d, d - a, (a * d).values, (d * a).values, (a / (d + 10)).values
    for s, *dense in both_modes(run, coo(), coo(REC["coo_b"]), Tensor(DENSE)):
        np.testing.assert_array_equal(s.indices.asnumpy(), sub_indices)
        np.testing.assert_allclose(s.values.asnumpy(), sub_values)
        for got, want in zip(dense, (add, rsub, mul, mul, div)):
            np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)


def test_gradient_of_a_csr_input_recorded():
    """PyNative: the gradient of its values; a graph: a CSRTensor of zero indices."""
    class Scale(nn.Cell):
        def construct(self, x, y):
            return CSRTensor(y.indptr, y.indices, y.values * x, y.shape)

    for mode, key in ((context.PYNATIVE_MODE, "pynative"), (context.GRAPH_MODE, "graph")):
        context.set_context(mode=mode)
        dx, kind, parts = REC["grad_of_csr_input"][key]
        g = ops.GradOperation(get_all=True)(Scale())(Tensor(3.0, ms.float32), csr())
        assert g[0].asnumpy() == dx and type(g[1]).__name__ == kind
        got = g[1].to_tuple()[:3] if isinstance(g[1], CSRTensor) else (g[1],)
        for t, want in zip(got, parts):
            np.testing.assert_array_equal(t.asnumpy(), want)


def test_gradient_through_to_dense_and_mul():
    """d/dvalues of sum(w * to_dense) is w at the stored positions; indices get zeros."""
    rows, cols = np_rows(), np.asarray(REC["csr_a"][1])
    a = csr()

    def loss(indptr, indices, values):
        x = CSRTensor(indptr, indices, values, (3, 4))
        return (x.to_dense() * Tensor(DENSE)).sum() + (x * Tensor(DENSE)).values.sum()
    g = ops.GradOperation(get_all=True)(jit(loss))(a.indptr, a.indices, a.values)
    np.testing.assert_array_equal(g[0].asnumpy(), 0)
    np.testing.assert_array_equal(g[1].asnumpy(), 0)
    np.testing.assert_allclose(g[2].asnumpy(), 2 * DENSE[rows, cols])


def test_csr_in_a_while_loop():
    class Net(nn.Cell):
        def construct(self, a, b, x):
            while a > b:
                x = CSRTensor(x.indptr, x.indices, x.values * 2, x.shape)
                b = b + 1
            return x
    context.set_context(mode=context.GRAPH_MODE)
    out = Net()(Tensor(3, ms.int32), Tensor(0, ms.int32), csr())
    np.testing.assert_allclose(out.values.asnumpy(), np.asarray(REC["csr_a"][2]) * 8)
    assert out.shape == (3, 4)


@pytest.mark.parametrize("name", ["cos", "relu6", "softsign", "isinf", "sigmoid", "neg"])
def test_unary_functions_apply_to_values(name):
    dense_fn = {"cos": np.cos, "relu6": lambda v: np.clip(v, 0, 6),
                "softsign": lambda v: v / (1 + np.abs(v)), "isinf": np.isinf,
                "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "neg": np.negative}[name]
    values = np.asarray(REC["csr_a"][2], np.float32)
    c = getattr(ops, f"csr_{name}")(csr())
    np.testing.assert_allclose(c.values.asnumpy(), dense_fn(values), rtol=1e-6)
    np.testing.assert_array_equal(c.indptr.asnumpy(), REC["csr_a"][0])
    o = getattr(ops, f"coo_{name}")(coo())
    np.testing.assert_allclose(o.values.asnumpy(), dense_fn(np.asarray(REC["coo_a"][1])),
                               rtol=1e-6)
    with pytest.raises(TypeError, match=f"Expects CSRTensor for csr_{name}"):
        getattr(ops, f"csr_{name}")(coo())


def test_attributes_and_dtype():
    a = csr()
    assert (a.dtype, a.ndim, a.size, a.itemsize) == (ms.float32, 2, 6, 4)
    assert ops.functional.dtype(a) == ms.float32
    out = jit(lambda x: (ops.functional.dtype(x), isinstance(x, CSRTensor),
                         isinstance(x, Tensor)))(a)
    assert out == (ms.float32, True, False)
    assert CSRTensor(csr_tensor=a).shape == (3, 4)
    assert coo().to_tuple()[2] == (3, 4)


@pytest.mark.parametrize("build, error, match", [
    (lambda: COOTensor([[0, 1]], Tensor([1.0]), (3, 4)), TypeError, "'indices' must be Tensor"),
    (lambda: COOTensor(Tensor([[0, 1]]), Tensor([1.0]), (3, 4, 1)), ValueError,
     "length of 'shape' must be 2"),
    (lambda: COOTensor(Tensor([[0.0, 1.0]]), Tensor([1.0]), (3, 4)), TypeError,
     "int16 or int32 or int64"),
    (lambda: CSRTensor(Tensor([0, 1]), Tensor([0]), Tensor([1.0]), (2, 4)), ValueError,
     r"indptr must have length \(1 \+ shape\[0\]\)"),
    (lambda: CSRTensor(Tensor([0, 1, 1]), Tensor([0]), Tensor([1.0]), (2, -4)), ValueError,
     "must be positive"),
    (lambda: csr() + coo(), TypeError, "is not supported"),
    (lambda: coo() + Tensor(np.zeros((2, 2), np.float32)), ValueError, "same shape"),
])
def test_bad_input(build, error, match):
    with pytest.raises(error, match=match):
        build()


def test_dense_to_sparse_matches_numpy():
    x = np.array([[0, 1, 2, 0], [0, 0, 0, 0], [1, 0, 0, -3]], np.float32)
    rows, cols = np.nonzero(x)
    for coo_x, csr_x in both_modes(lambda t: (t.to_coo(), t.to_csr()), Tensor(x)):
        np.testing.assert_array_equal(coo_x.indices.asnumpy(), np.stack([rows, cols], 1))
        np.testing.assert_array_equal(coo_x.values.asnumpy(), x[rows, cols])
        np.testing.assert_array_equal(csr_x.indptr.asnumpy(), [0, 2, 2, 4])
        np.testing.assert_array_equal(csr_x.indices.asnumpy(), cols)
        assert csr_x.indptr.dtype == ms.int32 and csr_x.shape == (3, 4)
    w = np.arange(4, dtype=np.float32) + 1
    g = ops.grad(jit(lambda t: (t.to_coo().values * Tensor(w)).sum()))(Tensor(x))
    expect = np.zeros_like(x)
    expect[rows, cols] = w
    np.testing.assert_array_equal(g.asnumpy(), expect)
    with pytest.raises(ValueError, match="only support 2-D"):
        Tensor(np.ones((2, 2, 2), np.float32)).to_csr()
