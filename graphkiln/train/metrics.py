"""``graphkiln.train.metrics`` (``mindspore.train.metrics``): the metrics of
:mod:`graphkiln.nn.metrics`, where they live because they need nothing above ``nn``."""
from ..nn.metrics import *  # noqa: F403  (the same names, under mindspore.train.metrics)
from ..nn.metrics import EvaluationBase, __all__, get_metrics  # noqa: F401
