"""ForwardValueAndGrad, GradAccumulationCell and nn.Jvp/nn.Vjp against MindSpore 2.10
(fixtures/record_wrapper_breadth.py) in PYNATIVE and GRAPH mode, and argument errors."""
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from wrapper_breadth_cases import cases, leaves  # noqa: E402

RECORDED = np.load(FIXTURES / "wrapper_breadth.npz")
CASES = cases(ms, nn, ops)
MODES = {"pynative": ms.PYNATIVE_MODE, "graph": ms.GRAPH_MODE}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name, mode):
    ms.set_context(mode=MODES[mode])
    factory, inputs = CASES[name]
    got = leaves(factory()(*[Tensor(a) for a in inputs]))
    assert len(got) == int(RECORDED[f"{name}/count"])
    for i, v in enumerate(got):
        np.testing.assert_allclose(v, RECORDED[f"{name}/{i}"], rtol=1e-5, atol=1e-5,
                                   err_msg=f"{name} output {i}")


def test_grad_accumulation_is_the_sum_over_micro_batches():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    factory, (x, y) = CASES["grad_accumulation"]
    cell = factory()
    whole = cell.network(Tensor(x), Tensor(y)).asnumpy()  # a sum of squares: splits add up
    np.testing.assert_allclose(cell(Tensor(x), Tensor(y)).asnumpy(), whole, rtol=1e-6)
    with pytest.raises(ValueError, match="divided by micro size"):
        nn.GradAccumulationCell(cell.network, 3)(Tensor(x), Tensor(y))


def test_argument_errors():
    net = CASES["grad_accumulation"][0]().network
    with pytest.raises(TypeError, match="network"):
        nn.ForwardValueAndGrad(3)
    with pytest.raises(TypeError, match="get_all"):
        nn.ForwardValueAndGrad(net, get_all=1)
    with pytest.raises(TypeError, match="weights"):
        nn.ForwardValueAndGrad(net, get_by_list=True)
    with pytest.raises(TypeError, match="micro_size"):
        nn.GradAccumulationCell(net, 2.0)
    with pytest.raises(ValueError, match="micro_size"):
        nn.GradAccumulationCell(net, 0)
