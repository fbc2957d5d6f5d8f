"""``graphkiln.nn.metrics`` (``mindspore.nn.metrics``, also ``mindspore.train.metrics``):
evaluation metrics."""
from __future__ import annotations

from .bleu_score import BleuScore
from .classification import (
    F1,
    Accuracy,
    Fbeta,
    Precision,
    Recall,
    Top1CategoricalAccuracy,
    Top5CategoricalAccuracy,
    TopKCategoricalAccuracy,
)
from .confusion_matrix import ConfusionMatrix, ConfusionMatrixMetric
from .dice import Dice
from .metric import EvaluationBase, Metric, rearrange_inputs
from .occlusion import OcclusionSensitivity
from .regression import MAE, MSE, Loss
from .roc import ROC
from .similarity import CosineSimilarity, Perplexity, auc
from .surface_distance import HausdorffDistance, MeanSurfaceDistance, RootMeanSquareDistance

_FACTORY = {
    "accuracy": Accuracy, "acc": Accuracy, "precision": Precision, "recall": Recall, "F1": F1,
    "dice": Dice, "bleu_score": BleuScore, "topk": TopKCategoricalAccuracy,
    "top_1_accuracy": Top1CategoricalAccuracy, "top_5_accuracy": Top5CategoricalAccuracy,
    "mae": MAE, "mse": MSE, "loss": Loss, "confusion_matrix": ConfusionMatrix,
    "confusion_matrix_metric": ConfusionMatrixMetric,
    "cosine_similarity": CosineSimilarity, "perplexity": Perplexity, "roc": ROC,
    "hausdorff_distance": HausdorffDistance, "mean_surface_distance": MeanSurfaceDistance,
    "root_mean_square_distance": RootMeanSquareDistance,
    "occlusion_sensitivity": OcclusionSensitivity,
}


def names() -> list[str]:
    """The metric names :func:`get_metric_fn` knows."""
    return sorted(_FACTORY)


def get_metric_fn(name: str, *args, **kwargs) -> Metric:
    """A new metric by name (``"accuracy"``, ``"mae"``...)."""
    if name not in _FACTORY:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name}, please refer to "
                       f"official website for more details about supported metrics.")
    return _FACTORY[name](*args, **kwargs)


def get_metrics(metrics) -> dict | None:
    """``{name: Metric}`` from a dict of metrics or a set of names."""
    if metrics is None:
        return None
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError("For 'get_metrics', if 'metrics' is dict, the key in 'metrics' "
                                "must be string and value in 'metrics' must be Metric, but got "
                                f"key:{type(name)}, value:{type(metric)}.")
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError("For 'get_metrics', the argument 'metrics' must be None, dict or set, but "
                    f"got {metrics}")


__all__ = ["Metric", "EvaluationBase", "rearrange_inputs", "names", "get_metric_fn",
           "get_metrics", "Accuracy", "Precision", "Recall", "Fbeta", "F1", "MAE", "MSE", "Loss",
           "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
           "ConfusionMatrix", "ConfusionMatrixMetric", "Dice", "BleuScore",
           "CosineSimilarity", "Perplexity", "auc", "ROC", "HausdorffDistance",
           "MeanSurfaceDistance", "RootMeanSquareDistance", "OcclusionSensitivity"]
