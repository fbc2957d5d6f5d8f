"""``graphkiln.train`` (``mindspore.train``): ``Model``, callbacks, metrics and checkpoints."""
from . import callback, metrics, serialization
from .callback import (
    BackupAndRestore,
    Callback,
    CheckpointConfig,
    EarlyStopping,
    FlopsUtilizationCollector,
    History,
    LambdaCallback,
    LearningRateScheduler,
    LossMonitor,
    ModelCheckpoint,
    OnRequestExit,
    ProgressBar,
    ReduceLROnPlateau,
    RunContext,
    SummaryCollector,
    TimeMonitor,
    TrainingPlot,
)
from .dataset_helper import DatasetHelper, connect_network_with_dataset, data_sink
from .loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager
from .metrics import (
    F1,
    MAE,
    MSE,
    Accuracy,
    BleuScore,
    ConfusionMatrix,
    ConfusionMatrixMetric,
    CosineSimilarity,
    Dice,
    Fbeta,
    Loss,
    Metric,
    Perplexity,
    Precision,
    Recall,
    Top1CategoricalAccuracy,
    Top5CategoricalAccuracy,
    TopKCategoricalAccuracy,
    auc,
    get_metric_fn,
    names,
    rearrange_inputs,
)
from .model import Model
from .model_export import export, load
from .serialization import (
    async_ckpt_thread_status,
    ckpt_to_safetensors,
    load_checkpoint,
    load_checkpoint_async,
    load_param_into_net,
    safetensors_to_ckpt,
    save_checkpoint,
)
from .summary import SummaryRecord

__all__ = [
    "Model", "callback", "metrics", "serialization",
    "Callback", "RunContext", "LossMonitor", "TimeMonitor", "ModelCheckpoint",
    "CheckpointConfig", "LearningRateScheduler", "ReduceLROnPlateau", "EarlyStopping", "History",
    "LambdaCallback", "SummaryCollector", "OnRequestExit", "ProgressBar", "TrainingPlot",
    "FlopsUtilizationCollector",
    "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager",
    "Metric", "rearrange_inputs", "names", "get_metric_fn", "Accuracy", "Precision", "Recall",
    "Fbeta", "F1", "MAE", "MSE", "Loss", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
    "Top5CategoricalAccuracy", "ConfusionMatrix", "ConfusionMatrixMetric", "Dice", "BleuScore",
    "save_checkpoint", "load_checkpoint", "load_param_into_net", "load_checkpoint_async",
    "ckpt_to_safetensors", "safetensors_to_ckpt", "async_ckpt_thread_status", "export", "load",
    "SummaryRecord",
]

from .metrics import (  # noqa: E402
    ROC,
    HausdorffDistance,
    MeanSurfaceDistance,
    OcclusionSensitivity,
    RootMeanSquareDistance,
)

__all__ += ["CosineSimilarity", "Perplexity", "auc", "ROC", "HausdorffDistance",
            "MeanSurfaceDistance", "RootMeanSquareDistance", "OcclusionSensitivity"]
__all__ += ["DatasetHelper", "connect_network_with_dataset", "data_sink"]
__all__ += ["BackupAndRestore"]
