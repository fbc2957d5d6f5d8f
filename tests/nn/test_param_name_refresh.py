"""Parameter names against MindSpore 2.10 CPU (fixtures/param_refresh.json, recorded by
fixtures/record_param_refresh.py): a container's prefix read as MindSpore reads it (numeric
keys give ``0.1.0.gamma``), an optimizer refused while two parameters share a name, and the
first call from Python renaming them all to their attribute paths (GRAPH and PYNATIVE)."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from param_refresh_cases import BUILDERS, names, record  # noqa: E402

with open(os.path.join(FIXTURES, "param_refresh.json")) as f:
    RECORDED = json.load(f)
MODES = {"graph": ms.GRAPH_MODE, "pynative": ms.PYNATIVE_MODE}


@pytest.fixture(autouse=True)
def _restore_mode():
    mode = ms.get_context("mode")
    yield
    ms.set_context(mode=mode)


@pytest.mark.parametrize("tag", sorted(MODES))
@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_names_match_mindspore(name, tag):
    got = record(ms, BUILDERS[name], MODES[tag])
    want = RECORDED[f"{name}_{tag}"]
    assert got["before"] == want["before"]
    assert got["refused"] == want["refused"]
    assert got["after"] == want["after"]
    np.testing.assert_allclose(got["out"], want["out"], rtol=1e-5, atol=1e-6)


def test_optimizer_accepted_after_the_first_call():
    net = BUILDERS["convnext_like"](ms)
    net(ms.Tensor(np.ones((2, 3), np.float32)))
    opt = ms.nn.Momentum(net.trainable_params(), 0.1, 0.9)
    assert len(opt.parameters) == len(names(net))

