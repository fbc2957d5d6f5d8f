"""A cell's state changed between calls of its compiled graph (attributes, Parameters,
sub-cells, containers, training mode), or an attribute of the object whose @jit method
was compiled: the next GRAPH call equals PYNATIVE on the same object, and unchanged state
or a graph's own run-time writes do not recompile."""
from __future__ import annotations

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Parameter, Tensor, nn

X = Tensor(np.array([[1.0, 2.0]], np.float32))


def _graph_and_pynative(net, x=X):
    ms.set_context(mode=ms.GRAPH_MODE)
    got = net(x).asnumpy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    want = net(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    return got, want


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2, weight_init="ones", bias_init="ones")
        self.w = Parameter(Tensor(np.ones(2, np.float32)), name="w")
        self.scale = 2.0
        self.flag = True
        self.table = np.array([1.0, 2.0], np.float32)
        self.sizes = [1, 2]

    def construct(self, x):
        y = self.fc(x * self.w) * self.scale + Tensor(self.table) + len(self.sizes)
        if self.flag:
            y = y + 100
        return y


def _replace_fc(net):
    net.fc = nn.Dense(2, 2, weight_init="zeros", bias_init="ones")


def _replace_w(net):
    net.w = Parameter(Tensor(np.full(2, 3.0, np.float32)), name="w")


CHANGES = {
    "number": lambda net: setattr(net, "scale", -3.0),
    "bool_in_if": lambda net: setattr(net, "flag", False),
    "sub_cell_replaced": _replace_fc,
    "parameter_replaced": _replace_w,
    "array_mutated": lambda net: net.table.__setitem__(0, 50.0),
    "list_appended": lambda net: net.sizes.append(3),
    "sub_cell_attribute": lambda net: setattr(net.fc, "has_bias", False),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_changed_cell_state_matches_pynative(change):
    net = Scaled()
    before, _ = _graph_and_pynative(net)
    CHANGES[change](net)
    got, want = _graph_and_pynative(net)
    np.testing.assert_allclose(got, want)
    assert not np.allclose(got, before), "the change must matter for this test to mean something"


class WithDropout(nn.Cell):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(p=0.5)

    def construct(self, x):
        return self.drop(x) + 1


def test_sub_cell_training_mode_change_recompiles():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = WithDropout()
    net.set_train(True)
    x = Tensor(np.ones((4, 64), np.float32))
    assert np.any(net(x).asnumpy() == 1.0)  # training: some elements dropped
    net.drop.set_train(False)  # the root's mode (part of the call key) stays as it is
    np.testing.assert_array_equal(net(x).asnumpy(), np.full((4, 64), 2.0, np.float32))


class Stash(nn.Cell):
    def __init__(self):
        super().__init__()
        self.last = None
        self.scale = 2.0

    def construct(self, x):
        self.last = x * 2  # written when the graph runs, never read by it
        return x * self.scale


def _run(net, x, infos: list):
    """Call ``net`` and note its compile (a new CompileInfo is a new compile)."""
    out = net(x)
    info = ms.compile_info(net)
    if not any(info is i for i in infos):
        infos.append(info)
    return out


def test_run_time_attribute_write_does_not_recompile():
    ms.set_context(mode=ms.GRAPH_MODE)
    net, infos = Stash(), []
    for i in range(4):
        x = Tensor(np.full(2, float(i), np.float32))
        np.testing.assert_allclose(_run(net, x, infos).asnumpy(), np.full(2, 2.0 * i))
        np.testing.assert_allclose(net.last.asnumpy(), np.full(2, 2.0 * i))
    assert len(infos) == 1


def test_unchanged_or_same_value_writes_do_not_recompile():
    ms.set_context(mode=ms.GRAPH_MODE)
    net, infos = Stash(), []
    net.set_train(False)
    _run(net, X, infos)
    net.scale = 2.0  # a write of the same value
    net.set_train(True)
    net.set_train(False)
    _run(net, X, infos)
    assert len(infos) == 1
    net.scale = 5.0
    np.testing.assert_allclose(_run(net, X, infos).asnumpy(), X.asnumpy() * 5.0)
    assert len(infos) == 2


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = 0

    def construct(self, x):
        if x.sum() > 0:
            self.count = self.count + 1
        return x + self.count


def test_run_time_writes_with_the_compile_cache_on(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE, enable_compile_cache=True,
                   compile_cache_path=str(tmp_path))
    try:
        net = Counter()
        x = Tensor(np.ones(2, np.float32))
        got = [net(x).asnumpy()[0] for _ in range(3)]
    finally:
        ms.set_context(enable_compile_cache=False)
    assert got == [2.0, 3.0, 4.0] and net.count == 3


class Holder:
    def __init__(self):
        self.k = 2.0

    @ms.jit
    def scaled(self, x):
        return x * self.k


def test_changed_attribute_of_a_jit_method_owner_recompiles():
    obj = Holder()
    np.testing.assert_allclose(obj.scaled(X).asnumpy(), X.asnumpy() * 2.0)
    obj.k = 5.0
    np.testing.assert_allclose(obj.scaled(X).asnumpy(), X.asnumpy() * 5.0)


def test_a_returned_constant_written_by_the_caller_does_not_change_later_calls():
    ms.set_context(mode=ms.GRAPH_MODE)

    @ms.jit
    def constant_gradient(x):  # the gradient folds to a constant of the code
        return ms.grad(lambda t: (t * 2.0).sum())(x)

    @ms.jit
    def with_constant(x):
        return x, Tensor(np.array([1.0, 2.0], np.float32))

    x = Tensor(np.ones(3, np.float32))
    constant_gradient(x).asnumpy()[0] = 100.0
    with_constant(x)[1].asnumpy()[:] = 7.0
    np.testing.assert_array_equal(constant_gradient(x).asnumpy(), [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(with_constant(x)[1].asnumpy(), [1.0, 2.0])


class HeldWeights(nn.Cell):
    """Reads a weight held in a plain tuple (not registered with the cell)."""

    def __init__(self, value: float):
        super().__init__()
        self.held = (Parameter(Tensor(np.full(2, value, np.float32)), name="held"),)

    def construct(self, x):
        return x * self.held[0]


def test_a_new_tuple_of_parameters_with_the_same_names_and_values_recompiles():
    """The fingerprint keys Parameters by name (their values never fold into a graph), so
    the held Parameters' identities decide: the graph must read the new ones."""
    net = HeldWeights(2.0)
    ms.set_context(mode=ms.GRAPH_MODE)
    net(X)
    new = (Parameter(Tensor(np.full(2, 2.0, np.float32)), name="held"),)
    net.held = new
    new[0].set_data(Tensor(np.full(2, 5.0, np.float32)))
    got, want = _graph_and_pynative(net)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got, X.asnumpy() * 5.0)


class _Stack(nn.Cell):
    """Applies its CellList or CellDict in order."""

    def __init__(self, container):
        super().__init__()
        self.layers = container

    def construct(self, x):
        for layer in (self.layers.values() if isinstance(self.layers, nn.CellDict)
                      else self.layers):
            x = layer(x)
        return x


class _AddBias(nn.Cell):
    def __init__(self, bias):
        super().__init__()
        self.bias = bias

    def construct(self, x):
        return x + self.bias


def _dict_pop(d):
    d.pop("b")


CONTAINER_CHANGES = {
    "list_del": (nn.CellList, lambda c: c.__delitem__(-1)),
    "list_del_slice": (nn.CellList, lambda c: c.__delitem__(slice(0, 1))),
    "list_setitem": (nn.CellList, lambda c: c.__setitem__(0, _AddBias(10.0))),
    "list_append": (nn.CellList, lambda c: c.append(_AddBias(7.0))),
    "list_insert": (nn.CellList, lambda c: c.insert(0, _AddBias(5.0))),
    "sequential_del": (nn.SequentialCell, lambda c: c.__delitem__(0)),
    "dict_del": (nn.CellDict, lambda c: c.__delitem__("a")),
    "dict_pop": (nn.CellDict, _dict_pop),
    "dict_clear": (nn.CellDict, lambda c: c.clear()),
}


@pytest.mark.parametrize("capture", ["graph_mode", "bytecode"])
@pytest.mark.parametrize("change", sorted(CONTAINER_CHANGES))
def test_changed_cell_container_matches_pynative(change, capture):
    """Cells deleted, replaced or added in a CellList, SequentialCell or CellDict: the
    compiled call sees the new cells (a graph traced with the old ones would not)."""
    kind, mutate = CONTAINER_CHANGES[change]
    cells = [_AddBias(1.0), _AddBias(2.0)]
    container = kind({"a": cells[0], "b": cells[1]}) if kind is nn.CellDict else kind(cells)
    net = _Stack(container)
    if capture == "bytecode":
        ms.set_context(mode=ms.PYNATIVE_MODE)
        net.construct = ms.jit(net.construct, capture_mode="bytecode")
        got_before = net(X).asnumpy()
        mutate(container)
        got = net(X).asnumpy()
        want = net.construct.__wrapped__(net, X).asnumpy()
        ms.set_context(mode=ms.GRAPH_MODE)
    else:
        ms.set_context(mode=ms.GRAPH_MODE)
        got_before = net(X).asnumpy()
        mutate(container)
        got, want = _graph_and_pynative(net)
    np.testing.assert_array_equal(got_before, X.asnumpy() + 3)
    np.testing.assert_array_equal(got, want)
