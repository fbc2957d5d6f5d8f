"""Composite operations (``ops.composite`` / ``C``): autodiff front ends and mapping."""
from .grad import GradOperation, grad, value_and_grad

__all__ = ["GradOperation", "grad", "value_and_grad"]
