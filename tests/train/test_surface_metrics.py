"""HausdorffDistance, MeanSurfaceDistance and RootMeanSquareDistance against MindSpore 2.10
(which uses SciPy's distance transforms; fixtures/record_surface_metrics.py) on 2-D and
3-D masks, for every distance metric, and MindSpore's error types."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import graphkiln as ms

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from surface_cases import error_cases, masks, metric_cases  # noqa: E402

REC = json.loads((FIXTURES / "surface_metrics.json").read_text())
METRICS = metric_cases(ms.train)
MASKS = masks()


@pytest.mark.parametrize("data", sorted(MASKS))
@pytest.mark.parametrize("metric", sorted(METRICS))
def test_value_matches_mindspore(metric, data):
    m = METRICS[metric]()
    pred, y, label = MASKS[data]
    m.update(ms.Tensor(pred) if data == "volume" else pred, y, label)
    np.testing.assert_allclose(m.eval(), REC["values"][f"{metric}/{data}"], rtol=1e-12)


ERRORS = sorted(k for k, v in REC["errors"].items() if v != "no error")


@pytest.mark.parametrize("key", ERRORS)
def test_errors_match_mindspore(key):
    cls_name, case = key.split("/")
    pred, y, _ = MASKS["blobs"]
    thunks = error_cases(getattr(ms, cls_name), pred, y)
    with pytest.raises(Exception) as info:
        thunks[case]()
    assert type(info.value).__name__ == REC["errors"][key]


def test_an_empty_prediction_is_infinitely_far():
    m = ms.HausdorffDistance()
    m.update(np.zeros((4, 4), np.int32), np.eye(4, dtype=np.int32), 1)
    assert m.eval() == np.inf
    assert ms.get_metric_fn("mean_surface_distance").symmetric is False
