"""vmap of the element-wise weight updates (``ApplyAdadelta``...: ``ELEMENTWISE_UPDATES`` of
ops/rules/batching_nn.py): one update of the caller's whole weights equals a loop of
per-example updates on the examples' slices (outputs and the weights afterwards), with
per-example hyper-parameters and gradients, weights batched on axis 0 or 1, in a Cell
(GRAPH) and in PyNative. Weights not batched while the gradient is: a clear error."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn, ops
from graphkiln.ops.rules.batching_nn import ELEMENTWISE_UPDATES

W, G = "w", "g"
# the inputs of each update: weights, the gradient, hyper-parameters (the first one is
# given per example)
SPECS = {
    "ApplyMomentum": ((W, W, 0.1, G, 0.9), {}),
    "ApplyRMSProp": ((W, W, W, 0.01, G, 0.9, 0.5, 1e-6), {}),
    "ApplyAdagrad": ((W, W, 0.1, G), {}),
    "ApplyAdagradV2": ((W, W, 0.1, G), {"epsilon": 1e-6}),
    "ApplyAdaMax": ((W, W, W, 0.5, 0.1, 0.9, 0.99, 1e-6, G), {}),
    "ApplyAdadelta": ((W, W, W, 0.1, 0.9, 1e-6, G), {}),
    "ApplyAddSign": ((W, W, 0.1, 1.0, 0.5, 0.9, G), {}),
    "ApplyPowerSign": ((W, W, 0.1, 2.718, 0.5, 0.9, G), {}),
    "ApplyGradientDescent": ((W, 0.1, G), {}),
    "ApplyProximalGradientDescent": ((W, 0.1, 0.01, 0.02, G), {}),
    "ApplyAdagradDA": ((W, W, W, G, 0.1, 0.01, 0.02, 2), {}),  # global_step an int
    "ApplyFtrl": ((W, W, W, G, 0.1, 0.01, 0.02, -0.5), {}),
    "ApplyProximalAdagrad": ((W, W, 0.1, 0.01, 0.02, G), {}),
    "ApplyCenteredRMSProp": ((W, W, W, W, G, 0.01, 0.9, 0.5, 1e-6), {}),
    "ApplyAdamWithAmsgrad": ((W, W, W, W, 0.5, 0.9, 0.01, G), {"beta1": 0.8}),
    "Adam": ((W, W, W, 0.9, 0.999, 0.01, 0.9, 0.999, 1e-8, G), {}),
}
B = 3


def _hyper(h) -> Tensor:
    """A shared hyper-parameter as a 0-d Tensor (int32 for an int, else float32)."""
    return Tensor(np.int32(h) if isinstance(h, int) else np.float32(h))


def test_specs_cover_the_batched_updates():
    assert sorted(SPECS) == sorted(ELEMENTWISE_UPDATES)


def _inputs(kinds, axis, rng):
    """The batched weights (axis ``axis``), gradient (axis 0) and hyper-parameters."""
    shape = [2, 4]
    shape.insert(axis, B)
    weights = [rng.uniform(0.1, 1.0, shape).astype(np.float32) for k in kinds if k == W]
    grad = rng.standard_normal([B, 2, 4]).astype(np.float32)
    hypers = [k for k in kinds if k not in (W, G)]
    first = np.float32(hypers[0]) * (1 + np.arange(B, dtype=np.float32) / 4)
    return weights, grad, first, hypers[1:]


def _loop(name, kinds, attrs, weights, grad, first, rest, axis):
    """Each example updated on its own: the stacked outputs and weights."""
    op = getattr(ops, name)(**attrs)
    outs, finals = [], []
    for k in range(B):
        params = iter([Parameter(Tensor(np.take(w, k, axis)), name=f"w{i}")
                       for i, w in enumerate(weights)])
        hyper = iter([Tensor(first[k])] + [_hyper(h) for h in rest])
        args = [next(params) if kd == W else Tensor(grad[k]) if kd == G else next(hyper)
                for kd in kinds]
        out = op(*args)
        outs.append([o.asnumpy() for o in (out if isinstance(out, tuple) else (out,))])
        finals.append([a.asnumpy() for a, kd in zip(args, kinds) if kd == W])
    stack = lambda rows: [np.stack(c, axis) for c in zip(*rows)]  # noqa: E731
    return stack(outs), stack(finals)


class _Net(nn.Cell):
    def __init__(self, name, kinds, attrs, weights, axis):
        super().__init__()
        self.weights = [Parameter(Tensor(w), name=f"w{i}") for i, w in enumerate(weights)]
        for i, p in enumerate(self.weights):
            setattr(self, f"w{i}", p)
        op = getattr(ops, name)(**attrs)
        in_axes = [axis] * len(weights) + [0 if i == 0 else None for i in range(
            sum(k not in (W, G) for k in kinds))] + [0]
        self.kinds = kinds

        def update(*args):
            ws, hs, g = args[:len(weights)], args[len(weights):-1], args[-1]
            it_w, it_h = iter(ws), iter(hs)
            return op(*[next(it_w) if k == W else g if k == G else next(it_h) for k in kinds])
        self.vmapped = ops.vmap(update, in_axes=tuple(in_axes), out_axes=axis)

    def construct(self, first, grad):
        return self.vmapped(*self.weights, first, *self.rest, grad)


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("name", sorted(SPECS))
def test_vmap_update_equals_per_example_loop(name, axis):
    kinds, attrs = SPECS[name]
    weights, grad, first, rest = _inputs(kinds, axis, np.random.default_rng(0))
    want_out, want_weights = _loop(name, kinds, attrs, weights, grad, first, rest, axis)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _Net(name, kinds, attrs, weights, axis)
        net.rest = tuple(_hyper(h) for h in rest)
        out = net(Tensor(first), Tensor(grad))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    out = out if isinstance(out, tuple) else (out,)
    assert len(out) == len(want_out)
    for got, want in zip(out, want_out):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)
    for p, want in zip(net.weights, want_weights):
        np.testing.assert_allclose(p.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_unbatched_weight_with_a_batched_gradient_is_refused():
    var = Parameter(Tensor(np.ones((2, 4), np.float32)), name="var")

    def update(v, g):
        return ops.ApplyGradientDescent()(v, Tensor(np.float32(0.1)), g)
    with pytest.raises(ValueError, match="ApplyGradientDescent"):
        ops.vmap(update, in_axes=(None, 0))(var, Tensor(np.ones((3, 2, 4), np.float32)))


class _Nested(nn.Cell):
    """vmap of vmap: weights ``(2, 3, 4)``, ``lr`` one per pair of examples, ``rho`` one per
    inner example, the gradient shared (unbatched)."""

    def __init__(self, weights):
        super().__init__()
        self.w = [Parameter(Tensor(w), name=f"w{i}") for i, w in enumerate(weights)]
        self.w0, self.w1, self.w2 = self.w
        op = ops.ApplyAdadelta()
        inner = ops.vmap(lambda v, a, u, lr, rho, g: op(v, a, u, lr, rho, 1e-6, g),
                         in_axes=(0, 0, 0, 0, 0, None))
        self.outer = ops.vmap(inner, in_axes=(0, 0, 0, 0, None, None))

    def construct(self, lr, rho, grad):
        return self.outer(self.w0, self.w1, self.w2, lr, rho, grad)


def test_nested_vmap_with_shared_gradient_equals_double_loop():
    rng = np.random.default_rng(1)
    weights = [rng.uniform(0.1, 1.0, (2, 3, 4)).astype(np.float32) for _ in range(3)]
    lr = rng.uniform(0.01, 0.1, (2, 3)).astype(np.float32)
    rho = np.array([0.9, 0.95, 0.8], np.float32)
    grad = rng.standard_normal(4).astype(np.float32)
    want = [w.copy() for w in weights]
    for i in range(2):
        for j in range(3):
            ps = [Parameter(Tensor(w[i, j]), name=f"p{k}") for k, w in enumerate(weights)]
            ops.ApplyAdadelta()(*ps, Tensor(lr[i, j]), Tensor(rho[j]), Tensor(np.float32(1e-6)),
                                Tensor(grad))
            for w, p in zip(want, ps):
                w[i, j] = p.asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _Nested(weights)
        out = net(Tensor(lr), Tensor(rho), Tensor(grad))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for got, p, w in zip(out, net.w, want):
        np.testing.assert_allclose(got.asnumpy(), w, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(p.asnumpy(), w, rtol=1e-5, atol=1e-6)
