"""AutoAugment, RandAugment and TrivialAugmentWide give MindSpore 2.10's pixels under a seed
(seeded map and eager calls, every policy, fill values and interpolations) and its argument
and image errors (fixtures/record_augment.py)."""
import json
import os

import numpy as np
import pytest

import graphkiln as ms

from .fixtures.augment_cases import error_cases, run_cases

HERE = os.path.join(os.path.dirname(__file__), "fixtures")
REFERENCE = dict(np.load(os.path.join(HERE, "augment_reference.npz")))
with open(os.path.join(HERE, "augment_errors.json")) as _f:
    ERRORS = json.load(_f)


@pytest.fixture(scope="module")
def results():
    return run_cases(ms)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_augment_matches_mindspore(results, name):
    got, want = results[name], REFERENCE[name]
    assert got.shape == want.shape and got.dtype == want.dtype == np.uint8
    diff = np.abs(got.astype(np.int16) - want)
    assert np.array_equal(got, want), (
        f"{int((diff > 0).sum())} of {diff.size} values differ, by up to {int(diff.max())}")


@pytest.fixture(scope="module")
def errors():
    return error_cases(ms)


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_augment_errors_match_mindspore(errors, name):
    got, want = errors[name], ERRORS[name]
    assert got["type"] == want["type"]
    assert got["message"] and got["message"] in want["message"]
