"""``ops.Mod`` (truncated remainder, the sign of ``x``): values, dtypes, TypeErrors and
gradients against MindSpore 2.10 CPU GRAPH mode (fixtures/mod.json, fixtures/record_mod.py);
PYNATIVE == GRAPH."""
import json
import os
import sys

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import Tensor, nn, ops

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
sys.path.insert(0, FIXTURES)
from apply_cell import apply_cell_class  # noqa: E402
from mod_cases import CASES, X, Y  # noqa: E402

with open(os.path.join(FIXTURES, "mod.json")) as f:
    RECORDED = json.load(f)


def ModNet():
    """A cell that applies ``ops.Mod``."""
    return apply_cell_class(nn)(ops.Mod())


def as_input(v):
    return Tensor(v) if isinstance(v, np.ndarray) else v


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("name", sorted(CASES))
def test_mod_matches_mindspore(name, mode):
    ms.set_context(mode=mode)
    x, y = CASES[name]
    want = RECORDED[name]
    if "error" in want:
        key = want["error"].split(" must be one of")[0]
        with pytest.raises(TypeError, match=key):
            ModNet()(as_input(x), as_input(y))
        return
    got = ModNet()(as_input(x), as_input(y))
    assert str(got.dtype) == want["dtype"]
    np.testing.assert_array_equal(got.asnumpy(), np.array(want["value"]))


def test_mod_gradient_matches_mindspore():
    # MindSpore's rule uses floor(x / y) for dy, as FloorMod does (not trunc): checked too
    w = Tensor(np.arange(1, 7, dtype=np.float32).reshape(2, 3))
    dx, dy = ms.grad(lambda x, y: (ModNet()(x, y) * w).sum(), grad_position=(0, 1))(
        Tensor(X), Tensor(Y))
    want = RECORDED["grad_float_tensors"]
    np.testing.assert_allclose(dx.asnumpy(), want["dx"])
    np.testing.assert_allclose(dy.asnumpy(), want["dy"])
