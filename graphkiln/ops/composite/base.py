"""``mindspore.ops.composite.base``: the module MindSpore defines its composite front ends
in (code imports ``GradOperation``, ``HyperMap``... from it)."""
from .flags import add_flags
from .grad import GradOperation
from .hypermap import HyperMap, Map, MultitypeFuncGraph

__all__ = ["GradOperation", "HyperMap", "Map", "MultitypeFuncGraph", "add_flags"]
