"""Composite operations (``ops.composite`` / ``C``): autodiff front ends and mapping."""
from .grad import GradOperation, grad, value_and_grad
from .hypermap import HyperMap, Map, MultitypeFuncGraph, partial
from .jvp import jvp
from .loops import ForiLoop, Scan, WhileLoop
from .vmap import vmap

__all__ = ["GradOperation", "grad", "value_and_grad", "HyperMap", "Map", "vmap",
           "MultitypeFuncGraph", "partial", "jvp", "WhileLoop", "ForiLoop", "Scan"]
