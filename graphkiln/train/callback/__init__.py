"""``graphkiln.train.callback`` (``mindspore.train.callback``): training callbacks."""
from .callback import Callback, CallbackManager, CallbackParams, RunContext
from .checkpoint import CheckpointConfig, ModelCheckpoint
from .early_stop import EarlyStopping
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
           "ProgressBar", "TrainingPlot", "CallbackParams"]

_InternalCallbackParam = CallbackParams  # MindSpore's name, imported by custom training loops
