"""``_grad_ops.LayerNormGrad`` against MindSpore 2.10 (fixtures/api_layer_norm_grad.json by
fixtures/record_api_cases.py); GRAPH == PYNATIVE; equal to LayerNorm's own gradient."""
import sys
from pathlib import Path

import numpy as np
import pytest

from graphkiln import Tensor, ops
from graphkiln.ops.operations import _grad_ops as G

sys.path.insert(0, str(Path(__file__).resolve().parent))



def test_equals_layer_norm_gradient():
    r = np.random.default_rng(3)
    x, dy = (Tensor(r.standard_normal((3, 5))) for _ in range(2))
    gamma, beta = Tensor(r.standard_normal(5)), Tensor(r.standard_normal(5))
    norm = ops.LayerNorm(1, 1, 1e-12)
    _, mean, var = norm(x, gamma, beta)
    grad = ops.GradOperation(get_all=True, sens_param=True)
    want = grad(lambda a, g, b: norm(a, g, b)[0])(x, gamma, beta, dy)
    got = G.LayerNormGrad(1, 1)(x, dy, var, mean, gamma)
    for w, g in zip(want, got):  # (LayerNorm keeps its statistics in float32)
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-6, atol=1e-7)


def test_bad_axis():
    x = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="'begin_norm_axis' must be in"):
        G.LayerNormGrad(2, 1)(x, x, x, x, x)
    with pytest.raises(TypeError, match="'begin_params_axis' must be an int"):
        G.LayerNormGrad(1, 1.0)


def test_unknown_dimensions_give_the_static_results():
    """Under ``set_inputs`` with unknown dimensions the group size is known only when the
    graph runs: the results equal the static call's for two shapes."""
    import graphkiln as ms

    class Net(ms.nn.Cell):
        def construct(self, *args):
            return G.LayerNormGrad(1, 1)(*args)

    net = Net()
    net.set_inputs(*(Tensor(shape=[None] * n, dtype=ms.float32) for n in (2, 2, 2, 2, 1)))
    r = np.random.default_rng(5)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        for width in (3, 4):
            x, dy = (r.standard_normal((2, width)).astype(np.float32) for _ in range(2))
            args = [Tensor(x), Tensor(dy), Tensor(x.var(1, keepdims=True)),
                    Tensor(x.mean(1, keepdims=True)), Tensor(np.ones(width, np.float32))]
            got = net(*args)
            ms.set_context(mode=ms.PYNATIVE_MODE)
            want = G.LayerNormGrad(1, 1)(*args)
            ms.set_context(mode=ms.GRAPH_MODE)
            for g, w in zip(got, want):
                np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-5, atol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
