"""Networks with dynamic batch, image size and sequence length (``set_inputs``): MindSpore
2.10's recorded losses and gradients (``fixtures/dynamic_nets_programs.py``) in GRAPH and
PYNATIVE mode, one compile for every size, and the same losses as static-shape compiles."""
import json
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import compat
from graphkiln.compile.call_cache import compile_info

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "ms_dynamic_nets.json").read_text())
PROGRAMS = compat.import_mindspore_module(FIXTURES / "dynamic_nets_programs.py")


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.GRAPH_MODE)


@pytest.mark.parametrize("name", sorted(PROGRAMS.PROGRAMS))
@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"])
def test_program_matches_mindspore(name, mode, graph_mode):
    ms.set_context(mode=getattr(ms, mode))
    got, want = PROGRAMS.run(name), EXPECTED[mode][name]
    assert want[:1] != ["error"] and got[:1] != ["error"], got
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64),
                               rtol=2e-4, atol=1e-4, err_msg=f"{mode} {name}")


NETS = {
    "lenet": (PROGRAMS.lenet_step, PROGRAMS.LENET_SHAPES, 5, PROGRAMS.LENET_INPUTS),
    "resnet_block": (PROGRAMS.resnet_step, PROGRAMS.RESNET_SHAPES, 3, PROGRAMS.RESNET_INPUTS),
    "transformer": (PROGRAMS.transformer_step, PROGRAMS.TRANSFORMER_SHAPES, None,
                    PROGRAMS.TRANSFORMER_INPUTS),
}


@pytest.mark.parametrize("net", sorted(NETS))
def test_one_compile_serves_every_size_with_the_static_losses(net, graph_mode):
    make_step, shapes, classes, placeholders = NETS[net]
    data = PROGRAMS.batches(shapes, classes=classes)
    step = make_step(True)
    losses, infos = [], []
    for x, y in data:
        losses.append(float(step(x, y).asnumpy()))
        infos.append(compile_info(step))
    assert all(info is infos[0] for info in infos), "recompiled for a new size"
    assert infos[0].graph.params[0].abstract.shape == placeholders[0].shape
    static = make_step(False)
    want, static_infos = [], set()
    for x, y in data:
        want.append(float(static(x, y).asnumpy()))
        static_infos.add(id(compile_info(static)))
    assert len(static_infos) == len(set(shapes))  # the static net compiles per shape
    np.testing.assert_allclose(losses, want, rtol=1e-5, atol=1e-6)
