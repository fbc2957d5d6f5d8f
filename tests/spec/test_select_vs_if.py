"""Spec: "Using select Operator" — a tensor ``if`` and ``ops.select`` give the same values;
the ``if`` version compiles to 100 ``Switch`` nodes, the ``select`` one to none."""
import numpy as np

import graphkiln as ms

# the spec's code, as a user writes it, lives in graphkiln/examples/spec.py
from graphkiln.examples.spec import if_net, select_net  # noqa: E402


def _reference(x, y, start_with_x):
    out = x if start_with_x else 0
    for _ in range(100):
        x = x - y if x < y else x + y
        out = out + x
    return out


def test_if_net_value_and_switch_count():
    out = if_net(ms.Tensor([0]), ms.Tensor([1]))
    assert out.dtype == ms.int64 and out.shape == (1,)
    assert out.asnumpy().tolist() == [-5050] == [_reference(0, 1, False)]
    assert ms.compile_info(if_net).count("Switch") == 100


def test_select_net_value_and_no_switch():
    out = select_net(ms.Tensor([0]), ms.Tensor([1]))
    assert out.asnumpy().tolist() == [-5050] == [_reference(0, 1, True)]
    assert ms.compile_info(select_net).count("Switch") == 0
    assert ms.compile_info(select_net).count("Select") == 100


def test_graph_equals_eager_on_other_inputs():
    for a, b in [(3, 1), (-2, 5), (7, 7)]:
        x, y = ms.Tensor([a]), ms.Tensor([b])
        for jf in (if_net, select_net):
            np.testing.assert_array_equal(jf(x, y).asnumpy(), jf.fn(x, y).asnumpy())


def test_select_has_fewer_subgraphs_than_if():
    if_net(ms.Tensor([0]), ms.Tensor([1]))
    select_net(ms.Tensor([0]), ms.Tensor([1]))
    assert ms.compile_info(select_net).subgraphs == 1
    assert ms.compile_info(if_net).subgraphs == 201
