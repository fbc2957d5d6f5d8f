"""ConfusionMatrix (a class-by-class count table) and ConfusionMatrixMetric (sensitivity,
precision, F1, MCC... from per-channel true/false positives/negatives)."""
from __future__ import annotations

import numpy as np

from .metric import Metric, check_two_inputs, no_samples, rearrange_inputs, to_numpy

_NORMALIZE = ("target", "prediction", "all", "no_norm")
_DECREASE = ("none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel")


def _check_type(name: str, value, types, owner: str):
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        raise TypeError(f"For '{owner}', the type of '{name}' should be "
                        f"{' or '.join(t.__name__ for t in types)}, but got "
                        f"{type(value).__name__}.")
    return value


class ConfusionMatrix(Metric):
    """``matrix[true, predicted]`` counts, optionally normalized over 'target' rows,
    'prediction' columns or 'all'."""

    def __init__(self, num_classes: int, normalize: str = "no_norm", threshold: float = 0.5):
        super().__init__()
        self.num_classes = _check_type("num_classes", num_classes, (int,), "ConfusionMatrix")
        if normalize not in _NORMALIZE:
            raise ValueError("For 'ConfusionMatrix', the argument 'normalize' must be in ['all', "
                             f"'prediction', 'label', 'no_norm'(None)], but got {normalize}.")
        self.normalize = normalize
        self.threshold = _check_type("threshold", threshold, (float,), "ConfusionMatrix")
        self.clear()

    def clear(self) -> None:
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs) -> None:
        check_two_inputs("ConfusionMatrix", inputs)
        y_pred, y = to_numpy(inputs[0]), to_numpy(inputs[1])
        if y_pred.ndim not in (y.ndim, y.ndim + 1):
            raise ValueError("For 'ConfusionMatrix.update', predicted value (input[0]) and true "
                             "value (input[1]) should have same dimensions, or the dimension of "
                             "predicted value equals the dimension of true value add 1, but got "
                             f"predicted value ndim: {y_pred.ndim}, true value ndim: {y.ndim}.")
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        elif np.issubdtype(y_pred.dtype, np.floating):
            y_pred = (y_pred >= self.threshold).astype(int)
        index = (y.reshape(-1) * self.num_classes + y_pred.reshape(-1)).astype(int)
        counts = np.bincount(index, minlength=self.num_classes ** 2)
        self.confusion_matrix += counts.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        matrix = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return matrix
        axis = {"target": 1, "prediction": 0, "all": None}[self.normalize]
        with np.errstate(invalid="ignore", divide="ignore"):
            matrix = matrix / matrix.sum(axis=axis, keepdims=axis is not None)
        matrix[np.isnan(matrix)] = 0
        return matrix


_ALIASES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate", "tpr"),
    "tnr": ("specificity", "selectivity", "true_negative_rate", "tnr"),
    "ppv": ("precision", "positive_predictive_value", "ppv"),
    "npv": ("negative_predictive_value", "npv"),
    "fnr": ("miss_rate", "false_negative_rate", "fnr"),
    "fpr": ("fall_out", "false_positive_rate", "fpr"),
    "fdr": ("false_discovery_rate", "fdr"),
    "for": ("false_omission_rate", "for"),
    "pt": ("prevalence_threshold", "pt"),
    "ts": ("threat_score", "critical_success_index", "ts", "csi"),
    "acc": ("accuracy", "acc"),
    "ba": ("balanced_accuracy", "ba"),
    "f1": ("f1_score", "f1"),
    "mcc": ("matthews_correlation_coefficient", "mcc"),
    "fm": ("fowlkes_mallows_index", "fm"),
    "bm": ("informedness", "bookmaker_informedness", "bm"),
    "mk": ("markedness", "deltap", "mk"),
}
_CANONICAL = {alias: key for key, aliases in _ALIASES.items() for alias in aliases}


def _metric_key(metric_name: str) -> str:
    key = _CANONICAL.get(metric_name.replace(" ", "_").lower())
    if key is None:
        raise NotImplementedError("The metric is not implemented.")
    return key


def _rate(num, den):
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / den, np.nan)


def _fraction(key: str, tp, fp, tn, fn):
    """``(numerator, denominator)`` of the named metric."""
    p, n = tp + fn, fp + tn
    if key in ("pt", "ba", "bm"):
        tpr, tnr = _rate(tp, p), _rate(tn, n)
        return {"pt": (np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0),
                "ba": (tpr + tnr, 2.0), "bm": (tpr + tnr - 1.0, 1.0)}[key]
    if key == "fm":
        return np.sqrt(_rate(tp, tp + fp) * _rate(tp, p)), 1.0
    if key == "mk":
        with np.errstate(invalid="ignore", divide="ignore"):
            return _rate(tp, tp + fp) + tn / (tn + fn) - 1.0, 1.0
    if key == "mcc":
        return tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return {"tpr": (tp, p), "tnr": (tn, n), "ppv": (tp, tp + fp), "npv": (tn, tn + fn),
            "fnr": (fn, p), "fpr": (fp, n), "fdr": (fp, fp + tp), "for": (fn, fn + tn),
            "ts": (tp, tp + fn + fp), "acc": (tp + tn, p + n),
            "f1": (tp * 2.0, tp * 2.0 + fn + fp)}[key]


def _metric_from_counts(metric_name: str, counts: np.ndarray) -> np.ndarray:
    """The metric from ``[..., (tp, fp, tn, fn)]`` counts (NaN where undefined)."""
    counts = counts[None] if counts.ndim == 1 else counts
    num, den = _fraction(_metric_key(metric_name), *(counts[..., i] for i in range(4)))
    if isinstance(den, np.ndarray):
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den != 0, num / den, np.nan)
    return num / den


def _counts(y_pred: np.ndarray, y: np.ndarray, skip_channel: bool) -> np.ndarray:
    """Per (sample, channel) ``[tp, fp, tn, fn]`` of binarized predictions and labels."""
    if not skip_channel:
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    if y.shape != y_pred.shape:
        raise ValueError(f"For 'ConfusionMatrixMetric.update', the shape of y {y.shape} must "
                         f"equal the shape of y_pred {y_pred.shape}.")
    batch, channels = y_pred.shape[:2]
    y_pred = y_pred.astype(float).reshape(batch, channels, -1)
    y = y.astype(float).reshape(batch, channels, -1)
    tp = (y_pred + y == 2).sum(axis=2).astype(float)
    tn = (y_pred + y == 0).sum(axis=2).astype(float)
    positives = y.sum(axis=2)
    return np.stack([tp, y.shape[-1] - positives - tn, tn, positives - tp], axis=-1)


def _reduce(chart: np.ndarray, how: str) -> tuple[np.ndarray, np.ndarray]:
    """``(value, count of non-NaN entries)`` of a (batch, channel) chart reduced as ``how``."""
    nans = np.isnan(chart)
    valid = (~nans).astype(float)
    chart = np.where(nans, 0.0, chart)

    def mean(values, counts, axis):
        total = counts.sum(axis=axis)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, values.sum(axis=axis) / total, 0.0), total

    if how == "mean":
        per_sample, counts = mean(chart, valid, 1)
        value, _ = mean(per_sample, (counts > 0).astype(float), 0)
        return value, (counts > 0).astype(float).sum(axis=0)
    if how == "sum":
        return chart.sum(axis=(0, 1)), valid.sum(axis=(0, 1))
    if how in ("mean_batch", "mean_channel"):
        return mean(chart, valid, 0 if how == "mean_batch" else 1)
    if how in ("sum_batch", "sum_channel"):
        axis = 0 if how == "sum_batch" else 1
        return chart.sum(axis=axis), valid.sum(axis=axis)
    return chart, valid


class ConfusionMatrixMetric(Metric):
    """A confusion-matrix metric (``metric_name``: 'sensitivity', 'precision', 'f1 score',
    'accuracy', 'mcc'...) of binarized ``(batch, channel, ...)`` predictions: from the summed
    counts, or (``calculation_method=True``) averaged per sample and channel as ``decrease``
    says."""

    def __init__(self, skip_channel: bool = True, metric_name: str = "sensitivity",
                 calculation_method: bool = False, decrease: str = "mean"):
        super().__init__()
        owner = "ConfusionMatrixMetric"
        self.skip_channel = _check_type("skip_channel", skip_channel, (bool,), owner)
        self.calculation_method = _check_type("calculation_method", calculation_method,
                                              (bool,), owner)
        self.metric_name = _check_type("metric_name", metric_name, (str,), owner)
        _metric_key(metric_name)
        _check_type("decrease", decrease, (str,), owner)
        if decrease not in _DECREASE:
            raise ValueError(f"For '{owner}', the argument 'decrease' should be str and must be "
                             f"in {list(_DECREASE)}, but got '{decrease}'.")
        self.decrease = decrease
        self.clear()

    def clear(self) -> None:
        self._total_num = 0.0
        self._class_num = 0
        self._totals = np.zeros(4)

    @rearrange_inputs
    def update(self, *inputs) -> None:
        check_two_inputs("ConfusionMatrixMetric", inputs)
        y_pred, y = to_numpy(inputs[0]), to_numpy(inputs[1])
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("For 'ConfusionMatrix.update', the true value (input[1]) must be a "
                             "binarized ndarray.")
        if y_pred.ndim < 2:
            raise ValueError("For 'ConfusionMatrix.update', the predicted value (input[0]) must "
                             f"have at least 2 dimensions, but got {y_pred.ndim}.")
        counts = _counts(y_pred, y, self.skip_channel)
        if self.calculation_method:
            value, valid = _reduce(_metric_from_counts(self.metric_name, counts), self.decrease)
            valid = int(np.asarray(valid).item())
            self._total_num += float(np.asarray(value).item()) * valid
            self._class_num += valid
        else:
            self._totals += counts.sum(axis=(0, 1))

    def eval(self):
        if self.calculation_method:
            if self._class_num == 0:
                raise no_samples("ConfusionMatrixMetric")
            return self._total_num / self._class_num
        return _metric_from_counts(self.metric_name, self._totals)
