"""Spec: "Optimizing Redundant Video Memory Copy Operations" — BackwardNet at every
``MS_DEV_SIDE_EFFECT_LOAD_ELIM`` level, its IR, and the level-3 hazard."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, context
from graphkiln.examples.spec import BackwardNet, ForwardNet  # noqa: E402  (spec code)


def _run(level, monkeypatch, mode=context.GRAPH_MODE):
    monkeypatch.setenv("MS_DEV_SIDE_EFFECT_LOAD_ELIM", str(level))
    context.set_context(mode=mode)
    net = BackwardNet(ForwardNet())
    grads = net(Tensor(np.array(1), ms.int32))
    return net, grads


@pytest.mark.parametrize("level", [0, 1, 2])
def test_backward_net_gives_3(level, monkeypatch):
    _, grads = _run(level, monkeypatch)
    output_except = (Tensor(np.array(3), ms.int32),)
    assert isinstance(grads, tuple) and len(grads) == 1
    assert grads[0].dtype == ms.int32
    assert np.all(grads == output_except)


def test_pynative_gives_3(monkeypatch):
    _, grads = _run(1, monkeypatch, context.PYNATIVE_MODE)
    assert grads[0].asnumpy() == 3


def _ops(ir: str) -> list:
    body = ir.split("subgraph @BackwardNet_construct() {")[1].split("}")[0]
    return [line.split("= ")[1].split("(")[0] for line in body.strip().splitlines()
            if "= " in line]


def test_level1_ir_has_the_specs_second_listing_shape(monkeypatch):
    net, _ = _run(1, monkeypatch)
    ir = ms.compile_info(net).ir()
    assert ir.startswith("# IR entry: @BackwardNet_construct\n# Total subgraphs: 1\n"
                         "# Total params: 2\n# Params:\n"
                         "%para1_inputs0 : <Tensor[Int32], ()>\n"
                         "%para2_param : <Ref[Tensor[Int32]], (), ref_key=:param>  :  "
                         "has_default\n")
    ops = _ops(ir)
    assert ops.count("Assign") == 3 and ops.count("Load") == 3
    assert ops.count("TensorMove") == 3 and ops.count("AddN") == 2
    assert ops.count("Depend") == 1 and ops[-1] == "Depend"
    assert "Mul" not in ops  # the forward products are dead after autodiff
    assert "%0 = Assign(%para2_param, Tensor(shape=[], dtype=Int32, value=0), U)" in ir
    assert "Return(%20)" in ir


def test_level3_ir_has_no_copies_and_the_result_is_wrong(monkeypatch):
    # Without TensorMove every Load aliases the weight's array, and Assign writes that array
    # in place: all three loaded values are read by AddN after the last Assign (value 2),
    # so the gradient is 2 + 2 + 2 = 6 instead of 0 + 1 + 2 = 3. This is the spec's
    # precision hazard, real at run time.
    net, grads = _run(3, monkeypatch)
    ops = _ops(ms.compile_info(net).ir())
    assert "TensorMove" not in ops
    assert ops.count("Assign") == 3 and ops.count("Load") == 3 and ops.count("AddN") == 2
    assert grads[0].asnumpy() == 6


def test_level2_never_copies_more_than_level1(monkeypatch):
    n1, _ = _run(1, monkeypatch)
    c1 = ms.compile_info(n1).count("TensorMove")
    n2, _ = _run(2, monkeypatch)
    c2 = ms.compile_info(n2).count("TensorMove")
    n0, _ = _run(0, monkeypatch)
    c0 = ms.compile_info(n0).count("TensorMove")
    assert c2 <= c1 <= c0
