"""``graphkiln.train.callback`` (``mindspore.train.callback``): training callbacks."""
from ...common.module_alias import alias_modules
from . import (
    backup_restore,
    callback,
    checkpoint,
    early_stop,
    flops_collector,
    history,
    loss_monitor,
    lr_control,
    on_request_exit,
    summary,
    time_monitor,
)
from .backup_restore import BackupAndRestore
from .callback import Callback, CallbackManager, CallbackParams, RunContext
from .checkpoint import CheckpointConfig, ModelCheckpoint
from .early_stop import EarlyStopping
from .flops_collector import FlopsUtilizationCollector
from .history import History, LambdaCallback
from .loss_monitor import LossMonitor
from .lr_control import LearningRateScheduler, ReduceLROnPlateau
from .on_request_exit import OnRequestExit
from .plot import TrainingPlot
from .progress import ProgressBar
from .summary import SummaryCollector
from .time_monitor import TimeMonitor

__all__ = ["Callback", "RunContext", "CallbackManager", "LossMonitor", "TimeMonitor",
           "ModelCheckpoint", "CheckpointConfig", "LearningRateScheduler", "ReduceLROnPlateau",
           "EarlyStopping", "History", "LambdaCallback", "SummaryCollector", "OnRequestExit",
           "ProgressBar", "TrainingPlot", "CallbackParams", "BackupAndRestore",
           "FlopsUtilizationCollector"]

# MindSpore's names, imported by custom training loops
_InternalCallbackParam = CallbackParams
_CallbackManager = CallbackManager

alias_modules(__name__, {  # MindSpore's private module names, imported by user callbacks
    "_callback": callback, "_checkpoint": checkpoint, "_early_stop": early_stop,
    "_history": history, "_lambda_callback": history, "_loss_monitor": loss_monitor,
    "_lr_scheduler_callback": lr_control, "_reduce_lr_on_plateau": lr_control,
    "_on_request_exit": on_request_exit, "_summary_collector": summary,
    "_time_monitor": time_monitor, "_backup_and_restore": backup_restore,
    "_flops_collector": flops_collector})
