"""Run MindSpore scripts unchanged: ``import mindspore`` (and ``mindspore.nn``,
``mindspore.ops.functional``...) resolves to graphkiln while :func:`install` is active.

``python -m graphkiln run script.py [args]`` installs it and runs the script as
``__main__``.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import os
import runpy
import sys
import types

ALIAS = "mindspore"


class _Loader(importlib.abc.Loader):
    def __init__(self, target: str):
        self.target = target

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self.real_spec = module.__spec__
        return module

    def exec_module(self, module) -> None:
        alias = module.__spec__.name
        # the graphkiln module is already initialised; the import machinery has just given
        # it the alias's spec, which would break its relative imports: restore its own
        module.__spec__ = self.real_spec
        # a moved child whose name is also an attribute here (``mindspore.train.data_sink``
        # the module, ``train.data_sink`` the function): registered now, its later import
        # finds it loaded and does not overwrite the attribute with the module
        for child, real in MOVED.items():
            if child.rpartition(".")[0] == alias and child not in sys.modules:
                sys.modules[child] = importlib.import_module(real)


# MindSpore modules whose graphkiln twin lives elsewhere in the layered tree
MOVED = {
    "mindspore.common.api": "graphkiln.compile.api",
    "mindspore.common._pijit_context": "graphkiln.compile.pijit_context",
    "mindspore.train.amp": "graphkiln.amp",
    "mindspore.train.data_sink": "graphkiln.train.dataset_helper",
}


class _Finder(importlib.abc.MetaPathFinder):
    """Maps ``mindspore[.x.y]`` to ``graphkiln[.x.y]`` (or to its :data:`MOVED` twin)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != ALIAS and not fullname.startswith(ALIAS + "."):
            return None
        real = MOVED.get(fullname) or "graphkiln" + fullname[len(ALIAS):]
        if importlib.util.find_spec(real) is None:
            return None
        return importlib.util.spec_from_loader(fullname, _Loader(real),
                                               is_package=True)


_FINDER = _Finder()


def install() -> None:
    """Make ``import mindspore`` give graphkiln (idempotent)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def uninstall() -> None:
    """Undo :func:`install` (and forget the ``mindspore`` aliases already imported)."""
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    for name in [n for n in sys.modules if n == ALIAS or n.startswith(ALIAS + ".")]:
        del sys.modules[name]


def import_mindspore_module(path: str | os.PathLike) -> types.ModuleType:
    """Import the MindSpore-written module file ``path`` under its own name (its folder
    first on ``sys.path`` while it imports, so it may import its neighbours), with
    ``import mindspore`` giving graphkiln; the alias is removed again afterwards unless it
    was installed before."""
    folder, name = os.path.split(os.path.splitext(os.fspath(path))[0])
    was_installed = _FINDER in sys.meta_path
    install()
    sys.path.insert(0, folder)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(folder)
        if not was_installed:
            uninstall()


def run(script: str, argv: list[str]) -> None:
    """Run ``script`` as ``__main__`` with ``sys.argv = [script, *argv]`` and, as
    ``python script.py`` does, the script's directory first on ``sys.path``."""
    install()
    sys.argv = [script, *argv]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")


def run_module(module: str, argv: list[str]) -> None:
    """Run ``module`` as ``python -m module`` does (``sys.argv[0]`` its file, the
    working directory first on ``sys.path``), with ``import mindspore`` giving graphkiln."""
    install()
    sys.argv = [module, *argv]
    sys.path.insert(0, os.getcwd())
    runpy.run_module(module, run_name="__main__", alter_sys=True)
