"""``ops.Morph``: its function is expanded into the graph (gradients from its ops, or from
``bprop_fn``), as MindSpore 2.10 computes them (``fixtures/record_morph.py`` ->
``fixtures/morph.json``); outside a graph it raises RuntimeError."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
import morph_cases  # noqa: E402

RECORDED = json.loads((FIXTURES / "morph.json").read_text())


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_morph_gradients_match_mindspore(name):
    got = morph_cases.run(ms)[name]
    for g, w in zip(got, RECORDED[name], strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-6)


def test_morph_outside_a_graph_raises():
    morph = ms.ops.Morph(morph_cases._scale, morph_cases._infer, morph_cases._infer)
    with pytest.raises(RuntimeError, match="Morph is only supported in GRAPH_MODE"):
        morph(ms.Tensor(np.ones(2, np.float32)))


def test_morph_bprop_needs_plain_parameters():
    with pytest.raises(ValueError, match="param 'k'"):
        ms.ops.Morph(morph_cases._scale, morph_cases._infer, morph_cases._infer,
                     morph_cases._fixed_bprop)
