"""The names added to ``nn`` for breadth are MindSpore 2.10's (fixtures/record_nn_names.py),
exported at the same paths, and the aliases MindSpore makes are the same objects here."""
import importlib
import json
from pathlib import Path

import pytest

from graphkiln import nn

REC = json.loads((Path(__file__).resolve().parent / "fixtures" / "nn_names.json").read_text())


@pytest.mark.parametrize("name", sorted(REC["has"]))
def test_name_is_mindsporeish_and_exported(name):
    assert REC["has"][name]
    assert hasattr(nn, name)
    if not name[0].islower():
        assert name in nn.__all__


@pytest.mark.parametrize("name,path", [("Jvp", "grad.Jvp"), ("Vjp", "grad.Vjp"),
                                       ("no_init_parameters", "utils.no_init_parameters"),
                                       ("CosineSimilarity", "metrics.CosineSimilarity"),
                                       ("ROC", "metrics.ROC")])
def test_aliases_are_the_same_object(name, path):
    assert REC["same"][name]
    obj = nn
    for part in path.split("."):
        obj = getattr(obj, part)
    assert getattr(nn, name) is obj


@pytest.mark.parametrize("module,name,same", REC["paths"], ids=[f"{m}.{n}" for m, n, _ in
                                                                 REC["paths"]])
def test_mindspore_module_paths(module, name, same):
    assert same
    assert getattr(importlib.import_module(f"graphkiln.{module}"), name) is getattr(nn, name)
