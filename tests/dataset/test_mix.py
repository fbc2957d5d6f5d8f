"""MixUpBatch and CutMixBatch give MindSpore 2.10's images and labels under a seed (NHWC
and NCHW, uint8 and float32, NC and NLC labels of several integer types), the Python MixUp
its numpy.random results, and all raise MindSpore's errors for wrong input
(fixtures/record_mix.py)."""
import json
import os

import numpy as np
import pytest

import graphkiln as ms

from .fixtures.mix_cases import error_cases, run_cases

HERE = os.path.join(os.path.dirname(__file__), "fixtures")
REFERENCE = dict(np.load(os.path.join(HERE, "mix_reference.npz")))
with open(os.path.join(HERE, "mix_errors.json")) as _f:
    ERRORS = json.load(_f)


@pytest.fixture(scope="module")
def results():
    return run_cases(ms)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_mix_matches_mindspore(results, name):
    got, want = results[name], REFERENCE[name]
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.fixture(scope="module")
def errors():
    return error_cases(ms)


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_mix_errors_match_mindspore(errors, name):
    got, want = errors[name], ERRORS[name]
    assert got["type"] == want["type"]
    assert got["message"] in want["message"] and (got["message"] or want["type"] is None)


def test_unseeded_mixes_keep_their_structure():
    """Without a seed the draws are fresh; what MindSpore guarantees still holds: mixed
    one-hot labels sum to 1, MixUpBatch mixes every image with one partner by the labels'
    weight, and CutMixBatch pastes whole pixels whose share matches the label weight."""
    vision = ms.dataset.vision
    seed = ms.dataset.config.get_seed()
    ms.dataset.config.set_seed(5489)  # MindSpore's "no seed"
    try:
        rng = np.random.default_rng(0)
        img = rng.integers(0, 256, (6, 8, 10, 3)).astype(np.float32)
        lab = np.eye(6, dtype=np.int32)  # each image its own class: weights are readable
        mixed, labels = vision.MixUpBatch(0.5)(img, lab)
        np.testing.assert_allclose(labels.sum(1), 1, rtol=1e-6)
        for i in range(6):
            partner = int(np.argmax(labels[i] - lab[i] * labels[i, i])) if \
                labels[i, i] < 1 else i
            w = labels[i, i] if partner != i else 1.0
            expect = w * img[i] + (1 - w) * img[partner]
            np.testing.assert_allclose(mixed[i], expect, rtol=1e-5, atol=1e-3)
        cut, labels = vision.CutMixBatch(vision.ImageBatchFormat.NHWC)(img.astype(np.uint8),
                                                                       lab)
        np.testing.assert_allclose(labels.sum(1), 1, rtol=1e-6)
        for i in range(6):
            own = np.all(cut[i] == img[i].astype(np.uint8), axis=-1).mean()
            assert own >= labels[i, i] - 1e-6  # the pasted box may repeat some own pixels
    finally:
        ms.dataset.config.set_seed(seed)
