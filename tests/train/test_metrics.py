"""Metrics against results recorded from MindSpore 2.10 (fixtures/record_metrics.py)."""
import json
import os

import numpy as np
import pytest

import graphkiln as ms
from graphkiln import nn, train
from graphkiln.train import metrics

with open(os.path.join(os.path.dirname(__file__), "fixtures", "metrics.json")) as f:
    CASES = json.load(f)


def decode(x):
    if isinstance(x, dict):
        return np.array(x["array"], dtype=x["dtype"])
    return x


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['name']}-{c['kwargs']}-"
                                                     f"{c['eval_kwargs']}")
def test_metric_matches_mindspore(case):
    metric = getattr(train, case["name"])(**case["kwargs"])
    metric.clear()
    for batch in case["batches"]:
        metric.update(*[decode(x) for x in batch])
    result = np.asarray(metric.eval(**case["eval_kwargs"]), dtype=np.float64)
    np.testing.assert_allclose(np.nan_to_num(result, nan=-999.0), case["result"], rtol=1e-12)


def test_tensor_inputs_and_call():
    acc = train.Accuracy()
    pred = ms.Tensor(np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], np.float32))
    assert acc(pred, ms.Tensor(np.array([1, 0, 0], np.int32))) == pytest.approx(2 / 3)
    assert acc(pred, [1, 0, 1]) == 1.0


def test_rearrange_inputs_and_set_indexes():
    mae = train.MAE().set_indexes([2, 0])
    mae.update(np.array([9.0]), np.array([100.0]), np.array([1.0]))
    assert mae.eval() == 8.0

    class Sum(metrics.Metric):
        def clear(self):
            self.total = 0

        @metrics.rearrange_inputs
        def update(self, *inputs):
            self.total += inputs[0]

        def eval(self):
            return self.total

    assert Sum().set_indexes([1])(5, 7) == 7
    with pytest.raises(ValueError, match="must be a list"):
        train.MAE().set_indexes((0, 1))


def test_errors():
    with pytest.raises(RuntimeError, match="number of samples is 0"):
        train.Accuracy().eval()
    with pytest.raises(ValueError, match="it needs 2 inputs"):
        train.Accuracy().update(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="class number not match"):
        acc = train.Accuracy()
        acc.update(np.zeros((2, 3)), np.array([0, 1]))
        acc.update(np.zeros((2, 4)), np.array([0, 1]))
    with pytest.raises(TypeError, match="eval_type"):
        train.Accuracy("regression")
    with pytest.raises(TypeError, match="input data type must be tensor"):
        train.MSE().update((1, 2), (1, 2))
    with pytest.raises(NotImplementedError):
        train.ConfusionMatrixMetric(metric_name="nonsense")
    with pytest.raises(ValueError, match="n_gram"):
        train.BleuScore(n_gram=5)
    with pytest.raises(KeyError, match="unsupported metric"):
        metrics.get_metric_fn("nope")


def test_names_and_factory():
    assert "accuracy" in metrics.names() and "confusion_matrix_metric" in metrics.names()
    assert isinstance(metrics.get_metric_fn("top_5_accuracy"), train.Top5CategoricalAccuracy)
    assert set(metrics.get_metrics({"acc", "loss"})) == {"acc", "loss"}
    assert nn.Accuracy is train.Accuracy and ms.train.metrics.F1 is train.F1
