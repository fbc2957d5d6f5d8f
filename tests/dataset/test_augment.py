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


def test_unseeded_policies_keep_what_mindspore_guarantees():
    """Without a seed the draws are fresh, but zero operations change nothing and every
    output keeps the image's shape and dtype."""
    vision = ms.dataset.vision
    seed = ms.dataset.config.get_seed()
    ms.dataset.config.set_seed(5489)  # MindSpore's "no seed"
    try:
        from .fixtures.augment_cases import images
        img = images(1)[0]
        np.testing.assert_array_equal(vision.RandAugment(num_ops=0)(img), img)
        for op in (vision.AutoAugment(vision.AutoAugmentPolicy.CIFAR10),
                   vision.TrivialAugmentWide(), vision.RandAugment(3, 4, 8)):
            for _ in range(5):
                out = op(img)
                assert out.shape == img.shape and out.dtype == np.uint8
    finally:
        ms.dataset.config.set_seed(seed)
