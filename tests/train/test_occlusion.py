"""OcclusionSensitivity against MindSpore 2.10 (fixtures/record_occlusion.py) for a fixed
linear classifier, with windows, batching, padding values and a bounding box."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from occlusion_cases import cases, classifier  # noqa: E402

REC = json.loads((FIXTURES / "occlusion.json").read_text())


@pytest.mark.parametrize("name", sorted(cases()))
def test_matches_mindspore(name):
    kwargs, x, label = cases()[name]
    m = ms.OcclusionSensitivity(**kwargs)
    m.update(classifier(ms), ms.Tensor(x), label)
    np.testing.assert_allclose(m.eval(), REC[name], rtol=1e-5, atol=1e-6)


def test_errors():
    x = np.zeros((2, 1, 2, 2), np.float32)
    with pytest.raises(RuntimeError, match="index 0"):
        ms.OcclusionSensitivity().update(classifier(ms), x, np.array(0))
    with pytest.raises(TypeError, match="pad_val"):
        ms.OcclusionSensitivity(pad_val=0)
    with pytest.raises(ValueError, match="bounding box"):
        ms.OcclusionSensitivity(b_box=[0, 1]).update(classifier(ms), x[:1], np.array(0))
    with pytest.raises(RuntimeError, match="update"):
        ms.OcclusionSensitivity().eval()
