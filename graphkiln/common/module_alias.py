"""MindSpore's module paths for graphkiln modules that live under other names (for instance
``mindspore.nn.layer.activation`` is ``graphkiln.nn.activation``): importing the MindSpore
path gives the graphkiln module itself, so there is one module and one set of classes."""
from __future__ import annotations

import sys
from types import ModuleType


def alias_modules(package: str, modules: dict[str, ModuleType]) -> None:
    """Make ``package.<name>`` import as ``modules[name]`` and be an attribute of ``package``."""
    parent = sys.modules[package]
    for name, module in modules.items():
        sys.modules[f"{package}.{name}"] = module
        setattr(parent, name, module)
