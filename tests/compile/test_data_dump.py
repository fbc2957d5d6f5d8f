"""MindSpore's synchronous data dump (``MINDSPORE_DUMP_CONFIG``) of compiled graphs: the
files, their names and layout are those MindSpore 2.10 CPU writes for the same network
(recorded by hand from its run: ``Add.Default_Add-op0.0.0.<stamp>.input.0.DefaultFormat.
Float32.npy``...), the values NumPy's."""
import glob
import json
import os
import re

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops
from graphkiln.compile import data_dump
from graphkiln.ir.anf_ir_proto import ModelProto

X = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
Y = np.array([[7, 8, 9], [10, 11, 12]], np.float32)
NAME = re.compile(r"^(\w+)\.([\w.\-]+?)\.0\.0\.\d{16}\.(input|output)\.(\d+)\.DefaultFormat\."
                  r"(\w+)\.npy$")


class AddNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.add = ops.Add()

    def construct(self, x, y):
        return self.add(x, y)


class Block(nn.Cell):
    def construct(self, x):
        return ops.exp(x) - 1


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.add = ops.Add()
        self.block = Block()

    def construct(self, x, y):
        return self.block(ops.relu(self.add(x, y) * 3))


@pytest.fixture
def dump(tmp_path, monkeypatch):
    """configure(**common settings) writes the configuration and sets the variable; the
    dump's counters start afresh and the dump is off again afterwards."""
    ms.set_context(mode=ms.GRAPH_MODE)
    data_dump.STATE.graphs = data_dump.STATE.iteration = 0

    def configure(**settings):
        common = {"dump_mode": 0, "path": str(tmp_path / "out"), "net_name": "Net",
                  "iteration": "0", "input_output": 0, "kernels": [],
                  "support_device": [0, 1, 2, 3, 4, 5, 6, 7], "op_debug_mode": 0}
        common.update(settings)
        config = tmp_path / f"dump{len(list(tmp_path.glob('dump*.json')))}.json"
        config.write_text(json.dumps({"common_dump_settings": common,
                                      "e2e_dump_settings": {"enable": True,
                                                            "trans_flag": False}}))
        monkeypatch.setenv(data_dump.ENV, str(config))
        return tmp_path / "out" / "rank_0"
    yield configure
    monkeypatch.delenv(data_dump.ENV, raising=False)
    data_dump.refresh()
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _files(directory) -> dict:
    """{(op type, op name, io, slot): array} of a dump directory's .npy files."""
    out = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.npy"))):
        m = NAME.match(os.path.basename(path))
        assert m, os.path.basename(path)
        op, name, io, slot, dtype = m.groups()
        a = np.load(path)
        assert str(ms.dtype.from_numpy(a.dtype)) == dtype
        out[(op, name, io, int(slot))] = a
    return out


def test_every_kernel_input_output_and_parameter_in_mindspores_layout(dump):
    rank = dump()
    out = AddNet()(Tensor(X), Tensor(Y))
    files = _files(rank / "Net" / "0" / "0")
    assert sorted(files) == [("Add", "Default_Add-op0", "input", 0),
                             ("Add", "Default_Add-op0", "input", 1),
                             ("Add", "Default_Add-op0", "output", 0),
                             ("Parameter", "x", "output", 0), ("Parameter", "y", "output", 0)]
    np.testing.assert_array_equal(files[("Add", "Default_Add-op0", "output", 0)], X + Y)
    np.testing.assert_array_equal(files[("Parameter", "y", "output", 0)], Y)
    np.testing.assert_array_equal(out.asnumpy(), X + Y)
    assert (rank / "execution_order" / "ms_execution_order_graph_0.csv").read_text() == \
        "NodeExecutionOrder-FullNameWithScope\nDefault/Add-op0\n"
    assert (rank / "execution_order" / "ms_global_execution_order_graph_0.csv").read_text() \
        == "0\n"
    assert "Add" in (rank / "graphs" / "ms_output_trace_code_graph_0.ir").read_text()
    model = ModelProto.FromString((rank / "graphs" / "ms_output_trace_code_graph_0.pb")
                                  .read_bytes())
    assert [(n.op_type, n.full_name, [i.name for i in n.input]) for n in model.graph.node] \
        == [("Add", "Default/Add-op0", ["x", "y"])]
    assert [p.name for p in model.graph.parameters] == ["x", "y"]
    assert json.loads((rank / ".dump_metadata" / "config.json").read_text()) == \
        {"device_target": "CPU", "ms_version": "2.10.0"}
    config = json.loads((rank / ".dump_metadata" / "data_dump.json").read_text())
    assert config["common_dump_settings"]["net_name"] == "Net"


def test_weights_chains_and_sub_cells(dump):
    rank = dump()
    net = nn.Dense(3, 2)
    out = net(Tensor(X))
    files = _files(rank / "Net" / "0" / "0")
    w, b = net.weight.asnumpy(), net.bias.asnumpy()
    np.testing.assert_array_equal(files[("Parameter", "weight", "output", 0)], w)
    np.testing.assert_array_equal(files[("Parameter", "bias", "output", 0)], b)
    (matmul,) = [v for k, v in files.items() if k[0] == "MatMul" and k[2] == "output"]
    np.testing.assert_allclose(matmul, X @ w.T, rtol=1e-6)
    np.testing.assert_allclose(out.asnumpy(), X @ w.T + b, rtol=1e-6)


def test_iterations_and_input_output_selection(dump):
    rank = dump(iteration="0|2-3", input_output=2)
    net = AddNet()
    for _ in range(5):
        net(Tensor(X), Tensor(Y))
    graph = rank / "Net" / "0"
    assert sorted(os.listdir(graph)) == ["0", "2", "3"]
    assert {k[2] for k in _files(graph / "2")} == {"output"}
    assert (rank / "execution_order" / "ms_global_execution_order_graph_0.csv").read_text() \
        == "0\n1\n2\n3\n4\n"
    rank = dump(input_output=1, iteration="all")
    AddNet()(Tensor(X), Tensor(Y))  # a new graph: the next iteration of the process
    (graph,) = [p for p in (rank / "Net").iterdir() if p.name != "0"]
    assert {(k[0], k[2]) for k in _files(graph / "5")} == {("Add", "input"),
                                                          ("Parameter", "output")}


def test_kernels_by_type_regex_and_full_name(dump):
    rank = dump(dump_mode=1, kernels=["relu", "name-regex(Default/Ex.+)", "Default/Sub-op0"])
    Net()(Tensor(X), Tensor(Y))
    ops_dumped = {k[0] for k in _files(rank / "Net" / "0" / "0")}
    assert ops_dumped == {"ReLU", "Exp", "Sub"}  # no Parameter files outside dump_mode 0


def test_set_dump_selects_cells_and_primitives(dump):
    rank = dump(dump_mode=2)
    net = Net()
    ms.set_dump(net.block)
    ms.set_dump(net.add)
    net(Tensor(X), Tensor(Y))
    assert {k[0] for k in _files(rank / "Net" / "0" / "0")} == {"Add", "Exp", "Sub"}
    with pytest.raises(ValueError, match="Cell or Primitive"):
        ms.set_dump(lambda x: x)
    with pytest.raises(ValueError, match="must be bool"):
        ms.set_dump(net, 1)


class Accumulate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.total = ms.Parameter(Tensor(np.zeros(3, np.float32)), name="total")

    def construct(self, x):
        ops.assign_add(self.total, x)
        return self.total * 1


def test_inputs_are_saved_before_a_kernel_writes_them(dump):
    rank = dump(iteration="1")
    net = Accumulate()
    x = Tensor(np.ones(3, np.float32))
    net(x)
    net(x)
    files = _files(rank / "Net" / "0" / "1")
    (before,) = [v for k, v in files.items() if k[0] == "AssignAdd" and k[2:] == ("input", 0)]
    np.testing.assert_array_equal(before, [1, 1, 1])  # the value after the first call
    np.testing.assert_array_equal(net.total.asnumpy(), [2, 2, 2])


def test_kernels_inside_loops_and_branches(dump):
    rank = dump(iteration="all")

    @ms.jit
    def loop(x, n):
        while n > 0:
            x = x * 2
            n = n - 1
        return x

    out = loop(Tensor(X), Tensor(3))
    np.testing.assert_array_equal(out.asnumpy(), X * 8)
    files = _files(rank / "Net" / "0" / "0")
    assert any(k[0] == "Mul" for k in files)


@pytest.mark.parametrize("settings, message", [
    ({"path": "relative/out"}, "absolute path"),
    ({"path": ""}, "Dump path is empty"),
    ({"dump_mode": 5}, "dump_mode should be 0, 1 or 2"),
    ({"input_output": 3}, "input_output should be 0, 1, 2"),
    ({"iteration": "a-b"}, "iteration only supports digits"),
    ({"saved_data": "statistic"}, "only supported on GPU and Ascend"),
])
def test_refused_configurations_raise_mindspores_runtime_errors(dump, monkeypatch, settings,
                                                                message):
    monkeypatch.delenv("MS_DIAGNOSTIC_DATA_PATH", raising=False)
    dump(**settings)
    with pytest.raises(RuntimeError, match=message):
        AddNet()(Tensor(X), Tensor(Y))


def test_unreadable_configuration_files(dump, tmp_path, monkeypatch):
    dump()
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    monkeypatch.setenv(data_dump.ENV, str(bad))
    with pytest.raises(RuntimeError, match="Parse dump json failed"):
        AddNet()(Tensor(X), Tensor(Y))
    monkeypatch.setenv(data_dump.ENV, str(tmp_path / "missing.json"))
    with pytest.raises(RuntimeError, match="Get dump config file failed"):
        AddNet()(Tensor(X), Tensor(Y))


def test_no_dump_once_the_variable_is_unset(dump, tmp_path, monkeypatch):
    rank = dump()
    monkeypatch.delenv(data_dump.ENV)
    AddNet()(Tensor(X), Tensor(Y))
    assert not rank.exists()


def test_mindspore_tools():
    """``mindspore.tools`` (MindSpore 2.10's home of set_dump); its Ascend checks behave as
    MindSpore's CPU build: stress tests refused, corruption detection finds nothing."""
    from graphkiln import tools
    assert tools.set_dump is ms.set_dump
    with pytest.raises(RuntimeError, match="Stress detection is not supported"):
        tools.stress_detect()
    assert tools.sdc_detect_start() is None and tools.sdc_detect_stop() is None
    assert tools.get_sdc_detect_result() is False
