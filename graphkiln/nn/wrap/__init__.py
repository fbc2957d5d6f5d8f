"""``mindspore.nn.wrap``: cells that wrap a network for training (loss, one step, gradient
reduction across processes, loss scaling)."""
from .cell_wrapper import TrainOneStepCell, WithEvalCell, WithGradCell, WithLossCell
from .grad_reducer import DistributedGradReducer
from .loss_scale import (
    DynamicLossScaleUpdateCell,
    FixedLossScaleUpdateCell,
    TrainOneStepWithLossScaleCell,
)

__all__ = ["TrainOneStepCell", "WithEvalCell", "WithLossCell", "WithGradCell",
           "DistributedGradReducer",
           "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell",
           "TrainOneStepWithLossScaleCell"]
