"""``nn.loss`` (MindSpore's ``mindspore.nn.loss`` package; the cells live in ``loss.py``,
the margin, Dice and sampled-softmax losses in their own modules)."""
from . import loss
from .ctc import CTCLoss
from .dice import DiceLoss, MultiClassDiceLoss
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CosineEmbeddingLoss,
    CrossEntropyLoss,
    FocalLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    LossBase,
    MAELoss,
    MarginRankingLoss,
    MSELoss,
    MultiLabelSoftMarginLoss,
    NLLLoss,
    PoissonNLLLoss,
    RMSELoss,
    SmoothL1Loss,
    SoftmaxCrossEntropyWithLogits,
)
from .margin import (
    MultilabelMarginLoss,
    MultiMarginLoss,
    SoftMarginLoss,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)
from .sampled_softmax import SampledSoftmaxLoss

__all__ = ["LossBase", "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "CrossEntropyLoss",
           "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss", "CosineEmbeddingLoss",
           "SoftmaxCrossEntropyWithLogits", "MarginRankingLoss", "HingeEmbeddingLoss",
           "GaussianNLLLoss", "MultiLabelSoftMarginLoss", "CTCLoss", "MAELoss", "RMSELoss",
           "PoissonNLLLoss", "FocalLoss", "DiceLoss", "MultiClassDiceLoss", "SoftMarginLoss",
           "MultiMarginLoss", "MultilabelMarginLoss", "TripletMarginLoss",
           "TripletMarginWithDistanceLoss", "SampledSoftmaxLoss"]

# MindSpore defines every loss in nn/loss/loss.py: ``from mindspore.nn.loss.loss import X``
for _cls in (DiceLoss, MultiClassDiceLoss, SoftMarginLoss, MultiMarginLoss,
             MultilabelMarginLoss, TripletMarginLoss, TripletMarginWithDistanceLoss,
             SampledSoftmaxLoss):
    setattr(loss, _cls.__name__, _cls)
