"""``graphkiln.nn``: cells, containers, layers, losses, optimizers, training wrappers."""
from . import init, layer, metrics
from .cell import Cell
from .dynamic_lr import (
    cosine_decay_lr,
    exponential_decay_lr,
    inverse_decay_lr,
    natural_exp_decay_lr,
    piecewise_constant_lr,
    polynomial_decay_lr,
    warmup_lr,
)
from .graph_cell import GraphCell
from .init import set_seed
from .layer import *  # noqa: F403  (every layer cell, listed once in nn/layer)
from .layer import __all__ as _LAYERS
from .learning_rate_schedule import (
    CosineDecayLR,
    ExponentialDecayLR,
    InverseDecayLR,
    LearningRateSchedule,
    NaturalExpDecayLR,
    PolynomialDecayLR,
    WarmUpLR,
)
from .loss import *  # noqa: F403  (every loss cell, listed once in nn/loss)
from .loss import __all__ as _LOSSES
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
    get_metrics,
    names,
    rearrange_inputs,
)
from .optim import (
    ASGD,
    LARS,
    SGD,
    Adagrad,
    Adam,
    AdaMax,
    AdamWeightDecay,
    Lamb,
    Momentum,
    Optimizer,
    RMSProp,
    Rprop,
    thor,
)
from .wrap.cell_wrapper import TrainOneStepCell, WithEvalCell, WithGradCell, WithLossCell
from .wrap.loss_scale import (
    DynamicLossScaleUpdateCell,
    FixedLossScaleUpdateCell,
    TrainOneStepWithLossScaleCell,
)

__all__ = [
    "Cell", "GraphCell", "init", "set_seed", "layer", *_LAYERS, *_LOSSES,
    # optimizers and learning rates
    "Optimizer", "Momentum", "SGD", "Adam", "AdamWeightDecay", "RMSProp", "Adagrad", "Lamb", "thor",
    "LARS", "ASGD", "Rprop", "AdaMax",
    "LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR",
    "InverseDecayLR", "CosineDecayLR", "PolynomialDecayLR", "WarmUpLR",
    "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr", "cosine_decay_lr",
    "piecewise_constant_lr", "warmup_lr", "polynomial_decay_lr",
    # training wrappers
    "WithLossCell", "WithGradCell", "TrainOneStepCell", "TrainOneStepWithLossScaleCell",
    "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "WithEvalCell",
    # metrics
    "metrics", "Metric", "rearrange_inputs", "names", "get_metric_fn", "Accuracy", "Precision",
    "Recall", "Fbeta", "F1", "MAE", "MSE", "Loss", "TopKCategoricalAccuracy",
    "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "ConfusionMatrix",
    "ConfusionMatrixMetric", "Dice", "BleuScore",
]
from .wrap.grad_reducer import DistributedGradReducer  # noqa: E402

__all__ += ["DistributedGradReducer"]

from .parameter_update import ParameterUpdate  # noqa: E402

__all__ += ["ParameterUpdate"]

from .metrics import (  # noqa: E402
    ROC,
    HausdorffDistance,
    MeanSurfaceDistance,
    OcclusionSensitivity,
    RootMeanSquareDistance,
)

__all__ += ["CosineSimilarity", "Perplexity", "auc", "get_metrics", "ROC", "HausdorffDistance",
            "MeanSurfaceDistance", "RootMeanSquareDistance", "OcclusionSensitivity"]

from .optim import FTRL, Adadelta, AdaFactor, LazyAdam, ProximalAdagrad  # noqa: E402

__all__ += ["Adadelta", "FTRL", "ProximalAdagrad", "LazyAdam", "AdaFactor"]

from . import grad  # noqa: E402  (mindspore.nn.grad)
from .grad import Jvp, Vjp  # noqa: E402
from .wrap.value_and_grad_cells import ForwardValueAndGrad, GradAccumulationCell  # noqa: E402

__all__ += ["grad", "Jvp", "Vjp", "ForwardValueAndGrad", "GradAccumulationCell"]

from . import utils  # noqa: E402  (mindspore.nn.utils)
from .utils import no_init_parameters  # noqa: E402

__all__ += ["utils", "no_init_parameters"]

from . import probability, sparse  # noqa: E402, F401  (mindspore.nn.probability, .sparse)
from .sparse import SparseTensorDenseMatmul, SparseToDense  # noqa: E402

__all__ += ["SparseTensorDenseMatmul", "SparseToDense"]
