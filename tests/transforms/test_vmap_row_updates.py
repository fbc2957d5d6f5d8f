"""vmap of the row updates of weights (``SparseApplyAdagrad``, ``SparseApplyAdagradV2``,
``SparseApplyFtrl``: ``ROW_UPDATES`` of ops/rules/batching_nn.py): each example's indices
address its own rows of the weights batched on axis 0. The batched update equals a loop of
per-example updates (outputs and the weights afterwards), in GRAPH and PyNative, with the
indices batched or shared; weights batched on another axis: a clear error."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops
from graphkiln.ops.rules.batching_nn import ROW_UPDATES

OPS = {
    "SparseApplyAdagrad": (2, {"lr": 0.1}),
    "SparseApplyAdagradV2": (2, {"lr": 0.1, "epsilon": 1e-6}),
    "SparseApplyFtrl": (3, {"lr": 0.1, "l1": 0.01, "l2": 0.02, "lr_power": -0.5}),
}
B, ROWS = 3, 5
IDX = np.array([[0, 3, 3], [4, 1, 0], [2, 2, 2]], np.int32)  # repeats within an example


def test_ops_cover_the_row_updates():
    assert sorted(OPS) == sorted(ROW_UPDATES)


def _weights(n, rng):
    return [rng.uniform(0.1, 1.0, (B, ROWS, 2)).astype(np.float32) for _ in range(n)]


def _loop(name, weights, grad, idx):
    n, attrs = OPS[name]
    op = getattr(ops, name)(**attrs)
    outs, finals = [], []
    for k in range(B):
        params = [Parameter(Tensor(w[k]), name=f"w{i}") for i, w in enumerate(weights)]
        out = op(*params, Tensor(grad[k]), Tensor(idx[k] if idx.ndim == 2 else idx))
        outs.append([o.asnumpy() for o in out])
        finals.append([p.asnumpy() for p in params])
    stack = lambda rows: [np.stack(c) for c in zip(*rows)]  # noqa: E731
    return stack(outs), stack(finals)


class _Net(nn.Cell):
    def __init__(self, name, weights, idx_axis):
        super().__init__()
        n, attrs = OPS[name]
        self.params = [Parameter(Tensor(w), name=f"w{i}") for i, w in enumerate(weights)]
        for i, p in enumerate(self.params):
            setattr(self, f"w{i}", p)
        op = getattr(ops, name)(**attrs)
        self.vmapped = ops.vmap(op, in_axes=(0,) * n + (0, idx_axis))

    def construct(self, grad, idx):
        return self.vmapped(*self.params, grad, idx)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("shared", [False, True], ids=["batched_indices", "shared_indices"])
@pytest.mark.parametrize("name", sorted(OPS))
def test_batched_update_equals_per_example_loop(name, shared, mode):
    rng = np.random.default_rng(7)
    weights = _weights(OPS[name][0], rng)
    grad = rng.standard_normal((B, 3, 2)).astype(np.float32)
    idx = IDX[1] if shared else IDX
    want_out, want_w = _loop(name, weights, grad, idx)
    ms.set_context(mode=mode)
    try:
        net = _Net(name, weights, None if shared else 0)
        out = net(Tensor(grad), Tensor(idx))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for got, want in zip(out, want_out):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6, atol=1e-7)
    for p, want in zip(net.params, want_w):
        np.testing.assert_allclose(p.asnumpy(), want, rtol=1e-6, atol=1e-7)


def test_weights_batched_on_another_axis_raise():
    w = [Parameter(Tensor(np.ones((ROWS, B, 2), np.float32)), name=f"w{i}") for i in range(2)]
    op = ops.SparseApplyAdagrad(lr=0.1)
    f = ops.vmap(lambda a, b, g, i: op(a, b, g, i), in_axes=(1, 1, 0, 0))
    with pytest.raises(ValueError, match="batched on axis 0"):
        f(*w, Tensor(np.ones((B, 3, 2), np.float32)), Tensor(IDX))
