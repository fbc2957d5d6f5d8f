"""MarginRankingLoss, HingeEmbeddingLoss, GaussianNLLLoss and MultiLabelSoftMarginLoss
against NumPy references (fixtures/loss_extra_cases.py; fixtures/check_loss_extra_ms.py
checks that MindSpore 2.10 gives the same), in PYNATIVE and GRAPH mode, their gradients
against finite differences, and their argument errors."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops

sys.path.insert(0, str(Path(__file__).resolve().parent / "fixtures"))
from loss_extra_cases import X1, X2, cases, reduce  # noqa: E402

CASES = cases(nn, Tensor)
MODES = {"pynative": ms.PYNATIVE_MODE, "graph": ms.GRAPH_MODE}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_loss_matches_numpy(name, reduction, mode):
    ms.set_context(mode=MODES[mode])
    make, inputs, ref = CASES[name]
    out = make(reduction)(*(Tensor(a) for a in inputs))
    np.testing.assert_allclose(out.asnumpy(), reduce(ref, reduction), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["margin_ranking", "gaussian_nll", "multilabel_soft_margin"])
def test_loss_gradient_matches_finite_differences(name):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    make, inputs, _ = CASES[name]
    loss = make("sum")
    rest = [Tensor(a) for a in inputs[1:]]
    grad = ms.grad(lambda x: loss(x, *rest))(Tensor(inputs[0])).asnumpy()
    x, h = inputs[0].astype(np.float64), 1e-3
    numeric = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] -= h
        value = [float(loss(Tensor(v.astype(np.float32)), *rest).asnumpy()) for v in (up, down)]
        numeric[i] = (value[0] - value[1]) / (2 * h)
    np.testing.assert_allclose(grad, numeric, rtol=2e-2, atol=2e-3)


def test_argument_errors_have_mindspore_types():
    with pytest.raises(TypeError, match="margin"):
        ops.margin_ranking_loss(Tensor(X1), Tensor(X2), Tensor(X1), margin=1)
    with pytest.raises(TypeError, match="dtype"):
        ops.margin_ranking_loss(Tensor(X1), Tensor(X2.astype(np.float16)), Tensor(X1))
    with pytest.raises(TypeError, match="must be float"):
        ops.hinge_embedding_loss(Tensor(X1), Tensor(np.ones((3, 4), np.int32)))
    with pytest.raises(ValueError, match="eps"):
        nn.GaussianNLLLoss(eps=0.0)
    with pytest.raises(ValueError, match="eps"):
        ops.gaussian_nll_loss(Tensor(X1), Tensor(X2), Tensor(X1), eps=1)
    with pytest.raises(ValueError, match="reduction"):
        nn.MultiLabelSoftMarginLoss(reduction="avg")
