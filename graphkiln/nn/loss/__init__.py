"""``nn.loss`` (MindSpore's ``mindspore.nn.loss`` package; the cells live in ``loss.py``)."""
from .ctc import CTCLoss
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CosineEmbeddingLoss,
    CrossEntropyLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    LossBase,
    MarginRankingLoss,
    MSELoss,
    MultiLabelSoftMarginLoss,
    NLLLoss,
    SmoothL1Loss,
    SoftmaxCrossEntropyWithLogits,
)

__all__ = ["LossBase", "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "CrossEntropyLoss",
           "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss", "CosineEmbeddingLoss",
           "SoftmaxCrossEntropyWithLogits", "MarginRankingLoss", "HingeEmbeddingLoss",
           "GaussianNLLLoss", "MultiLabelSoftMarginLoss", "CTCLoss"]
