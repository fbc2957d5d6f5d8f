"""Optimizers: ``Optimizer`` and MindSpore's ``Momentum``, ``SGD``, ``Adam``,
``AdamWeightDecay``, ``RMSProp``, ``Adagrad``, ``Lamb``, ``LARS``, ``ASGD``, ``Rprop``,
``AdaMax``, ``Adadelta``, ``FTRL``, ``ProximalAdagrad``, ``LazyAdam`` and ``AdaFactor``."""
from ...common.module_alias import alias_modules
from . import adam, ftrl
from .adadelta import Adadelta
from .adafactor import AdaFactor
from .adagrad import Adagrad
from .adam import Adam, AdamWeightDecay, LazyAdam
from .adamax import AdaMax
from .asgd import ASGD
from .ftrl import FTRL, ProximalAdagrad
from .lamb import Lamb
from .lars import LARS
from .momentum import Momentum
from .optimizer import Optimizer
from .rmsprop import RMSProp
from .rprop import Rprop
from .sgd import SGD
from .thor import thor

__all__ = ["Optimizer", "Momentum", "SGD", "Adam", "AdamWeightDecay", "RMSProp", "Adagrad",
           "Lamb", "LARS", "thor", "ASGD", "Rprop", "AdaMax", "Adadelta", "FTRL", "ProximalAdagrad",
           "LazyAdam", "AdaFactor"]

alias_modules(__name__, {"proximal_ada_grad": ftrl, "lazyadam": adam})  # MindSpore's modules
