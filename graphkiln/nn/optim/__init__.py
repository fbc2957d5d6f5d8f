"""Optimizers: ``Optimizer`` and MindSpore's ``Momentum``, ``SGD``, ``Adam``,
``AdamWeightDecay``, ``RMSProp``, ``Adagrad``, ``Lamb`` and ``LARS``."""
from .adagrad import Adagrad
from .adam import Adam, AdamWeightDecay
from .lamb import Lamb
from .lars import LARS
from .momentum import Momentum
from .optimizer import Optimizer
from .rmsprop import RMSProp
from .sgd import SGD
from .thor import thor

__all__ = ["Optimizer", "Momentum", "SGD", "Adam", "AdamWeightDecay", "RMSProp", "Adagrad",
           "Lamb", "LARS", "thor"]
