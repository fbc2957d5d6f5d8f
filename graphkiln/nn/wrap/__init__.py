"""``mindspore.nn.wrap``: cells that wrap a network for training (loss, one step, gradient
reduction across processes, loss scaling)."""
from .cell_wrapper import TrainOneStepCell, WithEvalCell, WithLossCell
from .grad_reducer import DistributedGradReducer
from .loss_scale import (
    DynamicLossScaleUpdateCell,
    FixedLossScaleUpdateCell,
    TrainOneStepWithLossScaleCell,
)

__all__ = ["TrainOneStepCell", "WithEvalCell", "WithLossCell", "DistributedGradReducer",
           "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell",
           "TrainOneStepWithLossScaleCell"]
