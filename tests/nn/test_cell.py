"""nn.Cell: registration, MindSpore's parameter naming, traversal order, modes, repr.

Every expected name list below was produced by MindSpore 2.10 on the same network
(see ``test_names_match_mindspore`` for the live comparison where MindSpore is installed).
"""
import copy
from collections import OrderedDict

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, ParameterTuple, Tensor, nn


def _p(value=1.0, **kw):
    return Parameter(Tensor(np.full(2, value, np.float32)), **kw)


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = _p()
        self.named = _p(name="param")
        self.dense = nn.Dense(2, 3)

    def construct(self, x):
        return x


class Outer(nn.Cell):
    def __init__(self, auto_prefix=True):
        super().__init__(auto_prefix)
        self.forward_net = Inner()
        self.b = _p()
        self.lst = nn.CellList([nn.Dense(2, 2), Inner()])
        self.seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
        self.seqd = nn.SequentialCell(OrderedDict([("fc", nn.Dense(2, 2)), ("act", nn.ReLU())]))

    def construct(self, x):
        return x


def names(cell):
    return [(path, p.name) for path, p in cell.parameters_and_names()]


# ------------------------------------------------------------------ naming

PATHS = ["b", "forward_net.weight", "forward_net.named", "forward_net.dense.weight",
         "forward_net.dense.bias", "lst.0.weight", "lst.0.bias", "lst.1.weight", "lst.1.named",
         "lst.1.dense.weight", "lst.1.dense.bias", "seq.0.weight", "seq.0.bias",
         "seqd.fc.weight", "seqd.fc.bias"]


def test_nested_names_with_auto_prefix():
    net = Outer()
    assert [path for path, _ in names(net)] == PATHS
    # With auto_prefix every parameter is renamed to its attribute path, a user
    # name included ('param' becomes 'forward_net.named'), as in MindSpore.
    assert [name for _, name in names(net)] == PATHS


def test_nested_names_without_auto_prefix():
    net = Outer(auto_prefix=False)
    assert [path for path, _ in names(net)] == PATHS
    assert [name for _, name in names(net)] == [
        "b", "weight", "param", "dense.weight", "dense.bias", "0.weight", "0.bias",
        "1.weight", "1.named", "1.dense.weight", "1.dense.bias", "0.weight", "0.bias",
        "fc.weight", "fc.bias"]


def test_user_name_kept_at_top_and_under_no_prefix_parent():
    assert names(Inner())[:2] == [("weight", "weight"), ("named", "param")]

    class BackwardNet(nn.Cell):
        def __init__(self, net):
            super().__init__(auto_prefix=False)
            self.forward_net = net

    net = BackwardNet(Inner())
    assert names(net)[:2] == [("forward_net.weight", "weight"), ("forward_net.named", "param")]


def test_unnamed_parameter_takes_attribute_name():
    c = nn.Cell()
    c.w = Parameter(Tensor(1.0))
    assert c.w.name == "w"
    assert c._params["w"] is c.w


def test_prefix_is_applied_at_assignment_time_only():
    class Mid(nn.Cell):
        def __init__(self):
            super().__init__(auto_prefix=False)
            self.inner = Inner()

    class Top(nn.Cell):
        def __init__(self):
            super().__init__()
            self.mid = Mid()
            self.mid.inner.extra = Parameter(Tensor(1.0))

    assert names(Top())[:2] == [("mid.inner.weight", "mid.inner.weight"),
                                ("mid.inner.named", "mid.inner.named")]
    # Own parameters come before sub-cells', so 'extra' is third.
    assert names(Top())[2] == ("mid.inner.extra", "extra")


def test_shared_cell_listed_once_and_renamed_by_last_assignment():
    class Shared(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = nn.Dense(2, 2)
            self.b = self.a

    net = Shared()
    assert names(net) == [("a.weight", "b.weight"), ("a.bias", "b.bias")]
    assert [n for n, _ in net.cells_and_names()] == ["", "a"]


def test_same_parameter_two_attributes_listed_once():
    c = nn.Cell()
    p = Parameter(Tensor(1.0))
    c.x = p
    c.y = p
    assert names(c) == [("x", "x")]


def test_two_parameters_with_one_user_name_both_kept():
    c = nn.Cell()
    c.x = Parameter(Tensor(1.0), name="p")
    c.y = Parameter(Tensor(1.0), name="p")
    assert names(c) == [("x", "p"), ("y", "p")]


def test_parameter_tuple_attribute_registers_its_elements():
    class A(nn.Cell):
        def __init__(self):
            super().__init__()
            self.d = nn.Dense(2, 2)
            self.w = ParameterTuple(self.d.trainable_params())

    a = A()
    assert isinstance(a.w, ParameterTuple)
    assert names(a) == [("d.weight", "d.weight"), ("d.bias", "d.bias")]
    assert list(a._params) == ["d.weight", "d.bias"]

    c = nn.Cell()
    c.w = ParameterTuple([Parameter(Tensor(1.0)), Parameter(Tensor(2.0))])
    assert names(c) == [("Parameter$1", "Parameter$1"), ("Parameter$2", "Parameter$2")]

    with pytest.raises(ValueError, match="its name 'same' already exists"):
        nn.Cell().w = ParameterTuple([Parameter(Tensor(1.0), name="same"),
                                      Parameter(Tensor(1.0), name="same")])


# ------------------------------------------------------------------ containers

def test_celllist_names_and_order():
    net = Outer()
    assert [n for n, _ in net.cells_and_names()] == [
        "", "forward_net", "forward_net.dense", "lst", "lst.0", "lst.1", "lst.1.dense",
        "seq", "seq.0", "seq.1", "seqd", "seqd.fc", "seqd.act"]
    assert list(net.name_cells()) == ["forward_net", "lst", "seq", "seqd"]
    assert list(net.cells()) == list(net.name_cells().values())


def test_celllist_append_after_assignment_keeps_parent_prefix():
    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.lst = nn.CellList([nn.Dense(2, 2)])
            self.lst.append(nn.Dense(2, 2))
            self.empty = nn.CellList()
            self.empty.append(nn.Dense(2, 2))

    o = Holder()
    # MindSpore reads the prefix off the parameters already in the list, so an empty
    # list appended to after assignment gets no parent prefix.
    assert names(o) == [("lst.0.weight", "lst.0.weight"), ("lst.0.bias", "lst.0.bias"),
                        ("lst.1.weight", "lst.1.weight"), ("lst.1.bias", "lst.1.bias"),
                        ("empty.0.weight", "0.weight"), ("empty.0.bias", "0.bias")]
    o.lst.append(nn.Dense(2, 2))
    o.lst.insert(0, nn.Dense(2, 2))
    assert [n for _, n in names(o)][:8] == [f"lst.{i}.{k}" for i in range(4)
                                            for k in ("weight", "bias")]


def test_celllist_list_operations():
    cl = nn.CellList([nn.Dense(2, 2)])
    cl.append(nn.ReLU())
    cl.extend([nn.GELU(), nn.Dense(2, 3)])
    cl.insert(1, nn.Softmax())
    assert [type(c).__name__ for c in cl] == ["Dense", "Softmax", "ReLU", "GELU", "Dense"]
    assert len(cl) == 5
    assert isinstance(cl[-1], nn.Dense) and cl[-1].out_channels == 3
    assert isinstance(cl[1:3], nn.CellList) and len(cl[1:3]) == 2
    assert [n for n, _ in cl.cells_and_names()] == ["", "0", "1", "2", "3", "4"]
    assert [n for _, n in names(cl)] == ["0.weight", "0.bias", "4.weight", "4.bias"]
    cl[0] = nn.Dense(2, 5)
    assert cl[0].out_channels == 5 and cl[0].weight.name == "0.weight"
    del cl[0]
    assert list(cl._cells) == ["0", "1", "2", "3"]
    assert [n for _, n in names(cl)] == ["3.weight", "3.bias"]
    with pytest.raises(TypeError, match="each cell must be subclass of Cell, but got int"):
        cl.append(3)
    with pytest.raises(IndexError, match=r"range \[-4, 4\), but got 10"):
        cl[10]
    with pytest.raises(IndexError, match=r"range \[-4, 4\], but got 5"):
        cl.insert(5, nn.ReLU())
    with pytest.raises(TypeError, match="should be instance of list"):
        cl.extend(nn.ReLU())


def test_celllist_insert_python_semantics():
    cl = nn.CellList()
    a, b = nn.Dense(2, 2), nn.Dense(2, 2)
    cl.insert(0, a)
    cl.insert(-1, b)
    assert list(cl) == [b, a]
    assert [n for _, n in names(cl)] == ["0.weight", "0.bias", "1.weight", "1.bias"]


def test_celllist_without_auto_prefix():
    cl = nn.CellList([nn.Dense(2, 2)], auto_prefix=False)
    assert names(cl) == [("0.weight", "weight"), ("0.bias", "bias")]


def test_celllist_slice_does_not_rename_original():
    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.l = nn.CellList([nn.Dense(2, 2), nn.ReLU()])

    o = Holder()
    part = o.l[0:1]
    assert len(part) == 1
    # MindSpore renames the original's parameters here ('0.weight'); graphkiln keeps them.
    assert [n for _, n in names(o)] == ["l.0.weight", "l.0.bias"]


def test_sequential_forms_and_names():
    s = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
    assert names(s) == [("0.weight", "0.weight"), ("0.bias", "0.bias")]
    s2 = nn.SequentialCell(nn.Dense(2, 2), nn.ReLU())
    assert [n for n, _ in s2.cells_and_names()] == ["", "0", "1"] and len(s2) == 2
    s2.append(nn.GELU())
    assert [n for n, _ in s2.cells_and_names()] == ["", "0", "1", "2"]
    assert isinstance(s2[0:2], nn.SequentialCell)
    s3 = nn.SequentialCell(OrderedDict([("fc", nn.Dense(2, 2))]))
    assert names(s3) == [("fc.weight", "fc.weight"), ("fc.bias", "fc.bias")]
    s3.append(nn.Dense(2, 2))
    assert list(s3._cells) == ["fc", "1"]
    assert [n for _, n in names(s3)][2:] == ["1.weight", "1.bias"]
    s4 = nn.SequentialCell(nn.Dense(2, 2), nn.Dense(2, 2))
    del s4[0]
    assert names(s4) == [("0.weight", "0.weight"), ("0.bias", "0.bias")]
    with pytest.raises(TypeError, match=r"'args\[0\]' must be Cell, list or orderedDict"):
        nn.SequentialCell(3)
    with pytest.raises(TypeError, match="'child_cell' must be 'Cell' if not None"):
        nn.SequentialCell([3])


def test_sequential_applies_in_order():
    s = nn.SequentialCell([nn.Dense(2, 3, weight_init="ones", bias_init="zeros"), nn.ReLU(),
                           nn.Dense(3, 1, weight_init="ones", bias_init="zeros")])
    x = np.array([[1.0, -3.0], [2.0, 1.0]], np.float32)
    out = s(Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, [[0.0], [9.0]])


# ------------------------------------------------------------------ traversal

def test_trainable_params_order_and_kinds():
    class NG(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(2, 2)
            self.a = Parameter(Tensor(1.0), requires_grad=False)
            self.b = Parameter(Tensor(1.0))

    n = NG()
    # Own parameters first, then the sub-cells', each in assignment order.
    assert [p.name for p in n.get_parameters()] == ["a", "b", "fc.weight", "fc.bias"]
    assert [p.name for p in n.trainable_params()] == ["b", "fc.weight", "fc.bias"]
    assert [p.name for p in n.untrainable_params()] == ["a"]
    assert isinstance(n.trainable_params(), list)
    assert not isinstance(n.get_parameters(), list)
    assert [p.name for p in n.trainable_params(recurse=False)] == ["b"]
    assert list(n.parameters_dict()) == ["a", "b", "fc.weight", "fc.bias"]


def test_insert_param_to_cell():
    c = Inner()
    c.insert_param_to_cell("zz", Parameter(Tensor(1.0)))
    c.insert_param_to_cell("ww", Parameter(Tensor(1.0), name="custom"))
    assert names(c)[2:4] == [("zz", "zz"), ("ww", "custom")]
    with pytest.raises(KeyError, match="should not contain'.'"):
        c.insert_param_to_cell("a.b", Parameter(Tensor(1.0)))
    with pytest.raises(KeyError, match="should not be None"):
        c.insert_param_to_cell("", Parameter(Tensor(1.0)))
    with pytest.raises(TypeError, match="must be 'Parameter' if not None"):
        c.insert_param_to_cell("yy", Tensor(1.0))
    c.foo = 3
    with pytest.raises(KeyError, match="the foo parameter already exists"):
        c.insert_param_to_cell("foo", Parameter(Tensor(1.0)))


def test_insert_child_to_cell_does_not_rename():
    c = nn.Cell()
    c.insert_child_to_cell("k", nn.Dense(2, 2))
    assert names(c) == [("k.weight", "weight"), ("k.bias", "bias")]
    with pytest.raises(KeyError, match="can not contain '.'"):
        c.insert_child_to_cell("a.b", nn.Dense(2, 2))
    c.foo = 3
    with pytest.raises(KeyError, match="the foo child cell already exists"):
        c.insert_child_to_cell("foo", nn.Dense(2, 2))


# ------------------------------------------------------------------ attributes

def test_setattr_none_and_delete():
    c = Inner()
    c.weight = None
    assert c.weight is None
    assert [n for n, _ in names(c)][:1] == ["named"]
    del c.named
    with pytest.raises(AttributeError, match="The 'Inner' object has no attribute 'named'."):
        _ = c.named
    c.dense = None
    assert c.dense is None and [n for n, _ in c.cells_and_names()] == [""]
    del c.dense
    assert "dense" not in c._cells


def test_setattr_tensor_on_parameter_sets_data_other_types_fail():
    c = nn.Cell()
    c.x = Parameter(Tensor(1.0))
    p = c.x
    c.x = Tensor(2.0)
    assert c.x is p and float(p) == 2.0
    with pytest.raises(TypeError, match="Parameter 'x' already exists in network"):
        c.x = 3
    c.sub = nn.ReLU()
    with pytest.raises(TypeError, match="Sub cell 'sub' already exists in network"):
        c.sub = 3


def test_plain_attributes_and_missing_init():
    c = nn.Cell()
    c.k = 3
    assert c.k == 3 and "k" not in c._params

    class NoSuper(nn.Cell):
        def __init__(self):
            self.x = Parameter(Tensor(1.0))

    with pytest.raises(AttributeError, match=r"call Cell.__init__\(\)"):
        NoSuper()


def test_construct_missing():
    with pytest.raises(AttributeError, match="the method 'construct' is not defined"):
        nn.Cell()(1)


def test_call_goes_through_compiler_entry(monkeypatch):
    from graphkiln.nn import cell as cell_module

    seen = []

    def fake_call_cell(cell, args, kwargs):
        seen.append((cell, args, kwargs))
        return "compiled"

    monkeypatch.setattr(cell_module, "call_cell", fake_call_cell)
    r = nn.ReLU()
    assert r(1, k=2) == "compiled"
    assert seen == [(r, (1,), {"k": 2})]


def test_call_with_kwargs_runs_construct():
    class K(nn.Cell):
        def construct(self, x, scale=1.0):
            return x * scale

    assert K()(2.0, scale=3.0) == 6.0


def test_super_with_explicit_class_works():
    class Old(nn.Cell):
        def __init__(self):
            super(Old, self).__init__()  # noqa: UP008 - the spec's spelling
            self.weight = Parameter(Tensor(np.array(0), ms.int32), name="param")

    assert Old().weight.name == "param"


def test_cell_init_args_slot_is_free():
    c = nn.Cell()
    assert not hasattr(c, "cell_init_args")
    c.cell_init_args = "ReLU()"
    assert c.cell_init_args == "ReLU()"


def test_deepcopy_gives_independent_parameters():
    net = Outer()
    twin = copy.deepcopy(net)
    assert [n for _, n in names(twin)] == PATHS
    twin.b.set_data(Tensor(np.zeros(2, np.float32)))
    assert net.b.asnumpy().tolist() == [1.0, 1.0]


# ------------------------------------------------------------------ modes, flags

def test_set_train_is_recursive_and_returns_self():
    net = Outer()
    assert net.training is False
    assert net.set_train() is net
    assert all(c.training for _, c in net.cells_and_names())
    net.set_train(False)
    assert not any(c.training for _, c in net.cells_and_names())
    net.lst.set_train(True)
    assert net.lst[1].dense.training and not net.training


def test_set_grad_and_flags():
    c = Outer()
    assert c.requires_grad is False and c.set_grad() is c and c.requires_grad is True
    c.add_flags_recursive(defer_inline=True)
    assert c.forward_net.get_flags() == {"defer_inline": True}
    assert nn.Cell(flags={"a": 1}).get_flags() == {"a": 1}


# ------------------------------------------------------------------ repr

def test_repr_matches_mindspore():
    assert repr(Outer()) == """Outer(
  (forward_net): Inner(
    (dense): Dense(input_channels=2, output_channels=3, has_bias=True)
  )
  (lst): CellList(
    (0): Dense(input_channels=2, output_channels=2, has_bias=True)
    (1): Inner(
      (dense): Dense(input_channels=2, output_channels=3, has_bias=True)
    )
  )
  (seq): SequentialCell(
    (0): Dense(input_channels=2, output_channels=2, has_bias=True)
    (1): ReLU()
  )
  (seqd): SequentialCell(
    (fc): Dense(input_channels=2, output_channels=2, has_bias=True)
    (act): ReLU()
  )
)"""
    assert repr(nn.Cell()) == "Cell()"
    assert repr(nn.Dense(3, 4, activation="relu")) == (
        "Dense(\n  input_channels=3, output_channels=4, has_bias=True, activation=ReLU()\n"
        "  (activation): ReLU()\n)")


def test_parameter_data_reads_the_current_value_in_both_modes():
    import numpy as np

    import graphkiln as ms
    from graphkiln import Parameter, Tensor, context, nn, ops

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = Parameter(Tensor(np.ones(2, np.float32)), name="p")

        def construct(self, x):
            ops.assign_add(self.p, x)
            return self.p.data * 2

    for mode in (context.PYNATIVE_MODE, context.GRAPH_MODE):
        context.set_context(mode=mode)
        net = Net()
        out = net(Tensor(np.full(2, 3.0, np.float32)))
        np.testing.assert_allclose(out.asnumpy(), [8.0, 8.0])
        np.testing.assert_allclose(net.p.data.asnumpy(), [4.0, 4.0])
    assert isinstance(ms.Parameter(Tensor(np.ones(1, np.float32)), name="q").data, Tensor)


def test_container_nesting_and_key_checks_are_mindspore_s():
    cells = nn.CellDict({"relu": nn.ReLU()})
    # (MindSpore CPU: "_scope", a Cell attribute there too, is refused as "construct" is)
    for key, error in ((1, TypeError), (".relu", KeyError), ("", KeyError),
                       ("construct", KeyError), ("_scope", KeyError)):
        with pytest.raises(error):
            cells[key] = nn.ReLU()
    for cell in (None, 1, nn.CellDict(), nn.CellList(), nn.SequentialCell()):
        with pytest.raises(TypeError):
            cells["inner"] = cell
    with pytest.raises(TypeError, match="CellDict"):
        nn.CellList([nn.CellDict({"relu": nn.ReLU()})])
    cells["relu"] = nn.Tanh()  # an existing key may be replaced
    assert isinstance(cells["relu"], nn.Tanh)


def test_apply_visits_children_first_then_the_cell_and_returns_it():
    net = nn.SequentialCell(nn.Dense(2, 2), nn.SequentialCell(nn.ReLU(), nn.Dense(2, 3)))
    seen = []

    def init_dense(cell):
        seen.append(type(cell).__name__)
        if isinstance(cell, nn.Dense):
            cell.weight.set_data(ms.Tensor(np.ones(cell.weight.shape, np.float32)))

    assert net.apply(init_dense) is net
    assert seen == ["Dense", "ReLU", "Dense", "SequentialCell", "SequentialCell"]
    np.testing.assert_array_equal(net[1][1].weight.asnumpy(), np.ones((3, 2), np.float32))


def test_extend_repr_is_mindspore_name_for_the_repr_text():
    class WithText(nn.Cell):
        def extend_repr(self):
            return "k=1"

    assert repr(WithText()) == "WithText(k=1)"
