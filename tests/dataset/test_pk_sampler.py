"""``PKSampler``: the rows and errors MindSpore 2.10 gave (``fixtures/pk_sampler_cases.py``,
recorded by ``fixtures/record_pk_sampler.py``; MindSpore's sampler tutorial uses it)."""
import json
import os

import pytest

import graphkiln.dataset as ds

from .fixtures.pk_sampler_cases import run_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "pk_sampler_reference.json")) as f:
    RECORDED = json.load(f)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    return run_cases(ds, str(tmp_path_factory.mktemp("pk")))  # conftest resets the seed


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_as_mindspore(outcomes, name):
    assert outcomes[name] == RECORDED[name]
