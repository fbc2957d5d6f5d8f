"""MINDIR files written by MindSpore 2.10 (``fixtures/ms_*.mindir``) load with ``ms.load``
and run in ``nn.GraphCell`` with MindSpore's recorded outputs, in both modes; weights come
from the file, ``params_init`` or ``load_checkpoint``."""
import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn
from graphkiln.compile.call_cache import compile_info
from tests.export.recorded import FIXTURES, NETS, RECORDED, VARIANTS


@pytest.mark.parametrize("suffix", sorted(VARIANTS))
@pytest.mark.parametrize("name", sorted(NETS.NETS))
def test_mindspore_file_runs_with_mindsporess_outputs(name, suffix, mode):
    batch = VARIANTS[suffix]
    cell = nn.GraphCell(ms.load(str(FIXTURES / f"ms_{name}{suffix}.mindir")))
    got = cell(ms.Tensor(NETS.sample(name, batch))).asnumpy()
    np.testing.assert_allclose(got, RECORDED["outputs"][name][str(batch)], rtol=1e-5,
                               atol=1e-6)


def test_encrypted_mindspore_file(mode):
    graph = ms.load(str(FIXTURES / "ms_mlp_enc.mindir"), dec_key=NETS.ENC_KEY,
                    dec_mode="AES-GCM")
    got = nn.GraphCell(graph)(ms.Tensor(NETS.sample("mlp"))).asnumpy()
    np.testing.assert_allclose(got, RECORDED["outputs"]["mlp"]["None"], rtol=1e-5, atol=1e-6)


def test_graph_mode_compiles_the_file_into_one_graph():
    ms.set_context(mode=ms.GRAPH_MODE)
    cell = nn.GraphCell(ms.load(str(FIXTURES / "ms_lenet.mindir")))
    cell(ms.Tensor(NETS.sample("lenet")))
    ir = compile_info(cell).ir()
    assert "Conv2D(" in ir and "BatchNorm(" in ir and "MaxPool(" in ir
    assert "ref_key=:conv1.weight" in ir


def test_weights_are_parameters_named_as_in_the_file():
    graph = ms.load(str(FIXTURES / "ms_mlp.mindir"))
    cell = nn.GraphCell(graph)
    names = [p.name for p in cell.get_parameters()]
    assert names == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    net = NETS.make("mlp")
    want = {p.name: p.asnumpy() for p in net.get_parameters()}
    for p in cell.get_parameters():
        np.testing.assert_array_equal(p.asnumpy(), want[p.name])


def test_params_init_replaces_weights(mode):
    x = ms.Tensor(NETS.sample("mlp"))
    other = NETS.MLP()  # another initialisation
    init = {p.name: ms.Tensor(p.asnumpy()) for p in other.get_parameters()}
    other.set_train(False)
    cell = nn.GraphCell(ms.load(str(FIXTURES / "ms_mlp.mindir")), params_init=init)
    np.testing.assert_allclose(cell(x).asnumpy(), other(x).asnumpy(), rtol=1e-6)


def test_load_checkpoint_updates_the_graph_weights(tmp_path, mode):
    x = ms.Tensor(NETS.sample("resnet_block"))
    other = NETS.ResidualBlock()
    other.set_train(False)
    ms.save_checkpoint(other, str(tmp_path / "other.ckpt"))
    cell = nn.GraphCell(ms.load(str(FIXTURES / "ms_resnet_block.mindir")))
    before = cell(x).asnumpy()
    not_loaded, _ = ms.load_param_into_net(cell, ms.load_checkpoint(str(tmp_path / "other.ckpt")))
    assert not_loaded == []
    after = cell(x).asnumpy()
    assert not np.allclose(before, after)
    np.testing.assert_allclose(after, other(x).asnumpy(), rtol=1e-5, atol=1e-6)


def test_params_init_checks_names_and_shapes():
    graph = ms.load(str(FIXTURES / "ms_mlp.mindir"))
    with pytest.raises(ValueError, match="'nope' in 'params_init' is not a parameter"):
        nn.GraphCell(graph, params_init={"nope": ms.Tensor(np.zeros(3, np.float32))})
    with pytest.raises(ValueError, match="shape \\(2,\\) of 'fc2.bias'"):
        nn.GraphCell(graph, params_init={"fc2.bias": ms.Tensor(np.zeros(2, np.float32))})


def test_wrong_input_count_is_a_type_error():
    cell = nn.GraphCell(ms.load(str(FIXTURES / "ms_mlp.mindir")))
    x = ms.Tensor(NETS.sample("mlp"))
    with pytest.raises(TypeError, match="takes 1 inputs, but got 2"):
        cell(x, x)


def test_graph_cell_needs_a_loaded_graph():
    with pytest.raises(TypeError, match="must be a FuncGraph loaded from MIndIR"):
        nn.GraphCell("net.mindir")


def test_dump_shows_a_loaded_mindir_graph(capsys, monkeypatch):
    from graphkiln.__main__ import main
    from graphkiln.compile import call_cache

    monkeypatch.setattr(call_cache, "COMPILED", None)  # dump sets it; restored afterwards
    assert main(["dump", str(FIXTURES / "ms_resnet_block_dyn.mindir")]) == 0
    out = capsys.readouterr().out
    assert "=== GraphCell_construct" in out and "# IR entry: @GraphCell_construct" in out
    assert "<Tensor[Float32], (-1, 2, 8, 8)>" in out  # the file's dynamic batch
    assert "Conv2D(" in out and "ReduceMean(" in out and "cse" in out


def test_more_mindspore_layers(mode):
    """MindSpore's SumExt, Max, Cast, SiLU, Divs, Conv2DTranspose, erf GELU, TENSORS
    constants... (``LayerZoo``) run as graphkiln primitives with MindSpore's output."""
    cell = nn.GraphCell(ms.load(str(FIXTURES / "ms_zoo.mindir")))
    got = cell(ms.Tensor(NETS.zoo_sample())).asnumpy()
    np.testing.assert_allclose(got, RECORDED["outputs"]["zoo"], rtol=1e-5, atol=1e-5)
