"""``graphkiln.rewrite`` against MindSpore's rewrite of the same networks
(fixtures/record_rewrite.py): the nodes (names, kinds, targets), the generated classes,
class variables and construct, node edits, and the rewritten networks' outputs."""
import importlib
import json
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn
from graphkiln.rewrite import Node, NodeType, ScopedValue, SymbolTree

REC = json.loads((Path(__file__).parent / "fixtures" / "rewrite.json").read_text())


@pytest.fixture
def cases():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return importlib.import_module("rewrite_cases")


def test_child_network_recorded(cases):
    x, y = cases.inputs()
    net = cases.Child()
    stree = SymbolTree.create(net)
    assert cases.describe(stree) == REC["child"]
    out = stree.get_network()(Tensor(x), Tensor(y)).asnumpy()
    np.testing.assert_allclose(net(Tensor(x), Tensor(y)).asnumpy(), REC["child_output"])
    np.testing.assert_allclose(out, REC["child_rewritten"])
    inner = stree.get_node("inner")
    assert inner.get_node_type() == NodeType.Tree
    assert [n.get_name() for n in inner.get_sub_tree().nodes()] == \
        ["input_x", "shift", "relu", "return"]


def test_chain_edits_recorded(cases):
    x, _ = cases.inputs()
    stree = SymbolTree.create(cases.Chain())
    assert cases.describe(stree) == REC["chain"]
    assert cases.edit_chain(stree, nn, ScopedValue, Node) == REC["chain_edit"]
    np.testing.assert_allclose(stree.get_network()(Tensor(x)).asnumpy(),
                               REC["chain_edit_output"], rtol=1e-6)


def test_graph_mode_runs_the_generated_construct(cases):
    x, y = cases.inputs()
    net = cases.Child()
    expect = net(Tensor(x), Tensor(y)).asnumpy()
    new = SymbolTree.create(net).get_network()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        np.testing.assert_allclose(new(Tensor(x), Tensor(y)).asnumpy(), expect)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_scoped_values():
    v = ScopedValue.create_naming_value("conv", "self")
    assert str(v) == "self.conv" and v == ScopedValue.create_naming_value("conv", "self")
    assert str(ScopedValue.create_variable_value(3)) == "3"
    with pytest.raises(TypeError, match="must be str"):
        ScopedValue.create_naming_value(1)


def test_bad_input(cases):
    with pytest.raises(TypeError, match="must be a Cell"):
        SymbolTree.create(cases.Plain())
    stree = SymbolTree.create(cases.Chain())
    other = SymbolTree.create(cases.Chain()).get_node("a")
    with pytest.raises(RuntimeError, match="does not belong"):
        stree.after(other)


def test_inserted_sub_network_runs(cases):
    """A cell inserted as a sub-network (``is_sub_net``) is called as it is."""
    x, _ = cases.inputs()
    stree = SymbolTree.create(cases.Chain())
    c = stree.get_node("c")
    node = Node.create_call_cell(cell=cases.Chain(), targets=["x"], args=["x"], name="more",
                                 is_sub_net=True)
    stree.insert(stree.after(c), node)
    chain = cases.Chain()
    np.testing.assert_allclose(stree.get_network()(Tensor(x)).asnumpy(),
                               chain(chain(Tensor(x))).asnumpy(), rtol=1e-6)
